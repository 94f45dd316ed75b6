/**
 * The mapping of an entity index, from the types of its index fields. Every string field is a
 * `keyword` (exact filters, facets and sorting on the field name itself, case-sensitive) with
 * analyzed subfields by field type:
 *   lower  the whole value, lower-cased          every string field
 *   words  words, prefix-searchable              every string field but browse paths and objects
 *   parts  words with compounds split, likewise  the same
 *   urn    URN key parts (`tags:foo`)            URN, URN_PARTIAL
 *   path   ancestors, aggregatable (browse)      BROWSE_PATH
 */
import type { SearchFieldType } from '@cairn/core';
import type { ValueKind } from './filter-query';
import { KEYWORD_IGNORE_ABOVE } from './index-settings';

type Subfield = 'lower' | 'words' | 'parts' | 'urn' | 'path';

const SUBFIELD_MAPPINGS: Record<Subfield, Record<string, unknown>> = {
  lower: { type: 'keyword', normalizer: 'lowercase', ignore_above: KEYWORD_IGNORE_ABOVE },
  // Prefixes of every word are indexed too, so prefix queries are single lookups with no expansion limit.
  words: { type: 'text', analyzer: 'words', search_analyzer: 'query_form', index_prefixes: { min_chars: 1, max_chars: 19 } },
  parts: { type: 'text', analyzer: 'parts', search_analyzer: 'query_form', index_prefixes: { min_chars: 1, max_chars: 19 } },
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

/** The subfields a field of this type has; none for scalar (boolean, number, date) fields. */
export function subfieldsOf(type: SearchFieldType): Set<Subfield> {
  if (SCALAR_MAPPINGS[type]) return new Set();
  const subfields = new Set<Subfield>(['lower']);
  if (!NOT_WORDS.has(type)) subfields.add('words').add('parts');
  if (type === 'URN' || type === 'URN_PARTIAL') subfields.add('urn');
  if (type === 'BROWSE_PATH') subfields.add('path');
  return subfields;
}

function stringMapping(subfields: Iterable<Subfield>): Record<string, unknown> {
  const fields = Object.fromEntries([...subfields].sort().map((s) => [s, SUBFIELD_MAPPINGS[s]]));
  return { type: 'keyword', ignore_above: KEYWORD_IGNORE_ABOVE, fields };
}

export function fieldMapping(type: SearchFieldType): Record<string, unknown> {
  return SCALAR_MAPPINGS[type] ?? stringMapping(subfieldsOf(type));
}

/** `fields`: index field name → annotated type, for one entity type. */
export function entityMappings(fields: ReadonlyMap<string, SearchFieldType>): Record<string, unknown> {
  const sorted = [...fields].sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    // Fields no annotation declares (written by other features) are filterable and searched as words.
    dynamic_templates: [{ strings: { match_mapping_type: 'string', mapping: stringMapping(['lower', 'words', 'parts']) } }],
    properties: Object.fromEntries(sorted.map(([name, type]) => [name, fieldMapping(type)])),
  };
}
