/**
 * Fields of time-series documents as the reference indexes them: dotted paths into the event
 * (arrays flatten), plus `urn`, `timestampMillis`, `messageId` and `runId`; and a FilterPlan
 * evaluated over them.
 */
import type { FilterCriterion, FilterPlan, TimeseriesDocument } from '@cairn/ports';

export interface EventRow {
  readonly doc: TimeseriesDocument;
  readonly event: Record<string, unknown>;
}

/** Values at a dotted path; arrays on the way spread. */
export function valuesAt(value: unknown, path: string): unknown[] {
  let current: unknown[] = [value];
  for (const seg of path.split('.')) {
    const next: unknown[] = [];
    for (const v of current.flatMap((x) => (Array.isArray(x) ? x : [x]))) {
      if (v && typeof v === 'object' && seg in v) next.push((v as Record<string, unknown>)[seg]);
    }
    current = next;
  }
  return current.flatMap((x) => (Array.isArray(x) ? x : [x])).filter((x) => x !== null && x !== undefined);
}

export function fieldValues(row: EventRow, field: string): unknown[] {
  switch (field) {
    case 'urn':
      return [row.doc.urn];
    case 'timestampMillis':
      return [row.doc.timestampMillis];
    case 'messageId':
      return row.doc.messageId === undefined ? [] : [row.doc.messageId];
    case 'runId': {
      const sm = row.doc.systemMetadata ? (JSON.parse(row.doc.systemMetadata) as { runId?: string }) : {};
      return sm.runId === undefined ? [] : [sm.runId];
    }
    default:
      return valuesAt(row.event, field);
  }
}

const text = (v: unknown) => (typeof v === 'object' ? JSON.stringify(v) : String(v));

function compare(a: unknown, b: string): number {
  const an = typeof a === 'number' ? a : Number(text(a));
  const bn = Number(b);
  if (Number.isFinite(an) && Number.isFinite(bn) && b.trim() !== '') return an - bn;
  const as = text(a);
  return as < b ? -1 : as > b ? 1 : 0;
}

function holds(c: FilterCriterion, values: unknown[]): boolean {
  const [v = ''] = c.values;
  switch (c.condition) {
    case 'EQUAL':
    case 'IN':
      return values.some((x) => c.values.includes(text(x)));
    case 'CONTAIN':
      return values.some((x) => text(x).includes(v));
    case 'START_WITH':
      return values.some((x) => text(x).startsWith(v));
    case 'END_WITH':
      return values.some((x) => text(x).endsWith(v));
    case 'GREATER_THAN':
      return values.some((x) => compare(x, v) > 0);
    case 'GREATER_THAN_OR_EQUAL_TO':
      return values.some((x) => compare(x, v) >= 0);
    case 'LESS_THAN':
      return values.some((x) => compare(x, v) < 0);
    case 'LESS_THAN_OR_EQUAL_TO':
      return values.some((x) => compare(x, v) <= 0);
    case 'EXISTS':
      return values.length > 0;
    case 'IS_NULL':
      return values.length === 0;
  }
}

export function matches(plan: FilterPlan, row: EventRow): boolean {
  if (plan.length === 0) return true;
  return plan.some((and) => and.every((c) => holds(c, c.fields.flatMap((f) => fieldValues(row, f))) !== c.negated));
}

/** What a single-conjunction filter says about urn and time, so storage can narrow its scan. */
export function narrowing(plan: FilterPlan): { urn?: string; startTimeMillis?: number; endTimeMillis?: number } {
  if (plan.length !== 1) return {};
  const out: { urn?: string; startTimeMillis?: number; endTimeMillis?: number } = {};
  for (const c of plan[0]) {
    if (c.negated || c.fields.length !== 1) continue;
    const n = Number(c.values[0]);
    if (c.fields[0] === 'urn' && c.condition === 'EQUAL' && c.values.length === 1) out.urn = c.values[0];
    if (c.fields[0] === 'timestampMillis' && Number.isFinite(n)) {
      if (c.condition === 'GREATER_THAN_OR_EQUAL_TO' || c.condition === 'GREATER_THAN') out.startTimeMillis = n;
      if (c.condition === 'LESS_THAN_OR_EQUAL_TO' || c.condition === 'LESS_THAN') out.endTimeMillis = n;
    }
  }
  return out;
}
