/**
 * Which documents match the terms of a query (or what was typed), with what score. Whole-value
 * lookups read `search_lookup_terms` (value rows, and the term rows of autocomplete fields and of
 * fields an earlier version allocated) and, for fields keeping their lookup terms as tokens, the
 * token index: exactly, or by a prefix when autocomplete is asked for such a field by name.
 */
import type { FieldBoost, SearchTerm } from '@cairn/ports';
import { queryForms } from '@cairn/search';
import type { EmbeddedDb } from '../database';
import { allWordsQuery, phraseQuery } from './analysis';
import type { DocCatalog } from './doc-catalog';
import { DocScores } from './doc-scores';
import { PostingCache } from './posting-cache';
import { marks } from './selection-sql';
import { acTable, FIELD_SLOTS, type FieldRegistry } from './search-tables';
import type { StatementCache } from './statement-cache';
import { termPrefixQuery, termQuery } from './value-tokens';
import type { ValueTokenReads } from './value-token-reads';

/** An autocomplete candidate: its best score and the fields it matched through. */
export interface TermMatch {
  score: number;
  /** Few (a document matches through one or two fields): an array costs less than a set. */
  readonly fields: number[];
}

const LAST_CHAR = '\u{10FFFF}';
/** Up to this many searched fields, rows of other fields are filtered out in SQL. */
const FEW_FIELDS = 8;
export const EXACT_RANK = 10;
export const PREFIX_RANK = 1.6;

export class TermMatcher {
  private readonly words;
  private readonly wordsInFields;
  private readonly tableExists;
  /** Entity types whose autocomplete word index exists (it is created with the type's first words). */
  private readonly acTypes = new Set<string>();
  private readonly postings: PostingCache;

  constructor(
    db: EmbeddedDb,
    private readonly statements: StatementCache,
    private readonly fieldRegistry: FieldRegistry,
    catalog: DocCatalog,
    private readonly tokens: ValueTokenReads,
  ) {
    this.postings = new PostingCache(db, fieldRegistry, catalog);
    this.words = db.prepare('SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid').pluck();
    this.wordsInFields = db
      .prepare(`SELECT rowid FROM search_fts WHERE search_fts MATCH ? AND rowid % ${FIELD_SLOTS} IN (SELECT value FROM json_each(?)) ORDER BY rowid`)
      .pluck();
    this.tableExists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").pluck();
  }

  private boostsById(entityTypes: readonly string[], fields: readonly FieldBoost[]): Map<number, number> {
    const out = new Map<number, number>();
    for (const f of fields) for (const id of this.fieldRegistry.ids(entityTypes, [f.field])) out.set(id, Math.max(out.get(id) ?? 0, f.boost));
    return out;
  }

  /** Documents matching an FTS expression in one of the fields, with the best boost among them. */
  private byWords(expression: string, boosts: Map<number, number>): DocScores {
    // Boosts by field id in an array: this runs once per matching row, tens of thousands per query.
    const boostOf = new Float64Array(Math.max(0, ...boosts.keys()) + 1).fill(-1);
    for (const [id, boost] of boosts) boostOf[id] = boost;
    // A word is in many fields; when few are searched (`name:x`), SQLite drops the other rows.
    const fieldIds = boosts.size <= FEW_FIELDS ? [...boosts.keys()].sort((a, b) => a - b) : undefined;
    const rows = fieldIds
      ? this.postings.rows(`fields ${fieldIds.join(',')} ${expression}`, expression, (id) => boosts.has(id), () => this.wordsInFields.all(expression, JSON.stringify(fieldIds)) as number[])
      : this.postings.rows(`all ${expression}`, expression, () => true, () => this.words.all(expression) as number[]);
    const docs = new Int32Array(rows.length);
    const scores = new Float64Array(rows.length);
    let n = 0;
    for (let i = 0; i < rows.length; i++) {
      const rowid = rows[i];
      const fieldId = rowid % FIELD_SLOTS;
      const boost = fieldId < boostOf.length ? boostOf[fieldId] : -1;
      if (boost < 0) continue;
      const docId = (rowid - fieldId) / FIELD_SLOTS;
      if (n > 0 && docs[n - 1] === docId) {
        if (boost > scores[n - 1]) scores[n - 1] = boost;
      } else {
        docs[n] = docId;
        scores[n++] = boost;
      }
    }
    return DocScores.ordered(docs.subarray(0, n), scores.subarray(0, n));
  }

