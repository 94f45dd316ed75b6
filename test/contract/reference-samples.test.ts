/**
 * Every record of the reference samples ingested over REST, then read back through the read
 * endpoints with its values intact (the last write of each aspect wins).
 */
import { defaultRegistry, readSnapshot, validateValue } from '@cairn/core';
import { callOfRecord } from '../../services/cli/src/records';
import { readRecords, sampleFiles } from '../support/samples';
import { call, enc, eventually, startTarget, type Target } from '../support/target';

let t: Target;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.close());

const registry = defaultRegistry();

interface Expected {
  versioned: Map<string, { urn: string; aspect: string; value: unknown }>;
  timeseries: Map<string, { urn: string; entity: string; aspect: string; events: Map<number, unknown> }>;
}

/** What the store should hold after ingesting the files in order, computed from the model. */
function expectations(): Expected {
  const versioned: Expected['versioned'] = new Map();
  const timeseries: Expected['timeseries'] = new Map();
  const put = (entity: string, urn: string, aspect: string, raw: unknown) => {
    const spec = registry.entity(entity)!.aspects.get(aspect)!;
    const { value } = validateValue(raw, spec.type);
    if (spec.kind === 'timeseries') {
      const key = `${urn} ${aspect}`;
      const entry = timeseries.get(key) ?? { urn, entity, aspect, events: new Map() };
      const event = value as { timestampMillis: number };
      entry.events.set(event.timestampMillis, value);
      timeseries.set(key, entry);
    } else {
      versioned.set(`${urn} ${aspect}`, { urn, aspect, value });
    }
  };
  for (const file of sampleFiles()) {
    for (const r of readRecords(file)) {
      if (r.proposedSnapshot) {
        const snap = readSnapshot(registry, r.proposedSnapshot);
        for (const a of snap.aspects) put(snap.entity.name, snap.urn, a.spec.name, a.value);
      } else {
        put(r.entityType, r.entityUrn, r.aspectName, r.aspect.json ?? JSON.parse(r.aspect.value));
      }
    }
  }
  return { versioned, timeseries };
}

describe('reference samples', () => {
  const expected = expectations();

  it('ingests every record of every sample file', async () => {
    const failures: string[] = [];
    let count = 0;
    for (const file of sampleFiles()) {
      for (const record of readRecords(file)) {
        const c = callOfRecord(record);
        const res = await call(t, 'POST', c.path, c.body);
        count++;
        if (res.status !== 200) failures.push(`${file} ${c.label}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(count).toBe(sampleFiles().reduce((n, f) => n + readRecords(f).length, 0));
    expect(count).toBeGreaterThan(250);
  });

  it('reads every versioned aspect back intact through entitiesV2', async () => {
    const byUrn = new Map<string, Map<string, unknown>>();
    for (const e of expected.versioned.values()) {
      const m = byUrn.get(e.urn) ?? new Map<string, unknown>();
      m.set(e.aspect, e.value);
      byUrn.set(e.urn, m);
    }
    const mismatches: string[] = [];
    for (const [urn, aspects] of byUrn) {
      const res = await call(t, 'GET', `/entitiesV2/${enc(urn)}`);
      expect(res.status).toBe(200);
      for (const [aspect, value] of aspects) {
        const got = res.body.aspects[aspect]?.value;
        if (JSON.stringify(got) !== JSON.stringify(value) && !deepEqual(got, value)) mismatches.push(`${urn} ${aspect}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(byUrn.size).toBeGreaterThan(150);
  });

  it('reads them back through the batch get, the legacy snapshot get and the versioned aspect get', async () => {
    const sample = [...expected.versioned.values()].filter((e) => registry.entity(e.urn.split(':')[2])?.snapshot).slice(0, 40);
    const urns = [...new Set(sample.map((e) => e.urn))].slice(0, 20);
    const batch = await call(t, 'GET', `/entitiesV2?ids=List(${urns.map(enc).join(',')})`);
    expect(Object.keys(batch.body.results).sort()).toEqual([...urns].sort());
    for (const e of sample) {
      const spec = registry.aspect(e.aspect)!;
      expect(deepEqual(batch.body.results[e.urn]?.aspects[e.aspect]?.value ?? null, e.value) || !urns.includes(e.urn)).toBe(true);
      const legacy = await call(t, 'GET', `/entities/${enc(e.urn)}`);
      const snapshot = Object.values(legacy.body.value)[0] as { aspects: Record<string, unknown>[] };
      expect(snapshot.aspects.some((a) => deepEqual(a[spec.record], e.value))).toBe(true);
      const versioned = await call(t, 'GET', `/aspects/${enc(e.urn)}?aspect=${e.aspect}&version=0`);
      expect(deepEqual(versioned.body.aspect[spec.record], e.value)).toBe(true);
    }
  });

  it('answers every time-series value of the samples', async () => {
    expect(expected.timeseries.size).toBeGreaterThan(5);
    for (const e of expected.timeseries.values()) {
      const values = await eventually(async () => {
        const res = await call(t, 'POST', '/aspects?action=getTimeseriesAspectValues', { urn: e.urn, entity: e.entity, aspect: e.aspect });
        const v = res.body.value.values as { aspect: { value: string } }[];
        return v.length === e.events.size ? v : undefined;
      });
      const got = values.map((v) => JSON.parse(v.aspect.value));
      const want = [...e.events.entries()].sort((a, b) => b[0] - a[0]).map(([, v]) => v);
      expect(got.every((g, i) => deepEqual(g, want[i]))).toBe(true);
    }
  });
});

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
