/**
 * MongoDB (FerretDB here) without cairn: the aspect rows as upserts with the driver, either a
 * bulk write of 500 per round trip (the most the server can take) or one upsert per round trip
 * from `clients` concurrent writers (what a writer without batching gets).
 */
import { MongoClient, type Collection } from 'mongodb';
import type { SyntheticCatalog } from '../generator/catalog';
import type { AspectRow, RawResult } from './aspect-rows';
import { timedWrites } from './timed-writes';

const BULK = 500;

type RowDocument = { _id: string } & Record<string, unknown>;

const upsertOf = (r: AspectRow) => ({
  filter: { _id: `${r.urn}|${r.aspect}|0` },
  update: { $set: { urn: r.urn, aspect: r.aspect, version: 0, metadata: r.metadata, systemMetadata: r.systemMetadata } },
  upsert: true,
});

export async function rawMongo(uri: string, database: string, catalog: SyntheticCatalog, limit: number, seconds: number, single?: { clients: number }): Promise<RawResult> {
  const client = await MongoClient.connect(uri);
  try {
    const rows: Collection<RowDocument> = client.db(database).collection<RowDocument>(single ? 'raw_single' : 'raw_bulk');
    if (single) {
      return await timedWrites(catalog, limit, seconds, single.clients, async (batch) => {
        await Promise.all(batch.map((r) => rows.updateOne(upsertOf(r).filter, upsertOf(r).update, { upsert: true })));
      });
    }
    return await timedWrites(catalog, limit, seconds, BULK, async (batch) => {
      await rows.bulkWrite(batch.map((r) => ({ updateOne: upsertOf(r) })), { ordered: false });
    });
  } finally {
    await client.db(database).dropDatabase();
    await client.close();
  }
}
