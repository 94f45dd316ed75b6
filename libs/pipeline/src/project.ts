/**
 * Projectors: consume change logs and keep the read-side indexes current. Both are idempotent
 * (documents are keyed), so at-least-once delivery and replays converge.
 */
import { canonicalJson, type EntitySpec, type Registry } from '@cairn/core';
import type { MetadataChangeLog } from '@cairn/events';
import type { BatchTaken, GraphIndex, LogRecord, SearchFields, SearchIndex, SystemMetadataIndex, TimeseriesIndex } from '@cairn/ports';
import { edgesOf, searchFieldsOf } from '@cairn/search';
import { aspectValueOf, takeAspectValue } from './parsed-aspects';

type SearchWrites = Pick<SearchIndex, 'upsertFields' | 'deleteDocument'>;
type GraphWrites = Pick<GraphIndex, 'replaceEdges' | 'removeNode'>;
type TimeseriesWrites = Pick<TimeseriesIndex, 'upsert'>;
type SystemMetadataWrites = Pick<SystemMetadataIndex, 'record' | 'forget'>;

const NO_RUN_ID = 'no-run-id-provided';
const YIELD_EVERY = 500;

interface SearchSide {
  readonly search: SearchWrites;
  readonly graph: GraphWrites;
  readonly systemMetadata?: SystemMetadataWrites;
}

export class SearchProjector {
  /**
   * The key fields of the last entity projected: its aspects mostly come together (a rebuild reads
   * them in URN order), and deriving them parses and validates the URN (at 100k entities a tenth
   * of what a rebuild allocated on this thread).
   */
  private lastKey: { readonly entity: EntitySpec; readonly urn: string; readonly fields: SearchFields } | undefined;

  /** `systemMetadata`, when given, also records which run wrote each aspect's latest value. */
  constructor(
    private readonly registry: Registry,
    private readonly search: SearchIndex,
    private readonly graph: GraphIndex,
    private readonly systemMetadata?: SystemMetadataIndex,
  ) {}

  /** The batch's writes go out together where the indexes can batch them, before the batch counts as handled. */
  async handleBatch(batch: LogRecord<MetadataChangeLog>[]): Promise<void> {
    await (await this.takeBatch(batch)).durable;
  }

  /**
   * Projects the batch and sends its writes, answering once they are sent: an index that writes on
   * a thread of its own (or a server) makes them durable while the next batch is projected here.
   */
  async takeBatch(batch: LogRecord<MetadataChangeLog>[]): Promise<BatchTaken> {
    const search = this.search.batch?.();
    const graph = this.graph.batch?.();
    const systemMetadata = this.systemMetadata?.batch?.();
    const writes = { search: search ?? this.search, graph: graph ?? this.graph, systemMetadata: systemMetadata ?? this.systemMetadata };
    for (let i = 0; i < batch.length; i++) {
      await this.apply(batch[i].value, writes);
      // A large batch (a rebuild) lets the thread serve requests between its parts.
      if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    // Together: an index that writes on a thread of its own does so while the others write here.
    return { durable: Promise.all([search?.flush(), graph?.flush(), systemMetadata?.flush()]).then(() => undefined) };
  }

  project(mcl: MetadataChangeLog): Promise<void> {
    return this.apply(mcl, { search: this.search, graph: this.graph, systemMetadata: this.systemMetadata });
  }

  private async apply(mcl: MetadataChangeLog, { search, graph, systemMetadata }: SearchSide): Promise<void> {
    const entity = this.registry.entity(mcl.entityType);
    const aspect = entity?.aspects.get(mcl.aspectName ?? '');
    if (!entity || !aspect || !mcl.entityUrn || aspect.kind === 'timeseries') return;
    const urn = mcl.entityUrn;
    if (aspect.kind === 'key' && mcl.changeType === 'DELETE') {
      await search.deleteDocument(entity.name, urn);
      await graph.removeNode(urn);
      await systemMetadata?.forget(urn);
      return;
    }
    if (systemMetadata) await this.recordRun(mcl, urn, aspect.name, systemMetadata);
    const value = takeAspectValue(mcl);
    // Key fields come from the URN with every change, so a document never lacks them.
    const fields: SearchFields = { urn, ...this.keyFieldsOf(entity, urn), ...searchFieldsOf(aspect, value) };
    await search.upsertFields(entity.name, urn, fields);
    if (aspect.relationships.length) await graph.replaceEdges(urn, aspect.name, edgesOf(urn, aspect, value));
  }

  private keyFieldsOf(entity: EntitySpec, urn: string): SearchFields {
    const last = this.lastKey;
    if (last?.urn === urn && last.entity === entity) return last.fields;
    const parsed = this.registry.parseEntityUrn(urn);
    const key = parsed.entity === entity ? parsed.key : this.registry.keyFromUrn(parsed.urn, entity);
    this.lastKey = { entity, urn, fields: searchFieldsOf(entity.keyAspect, key) };
    return this.lastKey.fields;
  }

  private async recordRun(mcl: MetadataChangeLog, urn: string, aspect: string, systemMetadata: SystemMetadataWrites): Promise<void> {
    if (mcl.changeType === 'DELETE') return systemMetadata.forget(urn, aspect);
    const sm = mcl.systemMetadata;
    await systemMetadata.record({
      urn,
      aspect,
      runId: sm?.runId ?? NO_RUN_ID,
      lastObserved: sm?.lastObserved ?? 0,
      ...(sm?.registryName ? { registryName: sm.registryName } : {}),
      ...(sm?.registryVersion ? { registryVersion: sm.registryVersion } : {}),
    });
  }
}

/** TimeseriesAspectBase.partitionSpec's default in the reference's model. */
const DEFAULT_PARTITION_SPEC = { type: 'FULL_TABLE', partition: 'FULL_TABLE_SNAPSHOT' };

export class TimeseriesProjector {
  constructor(
    private readonly registry: Registry,
    private readonly timeseries: TimeseriesIndex,
  ) {}

  async handleBatch(batch: LogRecord<MetadataChangeLog>[]): Promise<void> {
    const timeseries = this.timeseries.batch?.();
    for (const { value } of batch) await this.apply(value, timeseries ?? this.timeseries);
    await timeseries?.flush();
  }

  project(mcl: MetadataChangeLog): Promise<void> {
    return this.apply(mcl, this.timeseries);
  }

  private async apply(mcl: MetadataChangeLog, timeseries: TimeseriesWrites): Promise<void> {
    const entity = this.registry.entity(mcl.entityType);
    const aspect = entity?.aspects.get(mcl.aspectName ?? '');
    if (!entity || !aspect || aspect.kind !== 'timeseries' || !mcl.entityUrn || !mcl.aspect) return;
    const event = aspectValueOf(mcl) as Record<string, unknown>;
    await timeseries.upsert({
      entityType: entity.name,
      aspect: aspect.name,
      urn: mcl.entityUrn,
      timestampMillis: Number(event.timestampMillis),
      ...(typeof event.eventGranularity === 'object' && event.eventGranularity ? { eventGranularity: canonicalJson(event.eventGranularity) } : {}),
      // An absent partitionSpec is the model's default, as clients that fill defaults send it.
      partitionSpec: canonicalJson(typeof event.partitionSpec === 'object' && event.partitionSpec ? event.partitionSpec : DEFAULT_PARTITION_SPEC),
      ...(typeof event.messageId === 'string' ? { messageId: event.messageId } : {}),
      event: mcl.aspect.value,
      ...(mcl.systemMetadata ? { systemMetadata: JSON.stringify(mcl.systemMetadata) } : {}),
    });
  }
}
