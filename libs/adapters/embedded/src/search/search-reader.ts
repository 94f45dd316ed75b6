/**
 * Queries of the embedded search engine: ranked search, scrolling, facets, autocomplete, browse,
 * counts. Words and filters are looked up in SQLite; ranking, paging and facets run over the
 * in-memory catalog and doc values, so a broad query costs one pass over its matches.
 */
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
import type { EmbeddedDb } from '../database';
import { holdsWords, queryForms, scalarValues, urnComponents } from '@cairn/search';
import { numericValue } from './analysis';
import type { DocCatalog } from './doc-catalog';
import type { CountedDocs, DocValues } from './doc-values';
import { criterionDocsSql, isNegated, marks, selectionSql, type FilterFields } from './selection-sql';
import { inOrder, smallest } from './smallest';
import type { FieldRegistry } from './search-tables';
import { StatementCache } from './statement-cache';
import { TermMatcher, type TermMatch } from './term-matcher';
import { ValueTokenReads } from './value-token-reads';

/** A hit's place in the result order; also what a scroll id carries. */
interface Position {
  readonly score: number;
  readonly sortKey?: string | number | null;
  readonly urn: string;
}

interface Candidate {
  readonly docId: number;
  readonly score: number;
}

/** Selected documents and their scores, in parallel: a broad query has tens of thousands, too many for an object each. */
interface Candidates {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
}

type Ranked = Candidate & Position;

const MATCH_ALL_SCORE = 1;
/** Totals and facets of termless queries kept until the next write (at most this many queries). */
const SELECTION_CACHE_SIZE = 100;
/** Autocomplete ranks at most this many candidates of each kind: the exact matches and nearest completions, in term order, and the first word matches. */
const AUTOCOMPLETE_CANDIDATES = 100;

const byUrn = (a: Position, b: Position) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0);

