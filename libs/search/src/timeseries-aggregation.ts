/**
 * The reference's aggregated stats (a GenericTable) over time-series documents, computed in
 * memory from the documents a filter selects, with the port's semantics: date buckets by
 * calendar unit (UTC, weeks from Monday); a string bucket on a field inside an array makes one
 * row per array element; LATEST takes the newest document having the field. Shared by the
 * embedded and Elasticsearch time-series indexes, so both answer alike.
 */
import type { AggregationSpec, GenericTable, GroupingBucket, TimeseriesAggregation } from '@cairn/ports';

/** A document's time and event; the event also carries the document's `urn` (and `messageId`, `runId` where known) as fields. */
export interface EventRow {
  readonly timestampMillis: number;
  readonly event: Record<string, unknown>;
}

const NULL = 'NULL';
const UNIT_MS = { MINUTE: 60_000, HOUR: 3_600_000, DAY: 86_400_000, WEEK: 7 * 86_400_000 } as const;

type DateUnit = Extract<GroupingBucket, { kind: 'date' }>['unit'];

/** The start (epoch millis, UTC) of the calendar bucket holding `ts`. */
export function bucketStart(ts: number, unit: DateUnit, multiple: number): number {
  const d = new Date(ts);
  switch (unit) {
    case 'MONTH':
    case 'QUARTER':
    case 'YEAR': {
      const months = (unit === 'MONTH' ? 1 : unit === 'QUARTER' ? 3 : 12) * multiple;
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

function childOf(value: unknown, segment: string): unknown {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[segment] : undefined;
}

/** The value at a dotted path, arrays not spread. */
function rawValueAt(event: unknown, segments: readonly string[]): unknown {
  return segments.reduce<unknown>(childOf, event);
}

/** The values at a dotted path, arrays on the way and at the end spread. */
function valuesAt(value: unknown, path: string): unknown[] {
  let current: unknown[] = [value];
  for (const segment of path.split('.')) {
    current = current.flatMap((x) => (Array.isArray(x) ? x : [x])).flatMap((v) => (v && typeof v === 'object' && segment in v ? [(v as Record<string, unknown>)[segment]] : []));
  }
  return current.flatMap((x) => (Array.isArray(x) ? x : [x])).filter((x) => x !== null && x !== undefined);
}

const text = (v: unknown) => (typeof v === 'object' ? JSON.stringify(v) : String(v));

function withPath(event: Record<string, unknown>, segments: readonly string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = segments;
  return { ...event, [head]: rest.length ? withPath((event[head] ?? {}) as Record<string, unknown>, rest, value) : value };
}

/** One row per element of the first array on the field's path (rows without that array stay whole). */
function explode(rows: EventRow[], field: string): EventRow[] {
  const segments = field.split('.');
  for (let i = 1; i < segments.length; i++) {
    const prefix = segments.slice(0, i);
    if (!rows.some((r) => Array.isArray(rawValueAt(r.event, prefix)))) continue;
    return rows.flatMap((r) => {
      const list = rawValueAt(r.event, prefix);
      return Array.isArray(list) ? list.map((element) => ({ timestampMillis: r.timestampMillis, event: withPath(r.event, prefix, element) })) : [r];
    });
  }
  return rows;
}

function keysOf(row: EventRow, bucket: GroupingBucket): string[] {
  if (bucket.kind === 'date') return [String(bucketStart(row.timestampMillis, bucket.unit, bucket.multiple))];
  return [...new Set(valuesAt(row.event, bucket.field).map(text))];
}

function metric(rows: EventRow[], spec: AggregationSpec): string {
  const segments = spec.field.split('.');
  switch (spec.type) {
    case 'LATEST': {
      let latest: { ts: number; value: unknown } | undefined;
      for (const r of rows) {
        const value = rawValueAt(r.event, segments);
        if (value !== undefined && (!latest || r.timestampMillis > latest.ts)) latest = { ts: r.timestampMillis, value };
      }
      return latest === undefined || latest.value === null ? NULL : text(latest.value);
    }
    case 'SUM': {
      const nums = rows.flatMap((r) => valuesAt(r.event, spec.field)).map(Number).filter(Number.isFinite);
      return nums.length ? String(nums.reduce((a, b) => a + b, 0)) : NULL;
    }
    case 'CARDINALITY':
      return String(new Set(rows.flatMap((r) => valuesAt(r.event, spec.field)).map((v) => JSON.stringify(v))).size);
  }
}

function compareKey(a: string, b: string): number {
  const an = Number(a);
  const bn = Number(b);
  if (Number.isFinite(an) && Number.isFinite(bn)) return an - bn;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `rows`: the selected documents, in any order. */
export function aggregateRows(rows: EventRow[], request: TimeseriesAggregation): GenericTable {
  let exploded = rows;
  for (const b of request.buckets) if (b.kind === 'string') exploded = explode(exploded, b.field);
  const groups = new Map<string, { keys: string[]; rows: EventRow[] }>();
  for (const row of exploded) {
    let combos: string[][] = [[]];
    for (const b of request.buckets) combos = combos.flatMap((c) => keysOf(row, b).map((k) => [...c, k]));
    for (const keys of combos) {
      const id = JSON.stringify(keys);
      const group = groups.get(id) ?? { keys, rows: [] };
      group.rows.push(row);
      groups.set(id, group);
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
