/** The load generator's spool: proposals written out before an ingest come back in order, whole and marked by entity. */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetadataChangeProposal } from '@cairn/events';
import { SyntheticCatalog } from '../../bench/generator/catalog';
import { spoolProposals } from '../../bench/scenarios/proposal-spool';

const dir = mkdtempSync(join(tmpdir(), 'cairn-spool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function proposal(urn: string, description: string): MetadataChangeProposal {
  return {
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName: 'datasetProperties',
    aspect: { value: JSON.stringify({ description }), contentType: 'application/json' },
  };
}

describe('bench proposal spool', () => {
  it('gives back every proposal of the catalog in order, the first of each entity marked', () => {
    const catalog = new SyntheticCatalog({ entities: 150, seed: 42, namespace: 'p', timeseries: true });
    const spool = spoolProposals(catalog.entities(), join(dir, 'catalog.jsonl'));
    const taken = spool.take(Infinity);
    const entities = [...catalog.entities()];
    expect(taken.map((t) => JSON.parse(t.body))).toEqual(entities.flatMap((e) => e.proposals));
    expect(taken.filter((t) => t.createsEntity).map((t) => t.entityUrn)).toEqual(entities.map((e) => e.proposals[0]!.entityUrn));
    expect(taken.every((t) => t.entityUrn === (JSON.parse(t.body) as MetadataChangeProposal).entityUrn)).toBe(true);
    expect(spool.entities).toBe(150);
  });

  it('reads text split across its reads, characters of several bytes included, and removes its file at the end', () => {
    const file = join(dir, 'small-reads.jsonl');
    const entities = Array.from({ length: 40 }, (_, i) => ({
      proposals: [proposal(`urn:li:dataset:(urn:li:dataPlatform:hive,é${i},PROD)`, `Zürich ☃ 数据 ${'ß'.repeat(i)}`), proposal(`urn:li:dataset:(urn:li:dataPlatform:hive,é${i},PROD)`, '𝔘')],
    }));
    const spool = spoolProposals(entities, file, () => true, 7);
    const taken = spool.take(Infinity);
    expect(taken.map((t) => JSON.parse(t.body))).toEqual(entities.flatMap((e) => e.proposals));
    expect(taken.filter((t) => t.createsEntity)).toHaveLength(40);
    expect(existsSync(file)).toBe(false);
  });

  it('keeps only the proposals asked for, and its file goes when closed early', () => {
    const file = join(dir, 'kept.bodyl');
    const entities = [{ proposals: [proposal('urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)', 'drop'), proposal('urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)', 'keep')] }];
    const spool = spoolProposals(entities, file, (p) => p.aspect!.value.includes('keep'));
    expect(existsSync(file)).toBe(true);
    spool.close();
    expect(existsSync(file)).toBe(false);
    const again = spoolProposals(entities, file, (p) => p.aspect!.value.includes('keep'));
    const [only, ...rest] = again.take(10);
    expect(rest).toHaveLength(0);
    expect(only!.createsEntity).toBe(true);
    expect(JSON.parse(only!.body)).toEqual(entities[0]!.proposals[1]);
  });

  it('writes each proposal as its serializer says, and refuses a serialization over several lines', () => {
    const entities = [{ proposals: [proposal('urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)', 'one'), proposal('urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)', 'two')] }];
    const base64 = (p: MetadataChangeProposal) => Buffer.from(p.aspect!.value).toString('base64');
    const taken = spoolProposals(entities, join(dir, 'base64.spool'), undefined, 5, base64).take(Infinity);
    expect(taken.map((t) => JSON.parse(Buffer.from(t.body, 'base64').toString()))).toEqual([{ description: 'one' }, { description: 'two' }]);
    const file = join(dir, 'lines.spool');
    expect(() => spoolProposals(entities, file, undefined, undefined, (p) => `${p.aspectName}\n`)).toThrow(/several lines/);
    expect(existsSync(file)).toBe(false);
  });

  it('refuses a URN it could not read back, leaving no file behind', () => {
    const file = join(dir, 'tab.jsonl');
    expect(() => spoolProposals([{ proposals: [proposal('urn:li:dataset:(a\tb)', 'x')] }], file)).toThrow(/cannot spool/);
    expect(existsSync(file)).toBe(false);
  });
});
