/** GraphQL calls, and copies of the bootstrap sample for the GraphQL contract tests. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { callOfRecord } from '../../services/cli/src/records';
import { SAMPLES_DIR } from './samples';
import { call, type Reply, type Target } from './target';

export interface GraphqlReply<T = any> {
  readonly status: number;
  readonly data: T;
  readonly errors?: { message: string; extensions?: { code?: string } }[];
  readonly body: any;
}

export async function gql<T = any>(t: Target, query: string, variables: Record<string, unknown> = {}, path = '/api/graphql'): Promise<GraphqlReply<T>> {
  const res: Reply = await call(t, 'POST', path, { query, variables });
  return { status: res.status, data: res.body?.data, errors: res.body?.errors, body: res.body };
}

/** The URN parts of the bootstrap entities the suites edit, with `{s}` where a copy's suffix goes. */
const EDITED = [
  ['urn:li:container:DATABASE', 'urn:li:container:DATABASE_{s}'],
  ['urn:li:container:SCHEMA', 'urn:li:container:SCHEMA_{s}'],
  [',SampleHiveDataset,', ',SampleHiveDataset_{s},'],
  [',SampleKafkaDataset,', ',SampleKafkaDataset_{s},'],
  [',SampleHdfsDataset,', ',SampleHdfsDataset_{s},'],
  [',logging_events,', ',logging_events_{s},'],
  [',fct_users_created,', ',fct_users_created_{s},'],
  [',fct_users_deleted,', ',fct_users_deleted_{s},'],
  [',project/root/events/logging_events_bckp,', ',project/root/events/logging_events_bckp_{s},'],
  ['(looker,baz1)', '(looker,baz1_{s})'],
  ['(looker,baz2)', '(looker,baz2_{s})'],
  ['(looker,baz)', '(looker,baz_{s})'],
  ['(airflow,dag_abc,PROD)', '(airflow,dag_abc_{s},PROD)'],
  ['urn:li:corpuser:jdoe"', 'urn:li:corpuser:jdoe_{s}"'],
] as const;

/** URNs of one copy of the bootstrap sample. */
export function bootstrapCopy(suffix: string) {
  const dataset = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name}_${suffix},PROD)`;
  return {
    HIVE: dataset('hive', 'SampleHiveDataset'),
    KAFKA: dataset('kafka', 'SampleKafkaDataset'),
    HDFS: dataset('hdfs', 'SampleHdfsDataset'),
    EVENTS: dataset('hive', 'logging_events'),
    EVENTS_BACKUP: dataset('s3', 'project/root/events/logging_events_bckp'),
    CHART: `urn:li:chart:(looker,baz1_${suffix})`,
    CHART2: `urn:li:chart:(looker,baz2_${suffix})`,
    DASHBOARD: `urn:li:dashboard:(looker,baz_${suffix})`,
    FLOW: `urn:li:dataFlow:(airflow,dag_abc_${suffix},PROD)`,
    JOB: `urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc_${suffix},PROD),task_123)`,
    DATABASE: `urn:li:container:DATABASE_${suffix}`,
    SCHEMA: `urn:li:container:SCHEMA_${suffix}`,
    JDOE: `urn:li:corpuser:jdoe_${suffix}`,
  };
}

/**
 * Ingests the bootstrap sample over REST with the edited entities renamed by `suffix`, so suites
 * sharing one deployment (CAIRN_BASE_URL) each edit their own copies and leave the originals as
 * the sample has them.
 */
export async function loadBootstrapCopy(t: Target, suffix: string): Promise<void> {
  let text = readFileSync(join(SAMPLES_DIR, 'bootstrap_mce.json'), 'utf8');
  for (const [from, to] of EDITED) text = text.split(from).join(to.replace('{s}', suffix));
  for (const record of JSON.parse(text) as unknown[]) {
    const c = callOfRecord(record);
    const res = await call(t, 'POST', c.path, c.body);
    if (res.status !== 200) throw new Error(`${c.label}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}
