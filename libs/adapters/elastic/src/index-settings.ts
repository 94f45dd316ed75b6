/**
 * Settings shared by every index: sizing, the refresh interval, and the analysis the field
 * mappings name. The analysis follows the embedded engine's (`@cairn/adapter-embedded`
 * search/analysis.ts), so both engines match the same documents:
 *   words       runs of letters and digits, lower-cased, accents folded
 *   parts       the same, compound words split into their parts (`SampleKafkaDataset` →
 *               sample kafka dataset, `v2beta` → v 2 beta)
 *   query_form  the words of a query form, already split by the query planner
 *   urn_parts   a URN's key parts (`urn:li:tag:foo` → foo), nested URNs' parts too
 *   browse_path every ancestor of a slash path (`/a/b` → /a, /a/b)
 */
import type { ElasticSettings } from './elastic-settings';

/** Longer values are neither filterable nor exact terms, as in the embedded engine. */
export const KEYWORD_IGNORE_ABOVE = 512;

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
    compound_parts: {
      type: 'word_delimiter_graph',
      split_on_case_change: true,
      split_on_numerics: true,
      generate_word_parts: true,
      generate_number_parts: true,
      stem_english_possessive: false,
    },
  },
  analyzer: {
    words: { type: 'custom', tokenizer: 'words', filter: ['lowercase', 'asciifolding'] },
    parts: { type: 'custom', tokenizer: 'words', filter: ['compound_parts', 'lowercase', 'asciifolding'] },
    query_form: { type: 'custom', tokenizer: 'whitespace', filter: ['lowercase', 'asciifolding'] },
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
