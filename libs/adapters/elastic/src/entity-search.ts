/** Queries over the entity indices: ranked search, scrolling, facets, autocomplete, browse, counts. */
import { badRequest } from '@cairn/core';
import {
  ENTITY_TYPE_FIELD,
  type AutocompleteQuery,
  type AutocompleteResult,
  type BrowseQuery,
  type BrowseResult,
  type DocumentSelection,
  type FacetResult,
  type MatchedField,
  type ScrollResult,
  type SearchHit,
  type SearchQuery,
  type SearchResult,
  type SortSpec,
} from '@cairn/ports';
import { holdsWords, queryForms, scalarValues, urnComponents } from '@cairn/search';
import type { ElasticConnection } from './elastic-connection';
import type { EntityIndices } from './entity-indices';
import { elasticTypeOf } from './entity-mappings';
import { MATCH_ALL, type Query } from './filter-query';
import { SelectionQueries } from './selection-query';
import { TermQueries } from './term-queries';

const BROWSE_FIELD = 'browsePaths';
/** Most browse groups listed below one path. */
const MAX_BROWSE_GROUPS = 10_000;
/** Hits fetched per round while collecting autocomplete suggestions. */
const AUTOCOMPLETE_PAGE = 50;

interface Hit {
  _id: string;
  _index: string;
  _score: number | null;
  _source: Record<string, unknown>;
  matched_queries?: string[];
  sort: unknown[];
}

interface Bucket {
  key: string | number;
  key_as_string?: string;
  doc_count: number;
}

type SearchBody = Record<string, unknown>;

function encodeScrollId(sort: unknown[]): string {
  return Buffer.from(JSON.stringify(sort)).toString('base64url');
}

function decodeScrollId(scrollId: string): unknown[] {
  try {
    const sort = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(sort) && sort.length > 0) return sort;
  } catch {
    // reported below
  }
  throw badRequest(`Malformed scrollId '${scrollId}'`);
}

/** Values as documents hold them: booleans as true/false, numbers and dates as their number. */
function bucketValue(b: Bucket): string {
  if (typeof b.key === 'string') return b.key;
  return b.key_as_string === 'true' || b.key_as_string === 'false' ? b.key_as_string : String(b.key);
}

