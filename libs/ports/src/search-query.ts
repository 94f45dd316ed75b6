/**
 * Engine-neutral search requests and results. `@cairn/search` plans them from the model's
 * annotations; each search engine adapter (embedded SQLite, Elasticsearch) runs them its own way.
 * Field names are index field names (annotation `fieldName`s), never aliases.
 */
import type { SearchFieldType } from '@cairn/core';

/** How the annotations index a field: what an engine needs to lay out its indexes. */
export interface IndexFieldMapping {
  readonly type: SearchFieldType;
  /** Queried by autocomplete (needs prefix matching of its words and whole value). */
  readonly autocomplete: boolean;
  /**
   * Whether whole-value lookups (case-insensitive) can read the field; when false an engine need
   * not keep its lower-cased whole values. Absent: true.
   */
  readonly lookupTerms?: boolean;
  /**
   * Whether lookups by a prefix of its whole values read the field (autocomplete, and ranking by
   * what was typed): an engine should keep its lookup terms where a prefix's are read in order.
   * Absent: false.
   */
  readonly prefixLookups?: boolean;
  /**
   * Whether the field holds many values a document (a list of records' fields) that only filters
   * and sorts read, never a whole-value lookup, facet or autocomplete: an engine may index its whole
   * values for exact and prefix filters alone. Absent: false.
   */
  readonly manyValues?: boolean;
}

/** Index field → its mapping, per entity type. */
export type SearchMappings = ReadonlyMap<string, ReadonlyMap<string, IndexFieldMapping>>;

/** The document's entity type, usable wherever a field name is (filters, facets, sort). */
export const ENTITY_TYPE_FIELD = '_entityType';

export interface FieldBoost {
  readonly field: string;
  readonly boost: number;
}

/**
 * One term of the input; a document matches when every term matches one of the term's fields.
 * `words`: analyzed text (the engine tokenizes it; a multi-word term is a phrase, `prefix` lets its
 * last word be a prefix). `value` (`field:value` input): the whole field value, or for URN fields a
 * URN component (`tags:foo` matches `urn:li:tag:foo`); case-insensitive.
 */
export type SearchTerm =
  | { readonly kind: 'words'; readonly text: string; readonly prefix: boolean; readonly fields: readonly FieldBoost[] }
  | { readonly kind: 'value'; readonly text: string; readonly fields: readonly FieldBoost[] };

export type FilterCondition =
  | 'EQUAL'
  | 'IN'
  | 'CONTAIN'
  | 'START_WITH'
  | 'END_WITH'
  | 'GREATER_THAN'
  | 'GREATER_THAN_OR_EQUAL_TO'
  | 'LESS_THAN'
  | 'LESS_THAN_OR_EQUAL_TO'
  | 'EXISTS'
  | 'IS_NULL';

export interface FilterCriterion {
  /** The criterion holds when any of these fields does (an alias expands to several). */
  readonly fields: readonly string[];
  readonly condition: FilterCondition;
  /**
   * EQUAL / IN: any of the values, exact and case-sensitive (booleans as `true`/`false`);
   * CONTAIN / START_WITH / END_WITH: substring tests on the first value; ranges: the first value,
   * compared as numbers when both sides are numbers; EXISTS / IS_NULL: none.
   */
  readonly values: readonly string[];
  readonly negated: boolean;
}

/** Disjunction of conjunctions; no conjunction at all matches everything. */
export type FilterPlan = readonly (readonly FilterCriterion[])[];

export interface SortSpec {
  readonly field: string;
  readonly order: 'ASCENDING' | 'DESCENDING';
}

export interface FacetSpec {
  readonly field: string;
  readonly displayName?: string;
  /** How many values, most frequent first. */
  readonly size: number;
}

/** What every query selects: documents of some entity types passing a filter. */
export interface DocumentSelection {
  readonly entityTypes: readonly string[];
  readonly filter: FilterPlan;
  /** Soft-deleted documents (`removed` true) are left out unless the filter names `removed`. */
  readonly includeRemoved: boolean;
}

export interface SearchQuery extends DocumentSelection {
  /** All must match; none = every selected document. */
  readonly terms: readonly SearchTerm[];
  /**
   * Ranking: a document's score sums, per term, the highest boost among its matching fields. It is
   * multiplied by 10 when `rankText` equals one of the `rankFields` values and by 1.6 when one
   * starts with it (case-insensitive). Ties, and every document of a termless query, go by URN.
   */
  readonly rankFields: readonly string[];
  readonly rankText?: string;
  /** Overrides the ranking; ties still go by URN. */
  readonly sort?: SortSpec;
  readonly facets: readonly FacetSpec[];
}

export interface MatchedField {
  readonly name: string;
  readonly value: string;
}

export interface SearchHit {
  readonly urn: string;
  readonly entityType: string;
  readonly score: number;
  /** The searched fields that matched, with a matching value. */
  readonly matchedFields: readonly MatchedField[];
}

export interface FacetResult {
  readonly field: string;
  readonly displayName?: string;
  readonly values: readonly { readonly value: string; readonly count: number }[];
}

export interface SearchResult {
  readonly total: number;
  readonly hits: readonly SearchHit[];
  readonly facets: readonly FacetResult[];
}

export interface ScrollResult extends SearchResult {
  /** Present while more hits follow; opaque to callers. */
  readonly nextScrollId?: string;
}

export interface AutocompleteQuery extends DocumentSelection {
  /** What was typed: its words must all match, the last as a prefix, within one field. */
  readonly text: string;
  readonly fields: readonly FieldBoost[];
  readonly limit: number;
}

export interface AutocompleteResult {
  /** Distinct matching field values, best first. */
  readonly suggestions: readonly string[];
  readonly urns: readonly string[];
}

export interface BrowseQuery extends DocumentSelection {
  /** `''` for the root, else `/a/b` (no trailing slash). */
  readonly path: string;
  readonly from: number;
  readonly size: number;
}

export interface BrowseResult {
  /** The page's groups: next path segments below `path`, most entities first, then by name. */
  readonly groups: readonly { readonly name: string; readonly count: number }[];
  readonly totalGroups: number;
  /** The page's entities whose browse path is exactly `path`, by URN; they follow the groups in paging. */
  readonly entities: readonly string[];
  readonly totalEntities: number;
  /** Entities with a browse path strictly below `path`. */
  readonly totalBelow: number;
}
