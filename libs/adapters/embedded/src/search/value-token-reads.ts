/**
 * Reads of the value and term tokens (`value-tokens.ts`): rows matching a token expression, and
 * filters on fields that keep their values as tokens. Exact values, prefixes and presence are read
 * from the token index; the other conditions (contains, ends with, ranges), rare on column paths,
 * read the field from each stored document of its entity type.
 */
import type { FilterCriterion } from '@cairn/ports';
import { scalarValues } from '@cairn/search';
import type { EmbeddedDb } from '../database';
import { filterableValues, MAX_VALUE_LENGTH, numericValue } from './analysis';
import { FIELD_SLOTS, type FieldInfo, type FieldRegistry } from './search-tables';
import { anyValueQuery, prefixQuery } from './value-tokens';

/** Whether a value passes a condition the token index cannot answer, as the value rows' SQL would decide. */
function valueTest(c: FilterCriterion): (value: string) => boolean {
  const [x = ''] = c.values;
  const n = numericValue(x);
  const compared = (holds: (order: number) => boolean) => (v: string) => {
    if (n === null) return holds(v < x ? -1 : v > x ? 1 : 0);
    // As the rows' numeric column: only numeric values compare with a number.
    const m = numericValue(v);
    return m !== null && holds(m - n);
  };
  switch (c.condition) {
    case 'CONTAIN':
      return (v) => v.includes(x);
    case 'END_WITH':
      return (v) => v.endsWith(x);
    case 'GREATER_THAN':
      return compared((o) => o > 0);
    case 'GREATER_THAN_OR_EQUAL_TO':
      return compared((o) => o >= 0);
    case 'LESS_THAN':
      return compared((o) => o < 0);
    case 'LESS_THAN_OR_EQUAL_TO':
      return compared((o) => o <= 0);
    default:
      throw new Error(`The token index answers ${c.condition} itself`);
  }
}

/**
 * A field's filterable values, read from each stored document of its entity type that has it: the
 * values the writer reports for the field, for one that keeps them as tokens (no value rows).
 */
export class StoredFieldValues {
  private readonly fieldOfDocs;

  constructor(db: EmbeddedDb) {
    this.fieldOfDocs = db.prepare('SELECT doc_id, doc -> ? FROM search_docs WHERE entity_type = ?').raw();
  }

  *of(field: FieldInfo): Iterable<[docId: number, values: string[]]> {
    for (const [docId, json] of this.fieldOfDocs.iterate(`$.${JSON.stringify(field.name)}`, field.entityType) as Iterable<[number, string | null]>) {
      if (json !== null) yield [docId, filterableValues(scalarValues(JSON.parse(json)))];
    }
  }
}

export class ValueTokenReads {
  private readonly matching;
  private readonly firstMatching;
  private readonly rows;
  private readonly stored;

  constructor(
    db: EmbeddedDb,
    private readonly registry: FieldRegistry,
  ) {
    const inFields = `rowid % ${FIELD_SLOTS} IN (SELECT value FROM json_each(?))`;
    this.matching = db.prepare(`SELECT rowid FROM search_value_fts WHERE search_value_fts MATCH ? AND ${inFields}`).pluck();
    this.firstMatching = db.prepare(`SELECT rowid FROM search_value_fts WHERE search_value_fts MATCH ? AND ${inFields} LIMIT ?`).pluck();
    this.rows = db.prepare(`SELECT rowid FROM search_value_fts WHERE ${inFields}`).pluck();
    this.stored = new StoredFieldValues(db);
  }

  /** Rowids (`doc_id * FIELD_SLOTS + field_id`) of the fields' token rows matching the expression, at most `limit`. */
  matches(expression: string, fieldIds: readonly number[], limit?: number): number[] {
    const fields = JSON.stringify(fieldIds);
    return (limit === undefined ? this.matching.all(expression, fields) : this.firstMatching.all(expression, fields, limit)) as number[];
  }

  /** Documents with a value of one of the fields passing the criterion (before its negation), ascending. */
  docs(c: FilterCriterion, fieldIds: readonly number[]): number[] {
    switch (c.condition) {
      case 'EQUAL':
      case 'IN': {
        const values = c.values.filter((v) => v.length <= MAX_VALUE_LENGTH);
        return values.length ? this.docsOf(this.matches(anyValueQuery(values), fieldIds)) : [];
      }
      case 'START_WITH': {
        const [prefix = ''] = c.values;
        if (prefix === '') return this.withAny(fieldIds);
        return prefix.length <= MAX_VALUE_LENGTH ? this.docsOf(this.matches(prefixQuery(prefix), fieldIds)) : [];
      }
      case 'EXISTS':
      case 'IS_NULL':
        return this.withAny(fieldIds);
      default:
        return this.scanned(valueTest(c), fieldIds);
    }
  }

  /** Documents with a value of one of the fields. */
  private withAny(fieldIds: readonly number[]): number[] {
    return this.docsOf(this.rows.all(JSON.stringify(fieldIds)) as number[]);
  }

  private docsOf(rowids: readonly number[]): number[] {
    const docs = new Set<number>();
    for (const rowid of rowids) docs.add(Math.floor(rowid / FIELD_SLOTS));
    return [...docs].sort((a, b) => a - b);
  }

  private scanned(test: (value: string) => boolean, fieldIds: readonly number[]): number[] {
    const docs = new Set<number>();
    for (const id of fieldIds) {
      const field = this.registry.byFieldId(id);
      if (!field) continue;
      for (const [docId, values] of this.stored.of(field)) if (values.some(test)) docs.add(docId);
    }
    return [...docs].sort((a, b) => a - b);
  }
}
