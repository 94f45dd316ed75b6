/**
 * Settings shared by every index: sizing, the refresh interval, and the analysis the field
 * mappings name. The analysis mirrors the embedded engine's (`@cairn/adapter-embedded`
 * search/analysis.ts), so both engines match the same documents:
 *   words       runs of letters and digits, lower-cased, accents folded; a compound word
 *               (`SampleKafkaDataset`, `v2beta`) also yields its parts, at consecutive positions
 *   urn_parts   a URN's key parts (`urn:li:tag:foo` → foo), nested URNs' parts too
 *   lowercase   the whole value, lower-cased (exact `field:value` matches, whole-value ranking)
 *   browse      every ancestor of a slash path (`/a/b` → /a, /a/b)
 */
import type { ElasticSettings } from './elastic-settings';

/** Longer values are neither filterable nor exact terms, as in the embedded engine. */
export const KEYWORD_IGNORE_ABOVE = 512;

const compoundParts = (preserveOriginal: boolean) => ({
  type: 'word_delimiter_graph',
  preserve_original: preserveOriginal,
  split_on_case_change: true,
  split_on_numerics: true,
  generate_word_parts: true,
  generate_number_parts: true,
  stem_english_possessive: false,
});

const analysis = {
  char_filter: {
    // `urn:li:<type>:` heads go, so only key parts remain: `(urn:li:dataPlatform:hive,db.t,PROD)` → `(,hive,db.t,PROD)`.
    urn_heads: { type: 'pattern_replace', pattern: 'urn:li:[^:(),]*:', replacement: ',' },
  },
  normalizer: {
    lowercase: { type: 'custom', filter: ['lowercase'] },
  },
  tokenizer: {
    words: { type: 'pattern', pattern: '[^\\p{L}\\p{N}]+' },
    urn_parts: { type: 'pattern', pattern: '[,()]+' },
    browse_path: { type: 'path_hierarchy', delimiter: '/' },
  },
  filter: {
    compound_parts_indexed: compoundParts(true),
    compound_parts_queried: compoundParts(false),
  },
  analyzer: {
    words: { type: 'custom', tokenizer: 'words', filter: ['compound_parts_indexed', 'lowercase', 'asciifolding', 'flatten_graph'] },
    query_words: { type: 'custom', tokenizer: 'words', filter: ['compound_parts_queried', 'lowercase', 'asciifolding'] },
    urn_parts: { type: 'custom', tokenizer: 'urn_parts', char_filter: ['urn_heads'], filter: ['lowercase'] },
    browse_path: { type: 'custom', tokenizer: 'browse_path' },
    whole_value: { type: 'custom', tokenizer: 'keyword' },
    lowercase_value: { type: 'custom', tokenizer: 'keyword', filter: ['lowercase'] },
  },
};

export function indexSettings(settings: ElasticSettings): Record<string, unknown> {
  return {
    number_of_shards: settings.shards,
    number_of_replicas: settings.replicas,
    // Explicit, so an index idle for 30 s still refreshes on time instead of on its next search.
    refresh_interval: settings.refreshInterval,
    analysis,
  };
}
