/** Charts over datasets and dashboards over charts, with owners and tags. */
import type { MetadataChangeProposal } from '@cairn/events';
import type { CatalogShape } from './catalog-shape';
import { ownershipOf } from './datasets';
import { audit, upsert } from './proposal';
import type { Random } from './random';
import { sentence, title } from './text';
import { CHART_TYPES, DOMAINS, NOUNS, QUALIFIERS } from './vocabulary';

const changeStamps = () => ({ created: audit('urn:li:corpuser:datahub'), lastModified: audit('urn:li:corpuser:datahub') });

export function chartProposals(shape: CatalogShape, index: number, random: Random): MetadataChangeProposal[] {
  const urn = shape.urn('chart', index, random);
  const p = (aspect: string, value: unknown) => upsert('chart', urn, aspect, value);
  const inputs = [...new Set(Array.from({ length: random.int(1, 3) }, () => shape.anyUrn('dataset', random)))];
  const proposals = [
    p('chartInfo', {
      title: title([random.pick(NOUNS), random.pick(QUALIFIERS), String(index)]),
      description: sentence(random, 4, 16),
      lastModified: changeStamps(),
      inputs: inputs.map((string) => ({ string })),
      type: random.pick(CHART_TYPES),
      customProperties: { folder: random.pick(DOMAINS) },
    }),
    p('ownership', ownershipOf(shape, random)),
    p('status', { removed: false }),
  ];
  if (random.chance(0.4)) proposals.push(p('globalTags', { tags: [{ tag: shape.anyUrn('tag', random) }] }));
  return proposals;
}

export function dashboardProposals(shape: CatalogShape, index: number, random: Random): MetadataChangeProposal[] {
  const urn = shape.urn('dashboard', index, random);
  const p = (aspect: string, value: unknown) => upsert('dashboard', urn, aspect, value);
  const charts = [...new Set(Array.from({ length: random.int(2, 8) }, () => shape.anyUrn('chart', random)))];
  return [
    p('dashboardInfo', {
      title: title([random.pick(DOMAINS), random.pick(NOUNS), 'overview', String(index)]),
      description: sentence(random, 4, 20),
      charts,
      datasets: [],
      lastModified: changeStamps(),
      customProperties: {},
    }),
    p('ownership', ownershipOf(shape, random)),
    p('status', { removed: false }),
  ];
}
