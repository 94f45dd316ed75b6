/** Aggregated stats over time-series events, as the reference's GenericTable, computed in memory. */
import type { AggregationSpec, GenericTable, GroupingBucket, TimeseriesAggregation } from '@cairn/ports';
import { fieldValues, valuesAt, type EventRow } from './event-fields';

const NULL = 'NULL';
const UNIT_MS = { MINUTE: 60_000, HOUR: 3_600_000, DAY: 86_400_000, WEEK: 7 * 86_400_000 } as const;

/** The start (epoch millis, UTC) of the calendar bucket holding `ts`; weeks start on Monday. */
export function bucketStart(ts: number, unit: Extract<GroupingBucket, { kind: 'date' }>['unit'], multiple: number): number {
  const d = new Date(ts);
  switch (unit) {
    case 'MONTH':
    case 'QUARTER':
    case 'YEAR': {
      const months = unit === 'MONTH' ? multiple : unit === 'QUARTER' ? 3 * multiple : 12 * multiple;
      const index = d.getUTCFullYear() * 12 + d.getUTCMonth();
      const start = index - (index % months);
      return Date.UTC(Math.floor(start / 12), start % 12, 1);
    }
    case 'WEEK': {
      const monday = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - ((d.getUTCDay() + 6) % 7) * UNIT_MS.DAY;
      return multiple === 1 ? monday : monday - (Math.floor(monday / UNIT_MS.WEEK) % multiple) * UNIT_MS.WEEK;
    }
    default: {
      const size = UNIT_MS[unit] * multiple;
      return ts - (((ts % size) + size) % size);
    }
  }
}

/** A string bucket inside an array (`userCounts.user`) makes one row per array element. */
function explode(rows: EventRow[], field: string): EventRow[] {
  const segments = field.split('.');
  for (let i = 1; i < segments.length; i++) {
    const prefix = segments.slice(0, i);
    const sample = rows.find((r) => Array.isArray(valuesAtRaw(r.event, prefix)));
    if (!sample) continue;
    return rows.flatMap((r) => {
      const list = valuesAtRaw(r.event, prefix);
      if (!Array.isArray(list)) return [r];
      return list.map((element) => ({ doc: r.doc, event: withPath(r.event, prefix, element) }));
    });
  }
  return rows;
}

function valuesAtRaw(event: unknown, segments: readonly string[]): unknown {
  let v: unknown = event;
  for (const s of segments) v = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[s] : undefined;
  return v;
}

function withPath(event: Record<string, unknown>, segments: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = segments;
  return { ...event, [head]: rest.length ? withPath((event[head] ?? {}) as Record<string, unknown>, rest, value) : value };
}

function keysOf(row: EventRow, bucket: GroupingBucket): string[] {
  if (bucket.kind === 'date') return [String(bucketStart(row.doc.timestampMillis, bucket.unit, bucket.multiple))];
  return [...new Set(fieldValues(row, bucket.field).map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))))];
}

function metric(rows: EventRow[], spec: AggregationSpec): string {
  switch (spec.type) {
    case 'LATEST': {
      const latest = [...rows].sort((a, b) => b.doc.timestampMillis - a.doc.timestampMillis).find((r) => valuesAtRaw(r.event, spec.field.split('.')) !== undefined);
      const v = latest && valuesAtRaw(latest.event, spec.field.split('.'));
      return v === undefined || v === null ? NULL : typeof v === 'object' ? JSON.stringify(v) : String(v);
    }
    case 'SUM': {
      const nums = rows.flatMap((r) => valuesAt(r.event, spec.field)).map(Number).filter(Number.isFinite);
      return nums.length ? String(nums.reduce((a, b) => a + b, 0)) : NULL;
    }
    case 'CARDINALITY':
      return String(new Set(rows.flatMap((r) => valuesAt(r.event, spec.field)).map((v) => JSON.stringify(v))).size);
  }
}

const compareKey = (a: string, b: string) => {
  const an = Number(a);
  const bn = Number(b);
  if (Number.isFinite(an) && Number.isFinite(bn)) return an - bn;
  return a < b ? -1 : a > b ? 1 : 0;
};

export function aggregateRows(rows: EventRow[], request: TimeseriesAggregation): GenericTable {
  let exploded = rows;
  for (const b of request.buckets) if (b.kind === 'string') exploded = explode(exploded, b.field);
  const groups = new Map<string, { keys: string[]; rows: EventRow[] }>();
  for (const row of exploded) {
    let combos: string[][] = [[]];
    for (const b of request.buckets) combos = combos.flatMap((c) => keysOf(row, b).map((k) => [...c, k]));
    for (const keys of combos) {
      const id = JSON.stringify(keys);
      const g = groups.get(id) ?? { keys, rows: [] };
      g.rows.push(row);
      groups.set(id, g);
    }
  }
  const out = [...groups.values()].map((g) => [...g.keys, ...request.metrics.map((m) => metric(g.rows, m))]);
  out.sort((a, b) => {
    for (let i = 0; i < request.buckets.length; i++) {
      const c = compareKey(a[i], b[i]);
      if (c) return c;
    }
    return 0;
  });
  return {
    columnNames: [...request.buckets.map((b) => b.field), ...request.metrics.map((m) => `${m.type.toLowerCase()}_${m.field}`)],
    rows: out,
  };
}
