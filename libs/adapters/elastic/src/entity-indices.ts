/** One index per entity type (`<entity>index_v2`), laid out from the types of the entity's index fields. */
import type { SearchFieldType } from '@cairn/core';
import type { IndexFieldMapping, SearchMappings } from '@cairn/ports';
import type { ElasticConnection } from './elastic-connection';
import { entityMappings } from './entity-mappings';
import { indexSettings } from './index-settings';
import type { IndexDefinition } from './versioned-index';

/** Every document has its URN, like the reference's `urn` field. */
const URN_FIELD: [string, IndexFieldMapping] = ['urn', { type: 'URN', autocomplete: false, lookupTerms: true }];
const NO_FIELDS: ReadonlyMap<string, IndexFieldMapping> = new Map();
const NO_TYPES: ReadonlyMap<string, SearchFieldType> = new Map();

export class EntityIndices {
  private readonly byIndex = new Map<string, string>();
  private readonly types = new Map<string, ReadonlyMap<string, SearchFieldType>>();

  /** `mappings`: the index fields of each entity type, by canonical entity name. */
  constructor(
    private readonly conn: ElasticConnection,
    readonly mappings: SearchMappings,
  ) {
    for (const [entityType, fields] of mappings) {
      this.byIndex.set(conn.names.entity(entityType), entityType);
      this.types.set(entityType, new Map([...fields].map(([name, mapping]) => [name, mapping.type])));
    }
  }

  name(entityType: string): string {
    return this.conn.names.entity(entityType);
  }

  /** The entity type of an index alias, or of a physical index (`<alias>_<hash>`). */
  entityTypeOf(index: string): string {
    const known = this.byIndex.get(index) ?? this.byIndex.get(index.slice(0, index.lastIndexOf('_')));
    return known ?? this.conn.names.entityIndices().shape.exec(index)?.[1] ?? index;
  }

  /** The fields of an entity type and their types (none for a type the model does not know). */
  fields(entityType: string): ReadonlyMap<string, SearchFieldType> {
    return this.types.get(entityType) ?? NO_TYPES;
  }

  /** The mappings of an entity type's fields (none for a type the model does not know). */
  fieldMappings(entityType: string): ReadonlyMap<string, IndexFieldMapping> {
    return this.mappings.get(entityType) ?? NO_FIELDS;
  }

  definition(entityType: string): IndexDefinition {
    const fields = new Map([URN_FIELD, ...this.fieldMappings(entityType)]);
    return { name: this.name(entityType), settings: indexSettings(this.conn.settings), mappings: entityMappings(fields) };
  }

  /** The index of an entity type, created first if needed (also for types the model does not know). */
  async ensure(entityType: string): Promise<string> {
    await this.conn.ensureIndex(this.definition(entityType));
    return this.name(entityType);
  }

  async ensureAll(): Promise<void> {
    await Promise.all([...this.types.keys()].map((entityType) => this.ensure(entityType)));
  }

  /** Every entity index of this deployment in the cluster, including those of unknown types. */
  existing(): Promise<string[]> {
    return this.conn.indicesMatching(this.conn.names.entityIndices());
  }
}
