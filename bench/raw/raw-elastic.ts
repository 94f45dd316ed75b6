/** Elasticsearch without cairn: the aspect rows as documents (URN keyword, aspect text) in `_bulk` requests. */
import type { SyntheticCatalog } from '../generator/catalog';
import type { RawResult } from './aspect-rows';
import { timedWrites } from './timed-writes';

export async function rawElastic(url: string, index: string, catalog: SyntheticCatalog, limit: number, seconds: number, batchSize = 500): Promise<RawResult> {
  const mappings = { properties: { urn: { type: 'keyword' }, aspect: { type: 'keyword' }, text: { type: 'text' } } };
  const created = await fetch(`${url}/${index}`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mappings }) });
  if (!created.ok) throw new Error(`cannot create ${index}: ${await created.text()}`);
  try {
    return await timedWrites(catalog, limit, seconds, batchSize, async (batch) => {
      const body = batch.map((r) => `${JSON.stringify({ index: { _index: index, _id: `${r.urn}|${r.aspect}` } })}\n${JSON.stringify({ urn: r.urn, aspect: r.aspect, text: r.metadata })}\n`).join('');
      const res = await fetch(`${url}/_bulk`, { method: 'POST', headers: { 'Content-Type': 'application/x-ndjson' }, body });
      const reply = (await res.json()) as { errors?: boolean };
      if (!res.ok || reply.errors) throw new Error(`bulk request failed: ${JSON.stringify(reply).slice(0, 300)}`);
    });
  } finally {
    await fetch(`${url}/${index}`, { method: 'DELETE' });
  }
}
