/**
 * A DocumentSelection as a SQL condition over `search_docs d`, criteria as lookups in `search_values`
 * (and, for fields keeping their values as tokens, the documents the token index gives).
 */
import { ENTITY_TYPE_FIELD, type DocumentSelection, type FilterCriterion } from '@cairn/ports';
import { numericValue } from './analysis';

export interface Sql {
  readonly sql: string;
  readonly params: unknown[];
}

/** The fields criteria name, within the selection's entity types. */
export interface FilterFields {
  /** Ids of index field names (absent fields have none): of fields with value rows, and of fields with value tokens. */
  ids(names: readonly string[]): { readonly rows: number[]; readonly tokens: number[] };
  /** Documents with a value of one of the token fields passing the criterion (before its negation). */
  tokenDocs(c: FilterCriterion, fieldIds: readonly number[]): readonly number[];
}

const LAST_CHAR = '\u{10FFFF}';
export const marks = (n: number) => Array.from({ length: n }, () => '?').join(',');

function valueCondition(c: FilterCriterion, column: string, numColumn: string | null): Sql {
  const [v = ''] = c.values;
  const n = numericValue(v);
  const range = (op: string): Sql => (n !== null && numColumn ? { sql: `${numColumn} ${op} ?`, params: [n] } : { sql: `${column} ${op} ?`, params: [v] });
  switch (c.condition) {
    case 'EQUAL':
    case 'IN':
      return { sql: `${column} IN (${marks(c.values.length)})`, params: [...c.values] };
    case 'CONTAIN':
      return { sql: `instr(${column}, ?) > 0`, params: [v] };
    case 'START_WITH':
      return { sql: `${column} >= ? AND ${column} < ?`, params: [v, v + LAST_CHAR] };
    case 'END_WITH':
      return { sql: `substr(${column}, -?) = ?`, params: [[...v].length, v] };
    case 'GREATER_THAN':
      return range('>');
    case 'GREATER_THAN_OR_EQUAL_TO':
      return range('>=');
    case 'LESS_THAN':
      return range('<');
    case 'LESS_THAN_OR_EQUAL_TO':
      return range('<=');
    case 'EXISTS':
    case 'IS_NULL':
      return { sql: '1', params: [] };
  }
}

/** A condition on the entity type column of `search_docs d` (every document has one). */
function entityTypeCondition(c: FilterCriterion): Sql {
  return c.condition === 'EXISTS' || c.condition === 'IS_NULL' ? { sql: '1', params: [] } : valueCondition(c, 'd.entity_type', null);
}

/** The documents a criterion holds for, before its negation: a query of doc ids. */
export function criterionDocsSql(c: FilterCriterion, fields: FilterFields): Sql {
  if (c.fields.includes(ENTITY_TYPE_FIELD)) {
    const type = entityTypeCondition(c);
    return { sql: `SELECT d.doc_id FROM search_docs d WHERE ${type.sql}`, params: type.params };
  }
  const { rows, tokens } = fields.ids(c.fields);
  const parts: Sql[] = [];
  if (rows.length) {
    const value = valueCondition(c, 'value', 'num');
    parts.push({ sql: `SELECT doc_id FROM search_values WHERE field_id IN (${marks(rows.length)}) AND ${value.sql}`, params: [...rows, ...value.params] });
  }
  if (tokens.length) parts.push({ sql: 'SELECT value FROM json_each(?)', params: [JSON.stringify(fields.tokenDocs(c, tokens))] });
  if (parts.length === 0) return { sql: 'SELECT NULL WHERE 0', params: [] };
  return { sql: parts.map((p) => p.sql).join(' UNION ALL '), params: parts.flatMap((p) => p.params) };
}

/** Whether the criterion is negated: asked to be, or IS_NULL (the negation of EXISTS). */
export const isNegated = (c: FilterCriterion) => c.negated !== (c.condition === 'IS_NULL');

const inSql = (docs: Sql): Sql => ({ sql: `d.doc_id IN (${docs.sql})`, params: docs.params });

function criterionSql(c: FilterCriterion, fields: FilterFields): Sql {
  const positive = c.fields.includes(ENTITY_TYPE_FIELD) ? entityTypeCondition(c) : inSql(criterionDocsSql(c, fields));
  return isNegated(c) ? { sql: `NOT (${positive.sql})`, params: positive.params } : positive;
}

export function selectionSql(sel: DocumentSelection, fields: FilterFields): Sql {
  const clauses = [`d.entity_type IN (${marks(sel.entityTypes.length)})`];
  const params: unknown[] = [...sel.entityTypes];
  if (!sel.includeRemoved) clauses.push('d.removed = 0');
  if (sel.filter.length) {
    const ors = sel.filter.map((and) => {
      const parts = and.map((c) => criterionSql(c, fields));
      for (const p of parts) params.push(...p.params);
      return `(${parts.map((p) => p.sql).join(' AND ')})`;
    });
    clauses.push(`(${ors.join(' OR ')})`);
  }
  return { sql: clauses.join(' AND '), params };
}
