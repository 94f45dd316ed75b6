/** Datasets: properties, a schema of 10 to 200 fields, owners, tags, terms, lineage, and some profiles and usage. */
import type { MetadataChangeProposal } from '@cairn/events';
import type { CatalogShape } from './catalog-shape';
import { audit, BASE_TIME, DAY_MS, upsert } from './proposal';
import type { Random } from './random';
import { columnNames, sentence } from './text';
import { COLUMN_TYPES } from './vocabulary';

const MIN_FIELDS = 10;
const MAX_FIELDS = 200;

/** One to three users, sometimes a group; shared by every owned kind. */
export function ownershipOf(shape: CatalogShape, random: Random) {
  const owners = shape.counts.corpuser ? Array.from({ length: random.int(1, 3) }, () => shape.anyUrn('corpuser', random)) : [];
  if (random.chance(0.3)) owners.push(shape.anyUrn('corpGroup', random));
  const unique = [...new Set(owners)];
  return {
    owners: unique.map((owner, i) => ({ owner, type: i === 0 ? 'TECHNICAL_OWNER' : random.pick(['DATAOWNER', 'BUSINESS_OWNER', 'DATA_STEWARD']) })),
    lastModified: audit(unique[0] ?? 'urn:li:corpuser:unknown'),
  };
}

function schemaFields(shape: CatalogShape, random: Random, count: number) {
  return columnNames(random, count).map((fieldPath, i) => {
    const t = random.pick(COLUMN_TYPES);
    return {
      fieldPath,
      nullable: i > 0 && random.chance(0.7),
      ...(random.chance(0.4) ? { description: sentence(random, 3, 10) } : {}),
      type: { type: { [t.type]: {} } },
      nativeDataType: t.native,
      recursive: false,
      isPartOfKey: i === 0,
      ...(random.chance(0.05) ? { globalTags: { tags: [{ tag: shape.anyUrn('tag', random) }] } } : {}),
      ...(random.chance(0.03) ? { glossaryTerms: { terms: [{ urn: shape.anyUrn('glossaryTerm', random) }], auditStamp: audit('urn:li:corpuser:datahub') } } : {}),
    };
  });
}

function profile(random: Random, fields: { fieldPath: string }[]) {
  const rowCount = random.int(100, 50_000_000);
  return {
    timestampMillis: BASE_TIME - random.int(0, 30) * DAY_MS,
    rowCount,
    columnCount: fields.length,
    sizeInBytes: rowCount * random.int(20, 400),
    fieldProfiles: fields.slice(0, 10).map((f) => {
      const nullCount = random.int(0, Math.floor(rowCount / 10));
      return { fieldPath: f.fieldPath, uniqueCount: random.int(1, rowCount), nullCount, nullProportion: nullCount / rowCount };
    }),
  };
}

function usage(shape: CatalogShape, random: Random, table: string, fields: { fieldPath: string }[]) {
  const users = [...new Set(Array.from({ length: random.int(1, 5) }, () => shape.anyUrn('corpuser', random)))];
  const counts = users.map((user) => ({ user, count: random.int(1, 500) }));
  return {
    timestampMillis: BASE_TIME - random.int(0, 30) * DAY_MS,
    eventGranularity: { unit: 'DAY', multiple: 1 },
    uniqueUserCount: users.length,
    totalSqlQueries: counts.reduce((n, c) => n + c.count, 0),
    topSqlQueries: [`select * from ${table} limit 100`, `select count(*) from ${table}`],
    userCounts: counts,
    fieldCounts: fields.slice(0, 5).map((f) => ({ fieldPath: f.fieldPath, count: random.int(1, 200) })),
  };
}

export function datasetProposals(shape: CatalogShape, index: number, random: Random, withTimeseries: boolean): MetadataChangeProposal[] {
  const id = shape.datasetIdentity(index, random);
  const urn = `urn:li:dataset:(urn:li:dataPlatform:${id.platform},${id.name},${id.env})`;
  const table = id.name.split('.').pop()!;
  const fields = schemaFields(shape, random, random.skewed(MIN_FIELDS, MAX_FIELDS));
  const p = (aspect: string, value: unknown) => upsert('dataset', urn, aspect, value);
  const proposals = [
    p('datasetProperties', {
      name: table,
      qualifiedName: id.name,
      description: sentence(random, 6, 24),
      customProperties: { retention_days: String(random.int(7, 3650)), tier: random.pick(['gold', 'silver', 'bronze']), team: id.domain },
      tags: [],
    }),
    p('schemaMetadata', {
      schemaName: table,
      platform: `urn:li:dataPlatform:${id.platform}`,
      version: 0,
      created: audit('urn:li:corpuser:datahub'),
      lastModified: audit('urn:li:corpuser:datahub'),
      hash: '',
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
      fields,
    }),
    p('ownership', ownershipOf(shape, random)),
    p('status', { removed: false }),
    p('subTypes', { typeNames: [random.chance(0.8) ? 'Table' : 'View'] }),
    p('browsePathsV2', { path: [{ id: id.env.toLowerCase() }, { id: id.domain }] }),
  ];
  if (random.chance(0.7)) proposals.push(p('globalTags', { tags: random.sample(Array.from({ length: 3 }, () => shape.anyUrn('tag', random)), random.int(1, 3)).map((tag) => ({ tag })) }));
  if (random.chance(0.3)) proposals.push(p('glossaryTerms', { terms: [{ urn: shape.anyUrn('glossaryTerm', random) }], auditStamp: audit('urn:li:corpuser:datahub') }));
  if (index > 0 && random.chance(0.5)) {
    const upstreams = [...new Set(Array.from({ length: random.int(1, 3) }, () => shape.anyUrn('dataset', random, index)))];
    proposals.push(p('upstreamLineage', { upstreams: upstreams.map((dataset) => ({ dataset, type: 'TRANSFORMED', auditStamp: audit('urn:li:corpuser:datahub') })) }));
  }
  if (withTimeseries && random.chance(0.3)) proposals.push(p('datasetProfile', profile(random, fields)));
  if (withTimeseries && random.chance(0.3)) proposals.push(p('datasetUsageStatistics', usage(shape, random, table, fields)));
  return proposals;
}
