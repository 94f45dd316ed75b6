/** The benchmark's `batchIngest` requests: whole entities from the spool, as snapshots the service reads back into the same proposals. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultRegistry } from '@cairn/core';
import type { MetadataChangeProposal } from '@cairn/events';
import { proposalsOfSnapshot } from '@cairn/pipeline';
import { fitsSnapshot, snapshotsOf } from '../../bench/client/snapshots';
import { SyntheticCatalog } from '../../bench/generator/catalog';
import { spoolProposals, type SpooledProposal } from '../../bench/scenarios/proposal-spool';

const registry = defaultRegistry();
const catalog = new SyntheticCatalog({ entities: 200, seed: 42, namespace: 's', timeseries: true });
const dir = mkdtempSync(join(tmpdir(), 'cairn-snapshots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let spools = 0;
const spoolOf = (keep?: (p: MetadataChangeProposal) => boolean) => spoolProposals(catalog.entities(), join(dir, `${spools++}.jsonl`), keep);
const proposalOf = (s: SpooledProposal) => JSON.parse(s.body) as MetadataChangeProposal;

describe('bench snapshots', () => {
  it('leaves time-series aspects out, and the feed marks the first kept proposal of each entity', () => {
    const feed = spoolOf((p) => fitsSnapshot(registry, p));
    const fed = feed.take(Infinity);
    expect(fed.some((f) => proposalOf(f).aspectName === 'datasetProfile')).toBe(false);
    expect(fed.filter((f) => f.createsEntity).length).toBe(200);
    expect(feed.entities).toBe(200);
    const all = [...catalog.proposals()];
    expect(fed.length).toBe(all.filter((p) => registry.aspect(p.aspectName!)?.kind !== 'timeseries').length);
    expect(fed.length).toBeLessThan(all.length);
  });

  it('takes whole entities, the last take holding what is left', () => {
    const feed = spoolOf((p) => fitsSnapshot(registry, p));
    const takes: number[] = [];
    for (let take = feed.takeEntities(30); take.length > 0; take = feed.takeEntities(30)) {
      expect(take[0]!.createsEntity).toBe(true);
      takes.push(new Set(take.map((f) => f.entityUrn)).size);
    }
    expect(takes).toEqual([30, 30, 30, 30, 30, 30, 20]);
  });

  it('counts an entity begun in an earlier take as one of the next take', () => {
    const entities = [...catalog.entities()];
    const split = entities.findIndex((e) => e.proposals.length > 1);
    const feed = spoolOf();
    const before = entities.slice(0, split).reduce((n, e) => n + e.proposals.length, 0);
    const first = feed.take(before + 1).at(-1)!;
    expect(first.createsEntity).toBe(true);
    const next = feed.takeEntities(2);
    expect(next[0]!.entityUrn).toBe(first.entityUrn);
    expect(new Set(next.map((f) => f.entityUrn)).size).toBe(2);
  });

  it('groups an entity proposals into one snapshot that the service reads back into the same proposals', () => {
    const feed = spoolOf((p) => fitsSnapshot(registry, p));
    const proposals = feed.takeEntities(20).map(proposalOf);
    const snapshots = snapshotsOf(registry, proposals);
    expect(snapshots).toHaveLength(20);
    const read = snapshots.flatMap((s) => proposalsOfSnapshot(registry, s.value));
    expect(read.map((p) => [p.entityUrn, p.aspectName, JSON.parse(p.aspect!.value)])).toEqual(proposals.map((p) => [p.entityUrn, p.aspectName, JSON.parse(p.aspect!.value)]));
  });

  it('tells which proposals fit a snapshot', () => {
    const proposals = [...catalog.proposals()];
    expect(fitsSnapshot(registry, proposals.find((p) => p.aspectName === 'datasetProfile')!)).toBe(false);
    expect(fitsSnapshot(registry, proposals.find((p) => p.aspectName === 'schemaMetadata')!)).toBe(true);
    expect(fitsSnapshot(registry, { ...proposals[0]!, entityType: 'noSuchEntity' })).toBe(false);
  });
});
