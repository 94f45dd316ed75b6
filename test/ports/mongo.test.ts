/**
 * The AspectStore contract against the MongoDB adapter on a real MongoDB-wire server (FerretDB
 * from deploy/local by default), each case on a fresh database, all dropped afterwards.
 */
import { openMongoAspectStore } from '@cairn/adapter-mongo';
import { describeAspectStoreContract } from './aspect-store.contract';
import { MONGODB_URI, describeWithMongo, dropDatabases, scratchDatabaseName } from './mongo-server';

const databases: string[] = [];

describeWithMongo('MongoDB adapter', () => {
  afterAll(() => dropDatabases(databases));

  describeAspectStoreContract('MongoDB', async () => {
    const dbName = scratchDatabaseName();
    databases.push(dbName);
    const store = await openMongoAspectStore(MONGODB_URI, dbName);
    return { store, close: () => store.close() };
  });
});
