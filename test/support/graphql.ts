/** GraphQL calls and sample loading for the GraphQL contract tests. */
import { join } from 'node:path';
import { callOfRecord } from '../../services/cli/src/records';
import { readRecords, SAMPLES_DIR } from './samples';
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

/** Ingests a reference sample file over REST, record by record. */
export async function loadSample(t: Target, file: string): Promise<void> {
  for (const record of readRecords(join(SAMPLES_DIR, file))) {
    const c = callOfRecord(record);
    const res = await call(t, 'POST', c.path, c.body);
    if (res.status !== 200) throw new Error(`${c.label}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}