/** Escapes a literal for a Lucene regular expression (terms aggregation `include`). */
function regexLiteral(text: string): string {
  return text.replace(/[.?+*|{}[\]()"\\#@&<>~]/g, (c) => `\\${c}`);
}

export class EntitySearch {
  private readonly selection: SelectionQueries;
  private readonly terms: TermQueries;

  constructor(
    private readonly conn: ElasticConnection,
    private readonly indices: EntityIndices,
  ) {
    this.selection = new SelectionQueries(indices);
    this.terms = new TermQueries(this.selection);
  }

  private async run(entityTypes: readonly string[], body: SearchBody): Promise<{ hits: Hit[]; total: number; aggregations: Record<string, { buckets: Bucket[] }> }> {
    const { body: res } = await this.conn.client.search({ index: this.selection.indicesOf(entityTypes), ignore_unavailable: true, body });
    return { hits: res.hits.hits, total: res.hits.total?.value ?? 0, aggregations: res.aggregations ?? {} };
  }

  private sortOf(sort: SortSpec | undefined, entityTypes: readonly string[]): unknown[] {
    if (!sort) return [{ _score: 'desc' }, { urn: 'asc' }];
    const order = sort.order === 'DESCENDING' ? 'desc' : 'asc';
    if (sort.field === ENTITY_TYPE_FIELD) return [{ _index: order }, { urn: 'asc' }];
    // Indices without the field sort it as the others have it, so their sort values merge.
    const [type] = this.selection.typesOf(entityTypes, sort.field);
    const unmappedType = type ? elasticTypeOf(type) : 'keyword';
    // Several values: the smallest ascending, the largest descending; documents without one last.
    return [{ [sort.field]: { order, mode: order === 'asc' ? 'min' : 'max', missing: '_last', unmapped_type: unmappedType } }, { urn: 'asc' }];
  }

  private scored(query: SearchQuery): Query {
    const must = query.terms.length ? query.terms.map((t) => this.terms.term(t, query.entityTypes)) : [MATCH_ALL];
    const matched = { bool: { must, filter: this.selection.clauses(query) } };
    return this.terms.ranked(matched, query.rankText, query.rankFields, query.entityTypes);
  }

  private facetAggregations(query: SearchQuery): Record<string, unknown> {
    return Object.fromEntries(
      query.facets.map((f, i) => [`facet_${i}`, { terms: f.field === ENTITY_TYPE_FIELD ? { field: '_index', size: query.entityTypes.length } : { field: f.field, size: f.size } }]),
    );
  }

  private facets(query: SearchQuery, aggregations: Record<string, { buckets: Bucket[] }>): FacetResult[] {
    return query.facets.map((f, i) => {
      const buckets = aggregations[`facet_${i}`]?.buckets ?? [];
      let values = buckets.map((b) => ({ value: bucketValue(b), count: b.doc_count }));
      if (f.field === ENTITY_TYPE_FIELD) {
        values = values.map((v) => ({ value: this.indices.entityTypeOf(v.value), count: v.count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
      }
      return { field: f.field, ...(f.displayName ? { displayName: f.displayName } : {}), values: values.slice(0, f.size) };
    });
  }

  private searchBody(query: SearchQuery, size: number): SearchBody {
    const termFields = [...new Set(query.terms.flatMap((t) => t.fields.map((f) => f.field)))];
    return {
      query: this.scored(query),
      sort: this.sortOf(query.sort, query.entityTypes),
      track_scores: true,
      track_total_hits: true,
      size,
      _source: ['urn', ...termFields],
      aggs: this.facetAggregations(query),
    };
  }

  private urnOf(hit: Hit): string {
    return typeof hit._source.urn === 'string' ? hit._source.urn : hit._id;
  }

  /**
   * Per term, the term's fields (first come, once each) with the first value that holds the term:
   * the whole value or a URN key part equal to it, or every word of one of its forms.
   */
  private matchedFields(hit: Hit, query: SearchQuery): MatchedField[] {
    const out = new Map<string, string>();
    for (const term of query.terms) {
      const forms = queryForms(term.text);
      const text = term.text.toLowerCase();
      const holds = (v: string) => (term.kind === 'value' ? v.toLowerCase() === text || urnComponents(v).some((c) => c.toLowerCase() === text) : holdsWords(v, forms));
      for (const { field } of term.fields) {
        if (out.has(field)) continue;
        const value = scalarValues(hit._source[field]).find(holds);
        if (value !== undefined) out.set(field, value);
      }
    }
    return [...out].map(([name, value]) => ({ name, value }));
  }

  private hits(hits: Hit[], query: SearchQuery): SearchHit[] {
    return hits.map((h) => ({ urn: this.urnOf(h), entityType: this.indices.entityTypeOf(h._index), score: h._score ?? 0, matchedFields: this.matchedFields(h, query) }));
  }

  async search(query: SearchQuery, page: { from: number; size: number }): Promise<SearchResult> {
    const res = await this.run(query.entityTypes, { ...this.searchBody(query, page.size), from: page.from });
    return { total: res.total, hits: this.hits(res.hits, query), facets: this.facets(query, res.aggregations) };
  }

  /** Stateless: the scroll id is the last hit's sort position, and the next page searches after it. */
  async scroll(query: SearchQuery, page: { scrollId?: string; size: number }): Promise<ScrollResult> {
    const after = page.scrollId ? { search_after: decodeScrollId(page.scrollId) } : {};
    const res = await this.run(query.entityTypes, { ...this.searchBody(query, page.size + 1), ...after });
    const hits = res.hits.slice(0, page.size);
    const more = res.hits.length > page.size;
    const last = hits[hits.length - 1];
    return {
      total: res.total,
      hits: this.hits(hits, query),
      facets: this.facets(query, res.aggregations),
      ...(more && last ? { nextScrollId: encodeScrollId(last.sort) } : {}),
    };
  }

  async autocomplete(query: AutocompleteQuery): Promise<AutocompleteResult> {
    const forms = queryForms(query.text);
    if (!forms.length || query.limit <= 0) return { suggestions: [], urns: [] };
    const body: SearchBody = {
      query: { bool: { must: [this.terms.autocomplete(query.text, query.fields, query.entityTypes)], filter: this.selection.clauses(query) } },
      sort: this.sortOf(undefined, query.entityTypes),
      size: AUTOCOMPLETE_PAGE,
      track_total_hits: false,
      _source: ['urn', ...query.fields.map((f) => f.field)],
    };
    // Fields by boost, best first (ties in the order asked).
    const byBoost = [...query.fields].sort((a, b) => b.boost - a.boost).map((f) => f.field);
    const typed = query.text.trim().toLowerCase();
    const suggestions: string[] = [];
    const urns: string[] = [];
    let after: unknown[] | undefined;
    for (;;) {
      const { hits } = await this.run(query.entityTypes, { ...body, ...(after ? { search_after: after } : {}) });
      for (const hit of hits) {
        if (suggestions.length >= query.limit) return { suggestions, urns };
        // The value shown: from the best-boosted matched field, preferring one that starts with the text.
        const matched = new Set((hit.matched_queries ?? []).map((name) => name.slice(name.indexOf(':') + 1)));
        const values = byBoost.filter((f) => matched.has(f)).flatMap((f) => scalarValues(hit._source[f]));
        const suggestion = values.find((v) => v.toLowerCase().startsWith(typed)) ?? values.find((v) => holdsWords(v, forms));
        if (suggestion === undefined) continue;
        urns.push(this.urnOf(hit));
        if (!suggestions.includes(suggestion)) suggestions.push(suggestion);
      }
      if (hits.length < AUTOCOMPLETE_PAGE) return { suggestions, urns };
      after = hits[hits.length - 1].sort;
    }
  }

  async browse(query: BrowseQuery): Promise<BrowseResult> {
    const entityTypes = query.entityTypes.filter((t) => this.indices.fields(t).has(BROWSE_FIELD));
    if (!entityTypes.length) return { groups: [], totalGroups: 0, entities: [], totalEntities: 0, totalBelow: 0 };
    const selected = this.selection.clauses(query);
    const below = await this.run(entityTypes, {
      query: { bool: { filter: [...selected, { prefix: { [BROWSE_FIELD]: `${query.path}/` } }] } },
      size: 0,
      track_total_hits: true,
      // The path's ancestors are indexed, so the children of `path` are the ancestors one level deeper.
      aggs: { groups: { terms: { field: `${BROWSE_FIELD}.path`, include: `${regexLiteral(query.path)}/[^/]+`, size: MAX_BROWSE_GROUPS } } },
    });
    const groups = (below.aggregations.groups?.buckets ?? []).map((b) => ({ name: String(b.key).slice(query.path.length + 1), count: b.doc_count }));
    // Groups come first in paging, entities after them.
    const entityFrom = Math.max(query.from - groups.length, 0);
    const entitySize = Math.min(Math.max(query.from + query.size - groups.length, 0), query.size);
    const here = query.path
      ? await this.run(entityTypes, {
          query: { bool: { filter: [...selected, { term: { [BROWSE_FIELD]: query.path } }] } },
          sort: [{ urn: 'asc' }],
          from: entityFrom,
          size: entitySize,
          track_total_hits: true,
          _source: ['urn'],
        })
      : { hits: [], total: 0 };
    return {
      groups: groups.slice(query.from, query.from + query.size),
      totalGroups: groups.length,
      entities: here.hits.map((h) => this.urnOf(h)),
      totalEntities: here.total,
      totalBelow: below.total,
    };
  }

  async countByType(selection: DocumentSelection): Promise<Record<string, number>> {
    const counts: Record<string, number> = Object.fromEntries(selection.entityTypes.map((t) => [t, 0]));
    if (!selection.entityTypes.length) return counts;
    const { aggregations } = await this.run(selection.entityTypes, {
      query: { bool: { filter: this.selection.clauses(selection) } },
      size: 0,
      track_total_hits: false,
      aggs: { types: { terms: { field: '_index', size: selection.entityTypes.length } } },
    });
    for (const b of aggregations.types?.buckets ?? []) counts[this.indices.entityTypeOf(String(b.key))] = b.doc_count;
    return counts;
  }
}
