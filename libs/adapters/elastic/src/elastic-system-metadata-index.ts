/**
 * SystemMetadataIndex on Elasticsearch (`system_metadata_service_v1`): one document per
 * (urn, aspect) with the run that wrote its latest value, as the reference keeps it.
 */
import { MAX_RESULT_WINDOW, type AspectRun, type SystemMetadataIndex } from '@cairn/ports';
import type { ElasticConnection } from './elastic-connection';
import { indexSettings } from './index-settings';
import { SystemMetadataBulkBatch, type StoredAspectRun } from './system-metadata-write-batch';
import type { IndexDefinition } from './versioned-index';


const keyword = { type: 'keyword' };

export function systemMetadataIndexDefinition(conn: ElasticConnection): IndexDefinition {
  return {
    name: conn.names.systemMetadata(),
    settings: indexSettings(conn.settings),
    mappings: {
      dynamic: 'strict',
      properties: { urn: keyword, aspect: keyword, runId: keyword, lastUpdated: { type: 'long' }, registryName: keyword, registryVersion: keyword },
    },
  };
}

function fromStored(s: StoredAspectRun): AspectRun {
  return {
    urn: s.urn,
    aspect: s.aspect,
    runId: s.runId,
    lastObserved: s.lastUpdated,
    ...(s.registryName !== undefined ? { registryName: s.registryName } : {}),
    ...(s.registryVersion !== undefined ? { registryVersion: s.registryVersion } : {}),
  };
}

export class ElasticSystemMetadataIndex implements SystemMetadataIndex {
  private readonly index: string;

  constructor(private readonly conn: ElasticConnection) {
    this.index = conn.names.systemMetadata();
  }

  batch(): SystemMetadataBulkBatch {
    return new SystemMetadataBulkBatch(this.conn, this.index);
  }

  async record(run: AspectRun): Promise<void> {
    const batch = this.batch();
    await batch.record(run);
    await batch.flush();
  }

  async forget(urn: string, aspect?: string): Promise<void> {
    const batch = this.batch();
    await batch.forget(urn, aspect);
    await batch.flush();
  }

  async aspectsOfRun(runId: string, page: { start: number; count: number }): Promise<{ total: number; aspects: AspectRun[] }> {
    const from = Math.min(page.start, MAX_RESULT_WINDOW);
    const { body } = await this.conn.client.search({
      index: this.index,
      body: {
        query: { bool: { filter: [{ term: { runId } }] } },
        sort: [{ urn: 'asc' }, { aspect: 'asc' }],
        from,
        size: Math.max(0, Math.min(page.count, MAX_RESULT_WINDOW - from)),
        track_total_hits: true,
      },
    });
    return { total: body.hits.total.value, aspects: body.hits.hits.map((h: { _source: StoredAspectRun }) => fromStored(h._source)) };
  }

  async clear(): Promise<void> {
    await this.conn.deleteByQuery([this.index], { match_all: {} });
  }
}
