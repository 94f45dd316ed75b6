/**
 * The MongoDB-wire server the Mongo adapter tests run against (`MONGODB_URI`, default the
 * FerretDB that `deploy/local/start.sh ferretdb` starts). Without one the suites are skipped,
 * unless `CAIRN_REQUIRE_BACKENDS=true`, when a missing server fails the run.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { MongoClient } from 'mongodb';

export const MONGODB_URI = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017';

// Jest collects tests synchronously, so whether the server answers is asked in a child process.
const PING = `
const { MongoClient } = require('mongodb');
MongoClient.connect(process.argv[1], { serverSelectionTimeoutMS: 3000 })
  .then((client) => client.db('admin').command({ ping: 1 }).finally(() => client.close()))
  .then(() => process.exit(0), (error) => { process.stderr.write(String(error && error.message)); process.exit(1); });
`;

function unreachableReason(): string | undefined {
  const ping = spawnSync(process.execPath, ['-e', PING, MONGODB_URI], { cwd: resolve(__dirname, '../..'), encoding: 'utf8', timeout: 15_000 });
  if (ping.status === 0) return undefined;
  return ping.error?.message ?? (ping.stderr.trim() || `exit ${String(ping.status)}`);
}

const unreachable = unreachableReason();
if (unreachable !== undefined && process.env.CAIRN_REQUIRE_BACKENDS === 'true') {
  throw new Error(`A MongoDB server is required (CAIRN_REQUIRE_BACKENDS=true) but ${MONGODB_URI} did not answer: ${unreachable}. Start one with: bash deploy/local/start.sh ferretdb`);
}
if (unreachable !== undefined) {
  console.warn(`Skipping the MongoDB adapter tests: ${MONGODB_URI} did not answer (${unreachable}). Start one with \`bash deploy/local/start.sh ferretdb\` or set MONGODB_URI; CAIRN_REQUIRE_BACKENDS=true makes this a failure.`);
}

/** `describe` when the server answers, `describe.skip` otherwise. */
export const describeWithMongo: jest.Describe = unreachable === undefined ? describe : describe.skip;

/** A database name no other test run uses. */
export function scratchDatabaseName(): string {
  return `cairn_test_${randomBytes(6).toString('hex')}`;
}

/** Drops the databases a test file created, with a client of its own. */
export async function dropDatabases(names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  const client = await MongoClient.connect(MONGODB_URI);
  try {
    for (const name of names) await client.db(name).dropDatabase();
  } finally {
    await client.close();
  }
}