  /** Of the fields, those keeping their lookup terms as tokens. */
  private termTokenFields(ids: readonly number[]): number[] {
    return ids.filter((id) => this.fieldRegistry.byFieldId(id)?.termTokens);
  }

  /**
   * Documents and fields whose lookup term equals `term` (exact) or starts with it, as tokens of
   * the fields keeping them so: the exact ones first, at most `cap` of each kind when asked.
   */
  private termTokenMatches(term: string, ids: readonly number[], cap?: number): { docId: number; fieldId: number; exact: boolean }[] {
    const fields = this.termTokenFields(ids);
    if (fields.length === 0) return [];
    const exact = this.tokens.matches(termQuery(term), fields, cap);
    const exactRows = new Set(exact);
    const prefixed = this.tokens.matches(termPrefixQuery(term), fields, cap === undefined ? undefined : cap + exact.length).filter((rowid) => !exactRows.has(rowid));
    const at = (rowid: number, isExact: boolean) => {
      const fieldId = rowid % FIELD_SLOTS;
      return { docId: (rowid - fieldId) / FIELD_SLOTS, fieldId, exact: isExact };
    };
    return [...exact.map((r) => at(r, true)), ...prefixed.slice(0, cap).map((r) => at(r, false))];
  }

  private byValue(text: string, boosts: Map<number, number>): DocScores {
    const out = new Map<number, number>();
    if (boosts.size === 0) return DocScores.EMPTY;
    const ids = [...boosts.keys()];
    const term = text.toLowerCase();
    const rows = this.statements
      .get(`SELECT doc_id, field_id FROM search_lookup_terms WHERE field_id IN (${marks(ids.length)}) AND term = ?`)
      .raw()
      .all(...ids, term) as [number, number][];
    const tokenFields = this.termTokenFields(ids);
    if (tokenFields.length) {
      for (const rowid of this.tokens.matches(termQuery(term), tokenFields)) {
        const fieldId = rowid % FIELD_SLOTS;
        rows.push([(rowid - fieldId) / FIELD_SLOTS, fieldId]);
      }
    }
    for (const [docId, fieldId] of rows) out.set(docId, Math.max(out.get(docId) ?? 0, boosts.get(fieldId) ?? 0));
    return DocScores.fromMap(out);
  }

  private termMatches(term: SearchTerm, entityTypes: readonly string[]): DocScores {
    const boosts = this.boostsById(entityTypes, term.fields);
    if (term.kind === 'value') return this.byValue(term.text, boosts);
    const forms = queryForms(term.text);
    return forms.length && boosts.size ? this.byWords(phraseQuery(forms, term.prefix), boosts) : DocScores.EMPTY;
  }

  /** Documents matching every term, with their scores (summed over the terms), in doc id order. */
  match(terms: readonly SearchTerm[], entityTypes: readonly string[]): DocScores {
    let result: DocScores | undefined;
    for (const term of terms) {
      const matches = this.termMatches(term, entityTypes);
      result = result ? result.intersect(matches) : matches;
      if (result.size === 0) break;
    }
    return result ?? DocScores.EMPTY;
  }

