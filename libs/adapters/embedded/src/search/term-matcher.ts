/** Which documents match the terms of a query (or what was typed), with what score. */
import type { FieldBoost, SearchTerm } from '@cairn/ports';
import type { EmbeddedDb } from '../database';
import { allWordsQuery, phraseQuery, queryForms } from './analysis';
import { marks } from './selection-sql';
import { FIELD_SLOTS, type FieldRegistry } from './search-tables';

/** An autocomplete candidate: its best score and the fields it matched through. */
export interface TermMatch {
  score: number;
  readonly fields: Set<number>;
}

const LAST_CHAR = '\u{10FFFF}';
/** Autocomplete word matches kept until the next write: how many expressions, and up to what size. */
const RECENT_MATCHES = 16;
const RECENT_MATCH_ROWS = 200_000;
export const EXACT_RANK = 10;
export const PREFIX_RANK = 1.6;

export class TermMatcher {
  private readonly words;
  private readonly acWords;
  private readonly recentAcMatches = new Map<string, number[]>();
  private recentGeneration = -1;

  /** `generation` changes with every write to the index. */
  constructor(
    private readonly db: EmbeddedDb,
    private readonly fieldRegistry: FieldRegistry,
    private readonly generation: () => number,
  ) {
    this.words = db.prepare('SELECT rowid FROM search_fts WHERE search_fts MATCH ?').pluck();
    this.acWords = db.prepare('SELECT rowid FROM search_ac_fts WHERE search_ac_fts MATCH ?').pluck();
  }

  private boostsById(entityTypes: readonly string[], fields: readonly FieldBoost[]): Map<number, number> {
    const out = new Map<number, number>();
    for (const f of fields) for (const id of this.fieldRegistry.ids(entityTypes, [f.field])) out.set(id, Math.max(out.get(id) ?? 0, f.boost));
    return out;
  }

  /** Documents matching an FTS expression in one of the fields, with the best boost among them. */
  private byWords(expression: string, boosts: Map<number, number>): Map<number, number> {
    const out = new Map<number, number>();
    for (const rowid of this.words.all(expression) as number[]) {
      const fieldId = rowid % FIELD_SLOTS;
      const boost = boosts.get(fieldId);
      if (boost === undefined) continue;
      const docId = (rowid - fieldId) / FIELD_SLOTS;
      const best = out.get(docId);
      if (best === undefined || boost > best) out.set(docId, boost);
    }
    return out;
  }

  private byValue(text: string, boosts: Map<number, number>): Map<number, number> {
    const out = new Map<number, number>();
    if (boosts.size === 0) return out;
    const ids = [...boosts.keys()];
    const rows = this.db
      .prepare(`SELECT doc_id, field_id FROM search_lookup_terms WHERE field_id IN (${marks(ids.length)}) AND term = ?`)
      .raw()
      .all(...ids, text.toLowerCase()) as [number, number][];
    for (const [docId, fieldId] of rows) out.set(docId, Math.max(out.get(docId) ?? 0, boosts.get(fieldId) ?? 0));
    return out;
  }

  private termMatches(term: SearchTerm, entityTypes: readonly string[]): Map<number, number> {
    const boosts = this.boostsById(entityTypes, term.fields);
    if (term.kind === 'value') return this.byValue(term.text, boosts);
    const forms = queryForms(term.text);
    return forms.length ? this.byWords(phraseQuery(forms, term.prefix), boosts) : new Map();
  }

  /** Documents matching every term, with their scores (summed over the terms). */
  match(terms: readonly SearchTerm[], entityTypes: readonly string[]): Map<number, number> {
    let result: Map<number, number> | undefined;
    for (const term of terms) {
      const matches = this.termMatches(term, entityTypes);
      if (!result) {
        result = matches;
      } else {
        const next = new Map<number, number>();
        const [small, large] = result.size <= matches.size ? [result, matches] : [matches, result];
        for (const [docId, score] of small) {
          const other = large.get(docId);
          if (other !== undefined) next.set(docId, score + other);
        }
        result = next;
      }
      if (result.size === 0) break;
    }
    return result ?? new Map();
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
      if (!m) out.set(docId, { score, fields: new Set([fieldId]) });
      else {
        m.score = Math.max(m.score, score);
        m.fields.add(fieldId);
      }
    };
    const ids = [...boosts.keys()];
    const prefixed = this.db
      .prepare(`SELECT doc_id, field_id, term = ? FROM search_lookup_terms WHERE field_id IN (${marks(ids.length)}) AND term >= ? AND term < ? LIMIT ?`)
      .raw()
      .all(term, ...ids, term, term + LAST_CHAR, cap) as [number, number, number][];
    for (const [docId, fieldId, exact] of prefixed) add(docId, fieldId, (boosts.get(fieldId) ?? 0) * (exact ? EXACT_RANK : PREFIX_RANK));
    // Autocomplete fields have their own, smaller word index; another field asked for uses the main one.
    const acOnly = ids.every((id) => this.fieldRegistry.byFieldId(id)?.mapping?.autocomplete);
    const expression = allWordsQuery(forms);
    let seen = 0;
    for (const rowid of acOnly ? this.acMatches(expression) : (this.words.iterate(expression) as Iterable<number>)) {
      const fieldId = rowid % FIELD_SLOTS;
      const boost = boosts.get(fieldId);
      if (boost === undefined) continue;
      const docId = (rowid - fieldId) / FIELD_SLOTS;
      if (!out.has(docId)) add(docId, fieldId, boost);
      else out.get(docId)?.fields.add(fieldId);
      if (++seen >= cap) break;
    }
    return out;
  }

  /**
   * Rows of the autocomplete word index matching an expression. The UI asks autocomplete once per
   * entity type with the same text, and each asking walks every type's matches: the walk's rows
   * are kept until the next write instead of read again.
   */
  private acMatches(expression: string): number[] {
    const generation = this.generation();
    if (generation !== this.recentGeneration) {
      this.recentAcMatches.clear();
      this.recentGeneration = generation;
    }
    const known = this.recentAcMatches.get(expression);
    if (known) return known;
    const rows = this.acWords.all(expression) as number[];
    if (rows.length <= RECENT_MATCH_ROWS) {
      this.recentAcMatches.set(expression, rows);
      if (this.recentAcMatches.size > RECENT_MATCHES) this.recentAcMatches.delete(this.recentAcMatches.keys().next().value as string);
    }
    return rows;
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
    const rows = this.db
      .prepare(`SELECT doc_id, term = ? AS exact FROM search_lookup_terms WHERE field_id IN (${marks(ids.length)}) AND term >= ? AND term < ?`)
      .raw()
      .all(term, ...ids, term, term + LAST_CHAR) as [number, number][];
    for (const [docId, exact] of rows) out.set(docId, Math.max(out.get(docId) ?? 1, exact ? EXACT_RANK : PREFIX_RANK));
    return out;
  }
}
