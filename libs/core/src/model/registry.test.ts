/** The real model (schemas/) against the reference samples. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseUrn } from '../urn';
import { defaultModelDir, loadModel } from './load-model';
import { defaultRegistry, Registry } from './registry';
import { readSnapshot, SnapshotError } from './snapshot';
import { validateValue } from './validate';

const SAMPLES_DIR = process.env.CAIRN_SAMPLES_DIR ?? resolve(__dirname, '../../../../../shared/data/reference-samples');

interface SampleRecord {
  file: string;
  index: number;
  record: Record<string, any>;
}

function sampleRecords(): SampleRecord[] {
  const out: SampleRecord[] = [];
  for (const file of readdirSync(SAMPLES_DIR).filter((f) => f.endsWith('.json')).sort()) {
    const data = JSON.parse(readFileSync(join(SAMPLES_DIR, file), 'utf8'));
    (Array.isArray(data) ? data : [data]).forEach((record, index) => out.push({ file, index, record }));
  }
  return out;
}

const registry = defaultRegistry();
const samples = sampleRecords();
const snapshots = samples.filter((s) => s.record.proposedSnapshot);
const proposals = samples.filter((s) => typeof s.record.entityType === 'string');
const where = (s: SampleRecord) => `${s.file}#${s.index}`;

describe('the model in schemas/', () => {
  it('loads with no warnings', () => {
    expect(loadModel(defaultModelDir(), { strict: false }).warnings).toEqual([]);
    expect(registry.model.warnings).toEqual([]);
  });

  it('is loaded once per process', () => {
    expect(defaultRegistry()).toBe(registry);
  });

  it('gives every entity a key aspect of kind key, holding it among its aspects', () => {
    expect(registry.entities().length).toBeGreaterThan(20);
    for (const e of registry.entities()) {
      expect([e.name, e.keyAspect.kind]).toEqual([e.name, 'key']);
      expect(e.aspects.get(e.keyAspect.name)).toBe(e.keyAspect);
      expect(e.keyAspect.type.fields.length).toBeGreaterThan(0);
    }
  });

  // The embedded store indexes latest rows by aspect for key aspects only, found by this suffix.
  it('names key aspects, and only them, with the suffix Key', () => {
    const aspects = [...registry.model.aspects.values()];
    expect(aspects.filter((a) => a.kind === 'key').map((a) => a.name).sort()).toEqual(aspects.filter((a) => a.name.endsWith('Key')).map((a) => a.name).sort());
    for (const e of registry.entities()) expect(e.keyAspect.name.endsWith('Key')).toBe(true);
  });

  it('gives every aspect a distinct record name', () => {
    const records = [...registry.model.aspects.values()].map((a) => a.record);
    expect(new Set(records).size).toBe(records.length);
  });
});

describe('registry lookups', () => {
  it('finds entities by name, whatever the case', () => {
    expect(registry.entity('dataset')?.name).toBe('dataset');
    expect(registry.entity('corpuser')?.name).toBe('corpuser');
    expect(registry.entity('corpUser')?.name).toBe('corpuser');
    expect(registry.entity('DATASET')?.name).toBe('dataset');
    expect(registry.entity('dataJob')?.name).toBe('dataJob');
    expect(registry.entity('datajob')?.name).toBe('dataJob');
    expect(registry.entity('nope')).toBeUndefined();
  });

  it('finds aspects by name, exactly', () => {
    expect(registry.aspect('datasetProperties')?.record).toBe('com.linkedin.dataset.DatasetProperties');
    expect(registry.aspect('DatasetProperties')).toBeUndefined();
  });

  it('finds aspects by record name in Rest.li and Avro form', () => {
    expect(registry.aspectByRecord('com.linkedin.dataset.DatasetProperties')?.name).toBe('datasetProperties');
    expect(registry.aspectByRecord('com.linkedin.pegasus2avro.dataset.DatasetProperties')?.name).toBe('datasetProperties');
    expect(registry.aspectByRecord('com.linkedin.pegasus2avro.common.Ownership')?.name).toBe('ownership');
    expect(registry.aspectByRecord('com.linkedin.metadata.key.DatasetKey')?.name).toBe('datasetKey');
    expect(registry.aspectByRecord('com.linkedin.dataset.Nope')).toBeUndefined();
  });

  it('finds entities by snapshot name in Rest.li and Avro form', () => {
    expect(registry.entityBySnapshot('com.linkedin.metadata.snapshot.DatasetSnapshot')?.name).toBe('dataset');
    expect(registry.entityBySnapshot('com.linkedin.pegasus2avro.metadata.snapshot.DatasetSnapshot')?.name).toBe('dataset');
    expect(registry.entityBySnapshot('com.linkedin.pegasus2avro.metadata.snapshot.CorpUserSnapshot')?.name).toBe('corpuser');
    expect(registry.entityBySnapshot('com.linkedin.metadata.snapshot.NopeSnapshot')).toBeUndefined();
  });

  it('can be built from a loaded model', () => {
    const other = new Registry(registry.model);
    expect(other.entity('corpUser')).toBe(registry.entity('corpuser'));
  });
});

describe('the reference samples', () => {
  it('are there', () => {
    expect(snapshots.length).toBeGreaterThan(100);
    expect(proposals.length).toBeGreaterThan(50);
  });

  it('use only entities of the registry, and aspects of those entities', () => {
    const missing: string[] = [];
    for (const s of snapshots) {
      const [name, body] = Object.entries(s.record.proposedSnapshot)[0] as [string, { urn: string }];
      if (!registry.entityBySnapshot(name)) missing.push(`${where(s)}: snapshot ${name}`);
      if (!registry.entity(parseUrn(body.urn).entityType)) missing.push(`${where(s)}: urn ${body.urn}`);
    }
    for (const s of proposals) {
      const entity = registry.entity(s.record.entityType);
      if (!entity) missing.push(`${where(s)}: entity ${s.record.entityType}`);
      else if (!entity.aspects.has(s.record.aspectName)) missing.push(`${where(s)}: aspect ${s.record.aspectName} of ${entity.name}`);
      if (s.record.entityUrn && !registry.entity(parseUrn(s.record.entityUrn).entityType)) missing.push(`${where(s)}: urn ${s.record.entityUrn}`);
    }
    expect(missing).toEqual([]);
  });

  it('have URNs that parse against their entity keys', () => {
    const bad: string[] = [];
    const urns = [
      ...snapshots.map((s) => [s, (Object.values(s.record.proposedSnapshot)[0] as { urn: string }).urn] as const),
      ...proposals.filter((s) => s.record.entityUrn).map((s) => [s, s.record.entityUrn as string] as const),
    ];
    for (const [s, urn] of urns) {
      try {
        registry.parseEntityUrn(urn);
      } catch (err) {
        bad.push(`${where(s)}: ${(err as Error).message}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('have snapshots that read and validate', () => {
    const problems: string[] = [];
    let aspects = 0;
    for (const s of snapshots) {
      try {
        const read = readSnapshot(registry, s.record.proposedSnapshot);
        expect(read.entity.snapshot).toBeDefined();
        for (const a of read.aspects) {
          aspects++;
          expect(read.entity.aspects.get(a.spec.name)).toBe(a.spec);
          const { errors } = validateValue(a.value, a.spec.type);
          if (errors.length) problems.push(`${where(s)} ${a.spec.name}: ${errors.join('; ')}`);
        }
      } catch (err) {
        problems.push(`${where(s)}: ${(err as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
    expect(aspects).toBeGreaterThan(300);
  });

  it('have proposal values that validate', () => {
    const problems: string[] = [];
    for (const s of proposals) {
      const spec = registry.entity(s.record.entityType)?.aspects.get(s.record.aspectName);
      const aspect = s.record.aspect;
      if (!spec || !aspect) continue;
      const value = 'json' in aspect ? aspect.json : JSON.parse(aspect.value);
      const { errors } = validateValue(value, spec.type);
      if (errors.length) problems.push(`${where(s)} ${spec.name}: ${errors.join('; ')}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('readSnapshot', () => {
  const avroSnapshot = {
    'com.linkedin.pegasus2avro.metadata.snapshot.CorpUserSnapshot': {
      urn: 'urn:li:corpuser:jdoe',
      aspects: [
        {
          'com.linkedin.pegasus2avro.identity.CorpUserInfo': {
            active: true,
            displayName: { string: 'John Doe' },
            email: { string: 'jdoe@example.com' },
            title: null,
            managerUrn: null,
            departmentId: null,
            departmentName: null,
            firstName: null,
            lastName: null,
            fullName: { string: 'John Doe' },
            countryCode: null,
            customProperties: {},
          },
        },
      ],
    },
  };

  it('reads an Avro-JSON snapshot into Rest.li values', () => {
    const read = readSnapshot(registry, avroSnapshot);
    expect(read.entity.name).toBe('corpuser');
    expect(read.urn).toBe('urn:li:corpuser:jdoe');
    expect(read.aspects.map((a) => a.spec.name)).toEqual(['corpUserInfo']);
    expect(read.aspects[0].value).toEqual({ active: true, displayName: 'John Doe', email: 'jdoe@example.com', fullName: 'John Doe', customProperties: {} });
    expect(validateValue(read.aspects[0].value, read.aspects[0].spec.type).errors).toEqual([]);
  });

  it('reads a Rest.li snapshot as it is', () => {
    const value = { active: true, displayName: 'John Doe' };
    const read = readSnapshot(registry, {
      'com.linkedin.metadata.snapshot.CorpUserSnapshot': { urn: 'urn:li:corpuser:jdoe', aspects: [{ 'com.linkedin.identity.CorpUserInfo': value }] },
    });
    expect(read.aspects[0].value).toBe(value);
  });

  it.each([
    ['a non-object', 'x', /must be an object/],
    ['two snapshot keys', { a: {}, b: {} }, /exactly one key/],
    ['an unknown snapshot', { 'com.linkedin.metadata.snapshot.NopeSnapshot': { urn: 'urn:li:corpuser:a', aspects: [] } }, /Unknown snapshot type/],
    ['no urn', { 'com.linkedin.metadata.snapshot.CorpUserSnapshot': { aspects: [] } }, /has no urn/],
    ['no aspects list', { 'com.linkedin.metadata.snapshot.CorpUserSnapshot': { urn: 'urn:li:corpuser:a' } }, /has no aspects list/],
    ['an aspect with two keys', { 'com.linkedin.metadata.snapshot.CorpUserSnapshot': { urn: 'urn:li:corpuser:a', aspects: [{ a: {}, b: {} }] } }, /aspect #0/],
    ['an unknown aspect record', { 'com.linkedin.metadata.snapshot.CorpUserSnapshot': { urn: 'urn:li:corpuser:a', aspects: [{ 'com.linkedin.Nope': {} }] } }, /Unknown aspect record/],
  ])('rejects %s', (_what, snapshot, message) => {
    expect(() => readSnapshot(registry, snapshot)).toThrow(SnapshotError);
    expect(() => readSnapshot(registry, snapshot)).toThrow(message);
  });
});
