/** The benchmark's synthetic catalog: the same for a seed, valid against the model, shaped as documented. */
import { defaultRegistry } from '@cairn/core';
import { checkProposal } from '@cairn/pipeline';
import { SyntheticCatalog } from '../../bench/generator/catalog';

const catalogOf = (seed: number, namespace = 'c') => new SyntheticCatalog({ entities: 400, seed, namespace, timeseries: true });

describe('synthetic catalog', () => {
  it('is the same catalog for the same seed, and another for another seed or namespace', () => {
    const first = [...catalogOf(42).proposals()];
    expect([...catalogOf(42).proposals()]).toEqual(first);
    expect([...catalogOf(43).proposals()]).not.toEqual(first);
    const urns = new Set(first.map((p) => p.entityUrn));
    expect([...catalogOf(42, 'b').proposals()].some((p) => urns.has(p.entityUrn))).toBe(false);
  });

  it('generates an entity alone as it is within the whole catalog', () => {
    const catalog = catalogOf(7);
    const whole = [...catalog.entities()];
    const dataset = whole.find((e) => e.kind === 'dataset' && e.index === 17)!;
    expect(catalog.entity('dataset', 17)).toEqual(dataset);
    expect(catalog.shape.urn('dataset', 17)).toBe(dataset.urn);
  });

  it('has the documented mix of entities, each proposal valid against the model', () => {
    const registry = defaultRegistry();
    const catalog = catalogOf(42);
    expect(catalog.shape.total).toBe(400);
    expect(catalog.shape.counts.dataset).toBe(256);
    const aspects = new Set<string>();
    for (const p of catalog.proposals()) {
      expect(() => checkProposal(registry, p, 0)).not.toThrow();
      aspects.add(p.aspectName!);
    }
    for (const name of ['schemaMetadata', 'ownership', 'globalTags', 'glossaryTerms', 'upstreamLineage', 'datasetProfile', 'datasetUsageStatistics', 'chartInfo', 'dashboardInfo', 'corpUserInfo', 'corpGroupInfo', 'tagProperties', 'glossaryTermInfo']) {
      expect(aspects).toContain(name);
    }
  });

  it('at 1M entities, gives every entity its own URN and generates the last of each kind', () => {
    const catalog = new SyntheticCatalog({ entities: 1_000_000, seed: 42, namespace: 'c', timeseries: true });
    expect(catalog.shape.total).toBe(1_000_000);
    const urns = new Set<string>();
    for (const { kind, index } of catalog.shape.members()) urns.add(catalog.shape.urn(kind, index));
    expect(urns.size).toBe(1_000_000);
    const registry = defaultRegistry();
    for (const [kind, count] of Object.entries(catalog.shape.counts)) {
      const last = catalog.entity(kind as keyof typeof catalog.shape.counts, count - 1);
      expect(last.urn).toBe(catalog.shape.urn(last.kind, count - 1));
      for (const p of last.proposals) expect(() => checkProposal(registry, p, 0)).not.toThrow();
    }
  });

  it('gives datasets 10 to 200 schema fields, most of them narrow', () => {
    const catalog = catalogOf(42);
    const widths = Array.from({ length: catalog.shape.counts.dataset }, (_, i) => {
      const schema = catalog.entity('dataset', i).proposals.find((p) => p.aspectName === 'schemaMetadata')!;
      return (JSON.parse(schema.aspect!.value) as { fields: unknown[] }).fields.length;
    });
    expect(Math.min(...widths)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...widths)).toBeLessThanOrEqual(200);
    expect(widths.filter((w) => w <= 60).length).toBeGreaterThan(widths.length / 2);
  });
});
