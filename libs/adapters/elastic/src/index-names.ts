/** Index names of the reference (`IndexConventionImpl`): optional `<prefix>_`, lower case. */

const VALID_PREFIX = /^[a-z0-9][a-z0-9_-]*$/;

/** How to list a family of indices: a wildcard for the cluster, the exact shape to keep. */
export interface IndexPattern {
  readonly wildcard: string;
  readonly shape: RegExp;
}

export class IndexNames {
  /** `''`, or `<prefix>_`. */
  private readonly lead: string;

  constructor(prefix: string) {
    const lower = prefix.toLowerCase();
    if (lower !== '' && !VALID_PREFIX.test(lower)) throw new Error(`ELASTICSEARCH_INDEX_PREFIX must be letters, digits, '_' or '-', got "${prefix}"`);
    this.lead = lower ? `${lower}_` : '';
  }

  entity(entityType: string): string {
    return `${this.lead}${entityType.toLowerCase()}index_v2`;
  }

  timeseries(entityType: string, aspect: string): string {
    return `${this.lead}${entityType.toLowerCase()}_${aspect.toLowerCase()}aspect_v1`;
  }

  graph(): string {
    return `${this.lead}graph_service_v1`;
  }

  systemMetadata(): string {
    return `${this.lead}system_metadata_service_v1`;
  }

  /** Entity and aspect names have no `_`, so the shape tells this deployment's indices from those of longer prefixes. */
  entityIndices(): IndexPattern {
    return { wildcard: `${this.lead}*index_v2`, shape: new RegExp(`^${this.lead}([a-z0-9]+)index_v2$`) };
  }

  timeseriesIndices(): IndexPattern {
    return { wildcard: `${this.lead}*aspect_v1`, shape: new RegExp(`^${this.lead}([a-z0-9]+)_([a-z0-9]+)aspect_v1$`) };
  }
}