function compareKeys(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** Result order: by the sort field (documents without it last), else by score; ties by URN. */
function comparator(sort: SortSpec | undefined): (a: Position, b: Position) => number {
  if (!sort) return (a, b) => b.score - a.score || byUrn(a, b);
  const dir = sort.order === 'DESCENDING' ? -1 : 1;
  return (a, b) => {
    const an = a.sortKey === null || a.sortKey === undefined;
    const bn = b.sortKey === null || b.sortKey === undefined;
    if (an || bn) return an === bn ? byUrn(a, b) : an ? 1 : -1;
    return dir * compareKeys(a.sortKey as string | number, b.sortKey as string | number) || byUrn(a, b);
  };
}

function encodeScrollId(p: Position): string {
  return Buffer.from(JSON.stringify({ score: p.score, ...(p.sortKey !== undefined ? { sortKey: p.sortKey } : {}), urn: p.urn })).toString('base64url');
}

function decodeScrollId(scrollId: string): Position {
  try {
    const p = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as Position;
    if (typeof p.urn === 'string' && typeof p.score === 'number') return p;
  } catch {
    // reported below
  }
  throw badRequest(`Malformed scrollId '${scrollId}'`);
}

export class SearchReader {
  private readonly matcher: TermMatcher;
  private readonly tokenReads: ValueTokenReads;
  private readonly statements: StatementCache;
  private readonly docById;
  private readonly docField;
  private readonly selectionCache = new Map<string, { generation: number; total: number; facets: FacetResult[] }>();

  constructor(
    db: EmbeddedDb,
    private readonly fieldRegistry: FieldRegistry,
    private readonly catalog: DocCatalog,
    private readonly docValues: DocValues,
  ) {
    this.statements = new StatementCache(db);
    this.tokenReads = new ValueTokenReads(db, fieldRegistry);
    this.matcher = new TermMatcher(db, this.statements, fieldRegistry, catalog, this.tokenReads);
    this.docById = db.prepare('SELECT doc FROM search_docs WHERE doc_id = ?').pluck();
    this.docField = db.prepare('SELECT doc -> ? FROM search_docs WHERE doc_id = ?').pluck();
  }

  /** Doc ids by URN: by their places in URN order when the catalog has them. */
  private byDocUrn(): (a: number, b: number) => number {
    const order = this.catalog.urnOrder();
    if (order) return (a, b) => order[a] - order[b];
    return (a, b) => {
      const ua = this.catalog.urn(a);
      const ub = this.catalog.urn(b);
      return ua < ub ? -1 : ua > ub ? 1 : 0;
    };
  }

  /** The fields a selection's criteria name, in its entity types. */
  private filterFields(entityTypes: readonly string[]): FilterFields {
    return {
      ids: (names) => {
        const rows: number[] = [];
        const tokens: number[] = [];
        for (const id of this.fieldRegistry.ids(entityTypes, names)) (this.fieldRegistry.byFieldId(id)?.valueTokens ? tokens : rows).push(id);
        return { rows, tokens };
      },
      tokenDocs: (c, fieldIds) => this.tokenReads.docs(c, fieldIds),
    };
  }

  /**
   * Whether a document passes the selection's filter; undefined when it has none. Each criterion's
   * documents come from the value index alone (a join through the documents table reads far more
   * pages), then AND, OR and NOT combine in memory.
   */
  private passingFilter(sel: DocumentSelection): ((docId: number) => boolean) | undefined {
    if (!sel.filter.length) return undefined;
    const fields = this.filterFields(sel.entityTypes);
    const ors = sel.filter.map((and) =>
      and.map((c) => {
        const { sql, params } = criterionDocsSql(c, fields);
        return { docs: new Set(this.statements.get(sql).pluck().all(...params) as number[]), negated: isNegated(c) };
      }),
    );
    return (docId) => ors.some((and) => and.every((c) => c.docs.has(docId) !== c.negated));
  }

  /** Whether a document is selected: its entity type, the removed flag, then the filter. */
  private selector(sel: DocumentSelection): (docId: number) => boolean {
    const ofType = this.catalog.typeTest(sel.entityTypes, sel.includeRemoved);
    const passing = this.passingFilter(sel);
    return passing === undefined ? ofType : (docId) => ofType(docId) && passing(docId);
  }

  /** Every selected document matching the terms, unordered. */
  private candidates(query: SearchQuery): Candidates {
    if (query.terms.length === 0) {
      const passing = this.passingFilter(query);
      const docs: number[] = [];
      for (const docId of this.catalog.docsOf(query.entityTypes)) {
        if ((query.includeRemoved || !this.catalog.isRemoved(docId)) && (passing === undefined || passing(docId))) docs.push(docId);
      }
      return { docs: Int32Array.from(docs), scores: new Float64Array(docs.length).fill(MATCH_ALL_SCORE) };
    }
    const selected = this.selector(query);
    const factors = query.rankText ? this.matcher.rankFactors(query.rankText, query.entityTypes, query.rankFields) : undefined;
    const matches = this.matcher.match(query.terms, query.entityTypes);
    const docs = new Int32Array(matches.size);
    const scores = new Float64Array(matches.size);
    let n = 0;
    for (let i = 0; i < matches.size; i++) {
      const docId = matches.docs[i];
      if (!selected(docId)) continue;
      docs[n] = docId;
      scores[n++] = matches.scores[i] * (factors?.get(docId) ?? 1);
    }
    return { docs: docs.subarray(0, n), scores: scores.subarray(0, n) };
  }

  private position(c: Candidate, sortKeys?: (docId: number) => string | number | null): Ranked {
    return { docId: c.docId, score: c.score, urn: this.catalog.urn(c.docId), ...(sortKeys ? { sortKey: sortKeys(c.docId) } : {}) };
  }

  /** The sort field's smallest (ascending) or largest (descending) value of a document. */
  private sortKeys(sort: SortSpec, entityTypes: readonly string[]): (docId: number) => string | number | null {
    if (sort.field === ENTITY_TYPE_FIELD) return (docId) => this.catalog.entityType(docId) ?? null;
    const ids = this.fieldRegistry.ids(entityTypes, [sort.field]);
    const cmp = comparator({ field: sort.field, order: 'ASCENDING' });
    return (docId) => {
      const keys = this.docValues.values(ids, docId).map((v) => numericValue(v) ?? v);
      if (keys.length === 0) return null;
      const ordered = keys.map((k) => ({ score: 0, sortKey: k, urn: '' })).sort(cmp);
      return (sort.order === 'DESCENDING' ? ordered[ordered.length - 1] : ordered[0]).sortKey ?? null;
    };
  }

  /**
   * The page of `size` (plus one, to tell whether more follow) after skipping `from` hits and
   * everything up to `after`, by score and then URN.
   */
  private page(query: SearchQuery, candidates: Candidates, from: number, size: number, after?: Position): Ranked[] {
    const compare = comparator(query.sort);
    const isAfter = (r: Ranked) => !after || compare(r, after) > 0;
    const { docs, scores } = candidates;
    if (query.sort) {
      const keys = this.sortKeys(query.sort, query.entityTypes);
      const eligible = Array.from(docs, (docId, i) => this.position({ docId, score: scores[i] }, keys)).filter(isAfter);
      return smallest(eligible, from + size + 1, compare).slice(from);
    }
    // One bounded heap over the candidates (those past `after` when resuming), by score and then URN:
    // URNs read only for `after`'s own score, and objects only for the page's hits.
    const byUrn = this.byDocUrn();
    const indices: number[] = [];
    for (let i = 0; i < docs.length; i++) {
      if (!after || scores[i] < after.score || (scores[i] === after.score && this.catalog.urn(docs[i]) > after.urn)) indices.push(i);
    }
    const top = smallest(indices, from + size + 1, (a, b) => scores[b] - scores[a] || byUrn(docs[a], docs[b]));
    return top.slice(from).map((i) => this.position({ docId: docs[i], score: scores[i] }));
  }

  /** Without terms every score is equal: the URN index gives the page directly. */
  private urnOrderedPage(query: SearchQuery, from: number, size: number, after?: Position): Ranked[] {
    const { sql, params } = selectionSql(query, this.filterFields(query.entityTypes));
    const rows = this.statements
      .get(`SELECT doc_id, urn FROM search_docs d WHERE ${sql}${after ? ' AND d.urn > ?' : ''} ORDER BY d.urn LIMIT ? OFFSET ?`)
      .raw()
      .all(...params, ...(after ? [after.urn] : []), size + 1, from) as [number, string][];
    return rows.map(([docId, urn]) => ({ docId, urn, score: MATCH_ALL_SCORE }));
  }

  /** Facet counts. A field id belongs to one entity type, so each field counts only that type's documents. */
  private facets(query: SearchQuery, candidates: Candidates): FacetResult[] {
    if (query.facets.length === 0) return [];
    const docsByType = this.catalog.groupByType(candidates.docs);
    const countedByType = new Map<string, CountedDocs>();
    const counted = (entityType: string): CountedDocs | undefined => {
      const docs = docsByType.get(entityType);
      if (!docs) return undefined;
      let out = countedByType.get(entityType);
      if (!out) countedByType.set(entityType, (out = this.catalog.countedDocs(entityType, docs)));
      return out;
    };
    return query.facets.map((f) => {
      let values: { value: string; count: number }[];
      if (f.field === ENTITY_TYPE_FIELD) {
        values = [...docsByType]
          .map(([value, docs]) => ({ value, count: docs.length }))
          .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1))
          .slice(0, f.size);
      } else {
        const docsByField = new Map<number, CountedDocs>();
        for (const id of this.fieldRegistry.ids(query.entityTypes, [f.field])) {
          const docs = counted(this.fieldRegistry.byFieldId(id)?.entityType ?? '');
          if (docs) docsByField.set(id, docs);
        }
        values = this.docValues.counts(docsByField, f.size);
      }
      return { field: f.field, ...(f.displayName ? { displayName: f.displayName } : {}), values };
    });
  }

  /** One field of a stored document (SQLite extracts it: a dataset's document is large, the field small). */
  private fieldOf(docId: number, name: string): unknown {
    const json = this.docField.get(`$.${JSON.stringify(name)}`, docId) as string | null | undefined;
    return json === null || json === undefined ? undefined : JSON.parse(json);
  }

  /** The searched fields of a hit that hold a term, each with its first matching value. */
  private matchedFields(r: Ranked, query: SearchQuery): MatchedField[] {
    if (query.terms.length === 0) return [];
    const doc = JSON.parse(this.docById.get(r.docId) as string) as Record<string, unknown>;
    const out = new Map<string, string>();
    for (const term of query.terms) {
      const forms = queryForms(term.text);
      const text = term.text.toLowerCase();
      const holds = (v: string) => (term.kind === 'value' ? v.toLowerCase() === text || urnComponents(v).some((c) => c.toLowerCase() === text) : holdsWords(v, forms));
      for (const { field } of term.fields) {
        if (out.has(field)) continue;
        const hit = scalarValues(doc[field]).find(holds);
        if (hit !== undefined) out.set(field, hit);
      }
    }
    return [...out].map(([name, value]) => ({ name, value }));
  }

  private hits(page: Ranked[], query: SearchQuery): SearchHit[] {
    return page.map((r) => ({ urn: r.urn, entityType: this.catalog.entityType(r.docId) ?? '', score: r.score, matchedFields: this.matchedFields(r, query) }));
  }

  /**
   * Total and facets of a query: a termless, unsorted query (a listing, with facets over whole
   * entity types) is answered from the cache while nothing was written since.
   */
  private summary(query: SearchQuery, candidates: () => Candidates): { total: number; facets: FacetResult[] } {
    if (query.terms.length > 0 || query.sort) {
      const all = candidates();
      return { total: all.docs.length, facets: this.facets(query, all) };
    }
    const key = JSON.stringify([query.entityTypes, query.filter, query.includeRemoved, query.facets]);
    const cached = this.selectionCache.get(key);
    if (cached && cached.generation === this.catalog.generation) return cached;
    const all = candidates();
    const fresh = { generation: this.catalog.generation, total: all.docs.length, facets: this.facets(query, all) };
    this.selectionCache.delete(key);
    this.selectionCache.set(key, fresh);
    if (this.selectionCache.size > SELECTION_CACHE_SIZE) this.selectionCache.delete(this.selectionCache.keys().next().value as string);
    return fresh;
  }

  search(query: SearchQuery, from: number, size: number): SearchResult {
    let all: Candidates | undefined;
    const candidates = () => (all ??= this.candidates(query));
    const { total, facets } = this.summary(query, candidates);
    const page = (query.terms.length === 0 && !query.sort ? this.urnOrderedPage(query, from, size) : this.page(query, candidates(), from, size)).slice(0, size);
    return { total, hits: this.hits(page, query), facets };
  }

  scroll(query: SearchQuery, scrollId: string | undefined, size: number): ScrollResult {
    const after = scrollId === undefined ? undefined : decodeScrollId(scrollId);
    let all: Candidates | undefined;
    const candidates = () => (all ??= this.candidates(query));
    const { total, facets } = this.summary(query, candidates);
    const page = query.terms.length === 0 && !query.sort ? this.urnOrderedPage(query, 0, size, after) : this.page(query, candidates(), 0, size, after);
    const hits = page.slice(0, size);
    const last = hits[hits.length - 1];
    return {
      total,
      hits: this.hits(hits, query),
      facets,
      ...(page.length > size && last ? { nextScrollId: encodeScrollId(last) } : {}),
    };
  }

  autocomplete(query: AutocompleteQuery): AutocompleteResult {
    if (query.limit <= 0) return { suggestions: [], urns: [] };
    const selected = this.selector(query);
    const matches = this.matcher.autocompleteCandidates(query.text, query.entityTypes, query.fields, AUTOCOMPLETE_CANDIDATES);
    const candidates = [...matches]
      .filter(([docId]) => selected(docId))
      .map(([docId, m]: [number, TermMatch]) => ({ docId, score: m.score, fields: m.fields, urn: this.catalog.urn(docId) }));
    // Candidates without a suggestion are skipped, so a few more than the limit are ranked first.
    const ranked = inOrder(candidates, query.limit * 4, comparator(undefined));
    const boostOf = new Map(query.fields.map((f) => [f.field, f.boost]));
    const typed = query.text.trim().toLowerCase();
    const forms = queryForms(query.text);
    const suggestions: string[] = [];
    const urns: string[] = [];
    for (const r of ranked) {
      if (suggestions.length >= query.limit) break;
      const names = [...r.fields]
        .map((id) => this.fieldRegistry.byFieldId(id)?.name)
        .filter((n): n is string => n !== undefined)
        .sort((a, b) => (boostOf.get(b) ?? 0) - (boostOf.get(a) ?? 0));
      const values = names.flatMap((n) => scalarValues(this.fieldOf(r.docId, n)));
      const suggestion = values.find((v) => v.toLowerCase().startsWith(typed)) ?? values.find((v) => holdsWords(v, forms));
      if (suggestion === undefined) continue;
      urns.push(r.urn);
      if (!suggestions.includes(suggestion)) suggestions.push(suggestion);
    }
    return { suggestions, urns };
  }

  autocompleteEach(queries: readonly AutocompleteQuery[]): AutocompleteResult[] {
    return queries.map((q) => this.autocomplete(q));
  }

  /** The selection as a SQL condition on a `doc_id` column; type and removal come with field ids. */
  private docCondition(sel: DocumentSelection): { sql: string; params: unknown[] } {
    if (sel.filter.length) {
      const { sql, params } = selectionSql(sel, this.filterFields(sel.entityTypes));
      return { sql: `doc_id IN (SELECT d.doc_id FROM search_docs d WHERE ${sql})`, params };
    }
    return sel.includeRemoved ? { sql: '1', params: [] } : { sql: 'doc_id NOT IN (SELECT doc_id FROM search_docs WHERE removed = 1)', params: [] };
  }

  browse(query: BrowseQuery): BrowseResult {
    const ids = this.fieldRegistry.ids(query.entityTypes, ['browsePaths']);
    if (ids.length === 0) return { groups: [], totalGroups: 0, entities: [], totalEntities: 0, totalBelow: 0 };
    const docs = this.docCondition(query);
    const prefix = `${query.path}/`;
    // Values starting with `<path>/` (`0` is the character after `/`), grouped by their next segment.
    const below = `FROM search_values WHERE field_id IN (${marks(ids.length)}) AND value >= ? AND value < ? AND ${docs.sql}`;
    const belowParams = [...ids, prefix, `${query.path}0`, ...docs.params];
    const segment = `CASE WHEN instr(substr(value, ?), '/') > 0 THEN substr(value, ?, instr(substr(value, ?), '/') - 1) ELSE substr(value, ?) END`;
    const from = prefix.length + 1;
    const groups = this.statements
      .get(`SELECT ${segment} AS name, COUNT(DISTINCT doc_id) AS count ${below} GROUP BY name HAVING name <> '' ORDER BY count DESC, name`)
      .all(from, from, from, from, ...belowParams) as { name: string; count: number }[];
    const totalBelow = this.statements.get(`SELECT COUNT(DISTINCT doc_id) ${below} AND value > ?`).pluck().get(...belowParams, prefix) as number;
    const here = query.path
      ? (this.statements
          .get(`SELECT DISTINCT doc_id FROM search_values WHERE field_id IN (${marks(ids.length)}) AND value = ? AND ${docs.sql}`)
          .pluck()
          .all(...ids, query.path, ...docs.params) as number[])
      : [];
    const urns = here.map((docId) => this.catalog.urn(docId)).sort();
    // Groups come first in paging, entities after them.
    const entityFrom = Math.max(query.from - groups.length, 0);
    const entitySize = Math.min(Math.max(query.from + query.size - groups.length, 0), query.size);
    return {
      groups: groups.slice(query.from, query.from + query.size),
      totalGroups: groups.length,
      entities: urns.slice(entityFrom, entityFrom + entitySize),
      totalEntities: urns.length,
      totalBelow,
    };
  }

  countByType(selection: DocumentSelection): Record<string, number> {
    const selected = this.selector(selection);
    const counts: Record<string, number> = {};
    for (const t of selection.entityTypes) {
      let n = 0;
      for (const docId of this.catalog.docsOf([t])) if (selected(docId)) n++;
      counts[t] = n;
    }
    return counts;
  }
}
