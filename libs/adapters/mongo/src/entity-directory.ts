/**
 * Which aspects each entity has: one document per URN, so reading an entity (all its latest
 * aspects, or whether it exists) is lookups by `_id`, which both servers answer from an index,
 * where a filter on `urn` makes FerretDB scan the whole aspect collection.
 *
 * Kept without transactions. A name is added after its row is inserted, and again whenever that
 * proposal is delivered again, which repairs a writer that died in between; it is removed after
 * the aspect's rows are deleted, and added back if a first write raced the delete and its row is
 * there. So once writes settle the names are exactly the aspects that have a latest row; in
 * between a name may point at no row, and readers skip it.
 */
import type { Collection, Db } from 'mongodb';
import { ASPECT_COLLECTION, rowId, type AspectDocument } from './aspect-document';
import { text } from './checked-values';
import type { IdLookup } from './id-lookup';

export const ENTITY_DIRECTORY_COLLECTION = 'metadata_entity_aspects';

export interface EntityDirectoryDocument {
  /** The entity's URN; or BUILT_MARK. */
  readonly _id: string;
  readonly aspects: string[];
}

/** Says the directory holds every entity of the aspect collection (no URN looks like this). */
const BUILT_MARK = 'cairn:built-from-aspect-rows';
const BUILD_BATCH = 500;

export class EntityDirectory {
  private constructor(
    private readonly entries: Collection<EntityDirectoryDocument>,
    private readonly rows: Collection<AspectDocument>,
    private readonly byIds: IdLookup,
  ) {}

  /** Opens the directory of `db`, first building it from the aspect rows of a database written before it existed. */
  static async open(db: Db, byIds: IdLookup): Promise<EntityDirectory> {
    const directory = new EntityDirectory(db.collection(ENTITY_DIRECTORY_COLLECTION), db.collection(ASPECT_COLLECTION), byIds);
    if (!(await directory.entries.findOne({ _id: BUILT_MARK }))) await directory.build();
    return directory;
  }

  private async build(): Promise<void> {
    const cursor = this.rows.find({ version: 0 }, { projection: { urn: 1, aspect: 1 } });
    let batch: { urn: string; aspect: string }[] = [];
    const flush = async () => {
      if (batch.length) await this.entries.bulkWrite(batch.map(({ urn, aspect }) => ({ updateOne: { filter: { _id: urn }, update: { $addToSet: { aspects: aspect } }, upsert: true } })), { ordered: false });
      batch = [];
    };
    for await (const row of cursor) {
      batch.push(row);
      if (batch.length >= BUILD_BATCH) await flush();
    }
    await flush();
    await this.entries.updateOne({ _id: BUILT_MARK }, { $set: { aspects: [] } }, { upsert: true });
  }

  async add(urn: string, aspect: string): Promise<void> {
    await this.entries.updateOne({ _id: text(urn, 'urn') }, { $addToSet: { aspects: text(aspect, 'aspect') } }, { upsert: true });
  }

  /** After the aspects' rows were deleted: drops their names, keeping any a racing first write brought back. */
  async remove(urn: string, aspects: readonly string[]): Promise<void> {
    if (aspects.length === 0) return;
    await this.entries.updateOne({ _id: text(urn, 'urn') }, { $pullAll: { aspects: aspects.map((a) => text(a, 'aspect')) } });
    const recreated = await this.byIds(this.rows, aspects.map((aspect) => rowId(urn, aspect, 0)));
    await Promise.all(recreated.map((row) => this.add(row.urn, row.aspect)));
  }

  /** The aspect names of each URN (in name order), none for a URN it does not know. */
  async aspectsOf(urns: readonly string[]): Promise<Map<string, string[]>> {
    const found = await this.byIds(this.entries, urns.map((urn) => text(urn, 'urn')));
    return new Map(found.map((entry) => [entry._id, [...entry.aspects].sort()]));
  }
}
