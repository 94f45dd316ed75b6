/**
 * The mapping of an entity index, from its index fields' mappings. Every string field is a
 * `keyword` (exact filters, facets and sorting on the field name itself, case-sensitive) with
 * analyzed subfields by field type:
 *   lower  the whole value, lower-cased          string fields whole-value lookups read
 *   words  words                                 every string field but browse paths and objects
 *   parts  words with compounds split            the same
 *   urn    URN key parts (`tags:foo`)            URN, URN_PARTIAL
 *   path   ancestors, aggregatable (browse)      BROWSE_PATH
 * The words and parts of fields read by prefix lookups (autocomplete, ranking) also index every
 * word's prefixes, so a prefix is a single lookup however many words start with it. Other fields'
 * prefixes are found in the terms dictionary (`term-queries.ts`): indexing the prefixes of every
 * word of a dataset's columns took twice the indexing time and twice the index size.
 */
import type { SearchFieldType } from '@cairn/core';
import type { IndexFieldMapping } from '@cairn/ports';
import type { ValueKind } from './filter-query';
import { KEYWORD_IGNORE_ABOVE } from './index-settings';

type Subfield = 'lower' | 'words' | 'parts' | 'urn' | 'path';

const SUBFIELD_MAPPINGS: Record<Subfield, Record<string, unknown>> = {
  lower: { type: 'keyword', normalizer: 'lowercase', ignore_above: KEYWORD_IGNORE_ABOVE },
  words: { type: 'text', analyzer: 'words', search_analyzer: 'query_form' },
  parts: { type: 'text', analyzer: 'parts', search_analyzer: 'query_form' },
  urn: { type: 'text', analyzer: 'urn_parts', search_analyzer: 'lowercase_value' },
  path: { type: 'text', analyzer: 'browse_path', search_analyzer: 'whole_value', fielddata: true },
};

const SCALAR_MAPPINGS: Partial<Record<SearchFieldType, Record<string, unknown>>> = {
  BOOLEAN: { type: 'boolean' },
  COUNT: { type: 'long' },
  DOUBLE: { type: 'double' },
  DATETIME: { type: 'date', format: 'epoch_millis||strict_date_optional_time' },
};

/** How values of a field type compare: booleans, numbers (dates too, as epoch millis) or text. */
export function valueKindOf(type: SearchFieldType): ValueKind {
  if (type === 'BOOLEAN') return 'boolean';
  return SCALAR_MAPPINGS[type] ? 'number' : 'string';
}

/** String types not searched word by word. */
const NOT_WORDS: ReadonlySet<SearchFieldType> = new Set(['BROWSE_PATH', 'BROWSE_PATH_V2', 'OBJECT']);

/** Longer prefixes are found in the terms dictionary, as every prefix of other fields is. */
const WORD_PREFIXES = { min_chars: 1, max_chars: 19 };

/** The subfields a field has; none for scalar (boolean, number, date) fields. */
export function subfieldsOf(field: Pick<IndexFieldMapping, 'type' | 'lookupTerms'>): Set<Subfield> {
  const { type } = field;
  if (SCALAR_MAPPINGS[type]) return new Set();
  const subfields = new Set<Subfield>();
  if (field.lookupTerms !== false) subfields.add('lower');
  if (!NOT_WORDS.has(type)) subfields.add('words').add('parts');
  if (type === 'URN' || type === 'URN_PARTIAL') subfields.add('urn');
  if (type === 'BROWSE_PATH') subfields.add('path');
  return subfields;
}

function stringMapping(subfields: Iterable<Subfield>, prefixed: boolean): Record<string, unknown> {
  const withPrefixes = (s: Subfield) => (prefixed && (s === 'words' || s === 'parts') ? { ...SUBFIELD_MAPPINGS[s], index_prefixes: WORD_PREFIXES } : SUBFIELD_MAPPINGS[s]);
  const fields = Object.fromEntries([...subfields].sort().map((s) => [s, withPrefixes(s)]));
  return { type: 'keyword', ignore_above: KEYWORD_IGNORE_ABOVE, fields };
}

export function fieldMapping(field: IndexFieldMapping): Record<string, unknown> {
  return SCALAR_MAPPINGS[field.type] ?? stringMapping(subfieldsOf(field), field.prefixLookups === true);
}

/** The Elasticsearch type of a field of this type, for sorting indices that lack it. */
export function elasticTypeOf(type: SearchFieldType): string {
  return (SCALAR_MAPPINGS[type]?.type as string | undefined) ?? 'keyword';
}

/** `fields`: index field name → its mapping, for one entity type. */
export function entityMappings(fields: ReadonlyMap<string, IndexFieldMapping>): Record<string, unknown> {
  const sorted = [...fields].sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    // Fields no annotation declares (written by other features) are filterable and searched as words.
    dynamic_templates: [{ strings: { match_mapping_type: 'string', mapping: stringMapping(['lower', 'words', 'parts'], false) } }],
    properties: Object.fromEntries(sorted.map(([name, field]) => [name, fieldMapping(field)])),
  };
}
