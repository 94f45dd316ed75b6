/** Time-series fields of datasets: profiles, usage statistics and operations, newest first. */
import type { GraphqlContext } from '../context';
import { pageSize } from '../limits';
import { refOf, type EntityRef } from '../refs';

const DEFAULT_LIMIT = 100;
const DAY = 24 * 60 * 60 * 1000;
/** Bucket sizes the GraphQL enum has; finer buckets are shown as days. */
const WINDOWS = new Set(['DAY', 'WEEK', 'MONTH', 'YEAR']);
const RANGE_MILLIS: Record<string, number | undefined> = { DAY, WEEK: 7 * DAY, MONTH: 30 * DAY, QUARTER: 90 * DAY, YEAR: 365 * DAY, ALL: undefined };

interface TimeArgs {
  startTimeMillis?: number | null;
  endTimeMillis?: number | null;
  limit?: number | null;
}

async function values(ctx: GraphqlContext, ref: EntityRef, aspect: string, args: TimeArgs): Promise<any[]> {
  const docs = await ctx.catalog.timeseries.query({
    entityType: ref.entityName,
    aspect,
    urn: ref.urn,
    ...(args.startTimeMillis != null ? { startTimeMillis: args.startTimeMillis } : {}),
    ...(args.endTimeMillis != null ? { endTimeMillis: args.endTimeMillis } : {}),
    limit: pageSize(args.limit, DEFAULT_LIMIT, ctx.limits),
  });
  return docs.map((d) => JSON.parse(d.event));
}

export async function datasetProfiles(ref: EntityRef, args: TimeArgs, ctx: GraphqlContext) {
  return values(ctx, ref, 'datasetProfile', args);
}

export async function operations(ref: EntityRef, args: TimeArgs, ctx: GraphqlContext) {
  const ops = await values(ctx, ref, 'operation', args);
  return ops.map((o) => ({
    ...o,
    lastUpdatedTimestamp: o.lastUpdatedTimestamp ?? o.timestampMillis,
    customProperties: o.customProperties ? Object.entries(o.customProperties).map(([key, value]) => ({ key, value })) : null,
  }));
}

function addCounts(into: Map<string, number>, key: string | undefined, n: number | undefined) {
  if (key) into.set(key, (into.get(key) ?? 0) + (n ?? 0));
}

/** Usage buckets in the range (ALL when absent), and their sums across the range. */
export async function usageStats(ref: EntityRef, args: { range?: string | null }, ctx: GraphqlContext) {
  const span = RANGE_MILLIS[args.range ?? 'ALL'];
  const buckets = await values(ctx, ref, 'datasetUsageStatistics', {
    ...(span !== undefined ? { startTimeMillis: Date.now() - span } : {}),
    limit: ctx.limits.maxPageSize,
  });
  const users = new Map<string, number>();
  const emails = new Map<string, string>();
  const fields = new Map<string, number>();
  let totalSqlQueries = 0;
  const userCounts = (b: any) =>
    (b.userCounts ?? []).map((u: any) => ({ user: refOf(ctx, u.user), count: u.count, userEmail: u.userEmail ?? null }));
  const fieldCounts = (b: any) => (b.fieldCounts ?? []).map((f: any) => ({ fieldName: f.fieldPath, count: f.count }));
  for (const b of buckets) {
    totalSqlQueries += b.totalSqlQueries ?? 0;
    for (const u of b.userCounts ?? []) {
      addCounts(users, u.user, u.count);
      if (u.userEmail) emails.set(u.user, u.userEmail);
    }
    for (const f of b.fieldCounts ?? []) addCounts(fields, f.fieldPath, f.count);
  }
  const byCount = (a: [string, number], b: [string, number]) => b[1] - a[1];
  return {
    buckets: buckets.map((b) => ({
      bucket: b.timestampMillis,
      duration: WINDOWS.has(b.eventGranularity?.unit) ? b.eventGranularity.unit : 'DAY',
      resource: ref.urn,
      metrics: {
        uniqueUserCount: b.uniqueUserCount ?? null,
        users: userCounts(b),
        totalSqlQueries: b.totalSqlQueries ?? null,
        topSqlQueries: b.topSqlQueries ?? null,
        fields: fieldCounts(b),
      },
    })),
    aggregations: {
      uniqueUserCount: users.size,
      users: [...users].sort(byCount).map(([user, count]) => ({ user: refOf(ctx, user), count, userEmail: emails.get(user) ?? null })),
      fields: [...fields].sort(byCount).map(([fieldName, count]) => ({ fieldName, count })),
      totalSqlQueries,
    },
  };
}
