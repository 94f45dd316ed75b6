/**
 * The Elasticsearch server the Elasticsearch adapter tests run against (`ELASTICSEARCH_URL`,
 * default the server that `deploy/local/start.sh elasticsearch` starts). Without one the suites
 * are skipped, unless `CAIRN_REQUIRE_BACKENDS=true`, when a missing server fails the run.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';

export const ELASTICSEARCH_URL = process.env.ELASTICSEARCH_URL || 'http://127.0.0.1:9200';

// Jest collects tests synchronously, so whether the server answers is asked in a child process.
const PING = `
fetch(process.argv[1], { signal: AbortSignal.timeout(3000) })
  .then(async (res) => { if (!res.ok) throw new Error('HTTP ' + res.status); const info = await res.json(); if (!info.version) throw new Error('not Elasticsearch'); })
  .then(() => process.exit(0), (error) => { process.stderr.write(String(error && error.message)); process.exit(1); });
`;

function unreachableReason(): string | undefined {
  const ping = spawnSync(process.execPath, ['-e', PING, ELASTICSEARCH_URL], { encoding: 'utf8', timeout: 15_000 });
  if (ping.status === 0) return undefined;
  return ping.error?.message ?? (ping.stderr.trim() || `exit ${String(ping.status)}`);
}

const unreachable = unreachableReason();
if (unreachable !== undefined && process.env.CAIRN_REQUIRE_BACKENDS === 'true') {
  throw new Error(`An Elasticsearch server is required (CAIRN_REQUIRE_BACKENDS=true) but ${ELASTICSEARCH_URL} did not answer: ${unreachable}. Start one with: bash deploy/local/start.sh elasticsearch`);
}
if (unreachable !== undefined) {
  console.warn(`Skipping the Elasticsearch adapter tests: ${ELASTICSEARCH_URL} did not answer (${unreachable}). Start one with \`bash deploy/local/start.sh elasticsearch\` or set ELASTICSEARCH_URL; CAIRN_REQUIRE_BACKENDS=true makes this a failure.`);
}

/** `describe` when the server answers, `describe.skip` otherwise. */
export const describeWithElastic: jest.Describe = unreachable === undefined ? describe : describe.skip;

/** An index prefix no other test run uses. */
export function scratchIndexPrefix(): string {
  return `cairn_test_${randomBytes(6).toString('hex')}`;
}

/** Deletes every index a test run created under its prefix, with a client of its own. */
export async function deleteIndicesWithPrefix(prefix: string): Promise<void> {
  const client = new Client({ node: ELASTICSEARCH_URL });
  try {
    const { body } = await client.cat.indices({ index: `${prefix}_*`, format: 'json' });
    const names = (body as { index: string }[]).map((i) => i.index);
    if (names.length) await client.indices.delete({ index: names });
  } finally {
    await client.close();
  }
}