  /**
   * Autocomplete candidates, at most `cap` of each kind: documents whose value of one of the fields
   * starts with the text (ranked ×10 when equal, ×1.6 otherwise), then documents with every word
   * in one field row, the last as a prefix.
   */
  autocompleteCandidates(text: string, entityTypes: readonly string[], fields: readonly FieldBoost[], cap: number): Map<number, TermMatch> {
    const boosts = this.boostsById(entityTypes, fields);
    const out = new Map<number, TermMatch>();
    const term = text.trim().toLowerCase();
    const forms = queryForms(text);
    if (boosts.size === 0 || forms.length === 0) return out;
    const add = (docId: number, fieldId: number, score: number) => {
      const m = out.get(docId);
      if (!m) out.set(docId, { score, fields: [fieldId] });
      else {
        m.score = Math.max(m.score, score);
        if (!m.fields.includes(fieldId)) m.fields.push(fieldId);
      }
    };
    const ids = [...boosts.keys()];
    const prefixed = this.statements
      .get(`SELECT doc_id, field_id, term = ? FROM search_lookup_terms WHERE field_id IN (${marks(ids.length)}) AND term >= ? AND term < ? LIMIT ?`)
      .raw()
      .all(term, ...ids, term, term + LAST_CHAR, cap) as [number, number, number][];
    for (const [docId, fieldId, exact] of prefixed) add(docId, fieldId, (boosts.get(fieldId) ?? 0) * (exact ? EXACT_RANK : PREFIX_RANK));
    for (const m of this.termTokenMatches(term, ids, cap)) add(m.docId, m.fieldId, (boosts.get(m.fieldId) ?? 0) * (m.exact ? EXACT_RANK : PREFIX_RANK));
    // Autocomplete fields have word indexes of their own, one per entity type, whose first matches
    // come without reading the rest; another field asked for uses the main index.
    const acOnly = ids.every((id) => this.fieldRegistry.byFieldId(id)?.mapping?.autocomplete);
    const expression = allWordsQuery(forms);
    const sources = acOnly ? entityTypes.map((t) => this.acRows(t, expression)) : [this.words.iterate(expression) as Iterable<number>];
    for (const rows of sources) {
      let seen = 0;
      for (const rowid of rows) {
        const fieldId = rowid % FIELD_SLOTS;
        const boost = boosts.get(fieldId);
        if (boost === undefined) continue;
        const docId = (rowid - fieldId) / FIELD_SLOTS;
        // A word match adds its field but does not raise the score of a prefix match.
        add(docId, fieldId, out.has(docId) ? 0 : boost);
        if (++seen >= cap) break;
      }
    }
    return out;
  }

  /** Rows of an entity type's autocomplete word index matching an expression, in rowid order, read as far as asked. */
  private acRows(entityType: string, expression: string): Iterable<number> {
    if (!this.acTypes.has(entityType)) {
      if (this.tableExists.get(acTable(entityType)) === undefined) return [];
      this.acTypes.add(entityType);
    }
    const table = acTable(entityType);
    return this.statements.get(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid`).pluck().iterate(expression) as Iterable<number>;
  }

  /**
   * Rank factors of documents whose value of one of the fields equals the text (×10) or starts with
   * it (×1.6), case-insensitive.
   */
  rankFactors(text: string, entityTypes: readonly string[], fields: readonly string[]): Map<number, number> {
    const out = new Map<number, number>();
    const ids = this.fieldRegistry.ids(entityTypes, fields);
    const term = text.trim().toLowerCase();
    if (ids.length === 0 || term === '') return out;
    const rows = this.statements
      .get(`SELECT doc_id, term = ? AS exact FROM search_lookup_terms WHERE field_id IN (${marks(ids.length)}) AND term >= ? AND term < ?`)
      .raw()
      .all(term, ...ids, term, term + LAST_CHAR) as [number, number][];
    for (const [docId, exact] of rows) out.set(docId, Math.max(out.get(docId) ?? 1, exact ? EXACT_RANK : PREFIX_RANK));
    for (const m of this.termTokenMatches(term, ids)) out.set(m.docId, Math.max(out.get(m.docId) ?? 1, m.exact ? EXACT_RANK : PREFIX_RANK));
    return out;
  }
}
