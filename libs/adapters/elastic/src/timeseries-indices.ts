/**
 * One index per (entity type, time-series aspect): `<entity>_<aspect>aspect_v1`. The aspect's
 * `timeseriesFields` are mapped inside `event` (the full aspect value), so filters and
 * aggregations run on them; the rest of the event is kept but not indexed.
 */
import type { TimeseriesFieldSpec } from '@cairn/core';
import type { ElasticConnection } from './elastic-connection';
import type { FieldResolver, ValueKind } from './filter-query';
import { indexSettings } from './index-settings';
import type { IndexDefinition } from './versioned-index';

const keyword = { type: 'keyword' };
const epochMillis = { type: 'date', format: 'epoch_millis', ignore_malformed: true };

const FIELD_MAPPINGS: Record<string, Record<string, unknown>> = {
  COUNT: { type: 'long', ignore_malformed: true },
  KEYWORD: keyword,
  DATETIME: epochMillis,
  DOUBLE: { type: 'double', ignore_malformed: true },
  BOOLEAN: { type: 'boolean' },
  // Records of their own (e.g. a run's result): every member indexed as it comes.
  OBJECT: { type: 'object', dynamic: true },
};

const KIND_OF: Record<string, ValueKind> = { COUNT: 'number', DATETIME: 'number', DOUBLE: 'number', BOOLEAN: 'boolean', KEYWORD: 'string' };

/** Fields of the document itself rather than of its event. */
const DOCUMENT_FIELDS: Record<string, { path: string; kind: ValueKind }> = {
  urn: { path: 'urn', kind: 'string' },
  timestampMillis: { path: 'timestampMillis', kind: 'number' },
  messageId: { path: 'messageId', kind: 'string' },
  runId: { path: 'systemMetadata.runId', kind: 'string' },
};

type MappingNode = { properties: Record<string, MappingNode | Record<string, unknown>> };

function dottedPath(annotationPath: string): string {
  return annotationPath
    .split('/')
    .filter((s) => s && s !== '*')
    .join('.');
}

/** A field of every item of an array (`/userCounts/*` then `/count`) maps to `userCounts.count`; items are plain objects. */
function eventMappings(fields: readonly TimeseriesFieldSpec[]): MappingNode & { dynamic: false } {
  const root: MappingNode & { dynamic: false } = { dynamic: false, properties: {} };
  for (const f of fields) {
    const segments = dottedPath(f.path).split('.');
    let node: MappingNode = root;
    for (const segment of segments.slice(0, -1)) {
      node.properties[segment] ??= { properties: {} };
      node = node.properties[segment] as MappingNode;
    }
    node.properties[segments[segments.length - 1]] = FIELD_MAPPINGS[f.fieldType] ?? keyword;
  }
  return root;
}

export interface TimeseriesAspectRef {
  readonly entityType: string;
  readonly aspect: string;
}

export class TimeseriesIndices {
  /**
   * `aspects`: the entity types and time-series aspects of the model; `fieldsOf`: an aspect's
   * time-series fields (none for an aspect the model does not know).
   */
  constructor(
    private readonly conn: ElasticConnection,
    private readonly aspects: readonly TimeseriesAspectRef[],
    private readonly fieldsOf: (aspect: string) => readonly TimeseriesFieldSpec[],
  ) {}

  name(entityType: string, aspect: string): string {
    return this.conn.names.timeseries(entityType, aspect);
  }

  definition(entityType: string, aspect: string): IndexDefinition {
    return {
      name: this.name(entityType, aspect),
      settings: indexSettings(this.conn.settings),
      mappings: {
        dynamic: false,
        properties: {
          urn: keyword,
          timestampMillis: epochMillis,
          '@timestamp': epochMillis,
          eventGranularity: keyword,
          partitionSpec: keyword,
          messageId: keyword,
          event: eventMappings(this.fieldsOf(aspect)),
          systemMetadata: { dynamic: false, properties: { runId: keyword } },
        },
      },
    };
  }

  /** Filter fields of an aspect: the document's own, and its time-series fields inside the event. */
  resolver(aspect: string): FieldResolver {
    const eventFields = new Map(this.fieldsOf(aspect).flatMap((f) => (KIND_OF[f.fieldType] ? [[dottedPath(f.path), KIND_OF[f.fieldType]] as const] : [])));
    return (field) => {
      const kind = eventFields.get(field);
      return DOCUMENT_FIELDS[field] ?? (kind && { path: `event.${field}`, kind });
    };
  }

  /** The entity type and aspect an index alias holds, with the model's spelling when it knows them. */
  pairOf(index: string): TimeseriesAspectRef | undefined {
    const [, entityType, aspect] = this.conn.names.timeseriesIndices().shape.exec(index) ?? [];
    if (!entityType || !aspect) return undefined;
    return this.aspects.find((a) => this.name(a.entityType, a.aspect) === index) ?? { entityType, aspect };
  }

  /** The index of a pair, created first if needed (also for pairs the model does not know). */
  async ensure(entityType: string, aspect: string): Promise<string> {
    await this.conn.ensureIndex(this.definition(entityType, aspect));
    return this.name(entityType, aspect);
  }

  async ensureAll(): Promise<void> {
    for (const { entityType, aspect } of this.aspects) await this.ensure(entityType, aspect);
  }

  /** Every time-series index of this deployment in the cluster, optionally of one aspect. */
  async existing(aspect?: string): Promise<string[]> {
    const pattern = this.conn.names.timeseriesIndices();
    const all = await this.conn.indicesMatching(pattern);
    return aspect === undefined ? all : all.filter((index) => pattern.shape.exec(index)?.[2] === aspect.toLowerCase());
  }
}
