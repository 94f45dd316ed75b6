/**
 * `/usageStats`: a dataset's usage over time from its `datasetUsageStatistics` values, in the
 * reference's buckets (latest counts per calendar window) and aggregations (users and fields summed).
 */
import { Router, type Request } from 'express';
import { badRequest, isUrn } from '@cairn/core';
import type { FilterCriterion, GenericTable, TimeseriesAggregation } from '@cairn/ports';
import type { CatalogContext } from '../context';
import { actions, body, optionalInt, requireString } from '../http';

const ENTITY = 'dataset';
const ASPECT = 'datasetUsageStatistics';
const NULL = 'NULL';
const DURATIONS = ['HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
type Duration = (typeof DURATIONS)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** How far back a range reaches: one window more than its name, the reference's inclusive bounds. */
const RANGE_BACK_MS: Record<string, number> = {
  HOUR: 2 * HOUR_MS + 1,
  DAY: 2 * DAY_MS + 1,
  WEEK: 8 * DAY_MS + 1,
  MONTH: 31 * DAY_MS + 1,
  QUARTER: 92 * DAY_MS + 1,
  YEAR: 366 * DAY_MS + 1,
};

function durationOf(params: Record<string, unknown>): Duration {
  const d = requireString(params, 'duration');
  const known = DURATIONS.find((x) => x === d);
  if (!known) throw badRequest(`Parameter 'duration' must be one of ${DURATIONS.join(', ')}, got '${d}'`);
  return known;
}

function resourceOf(params: Record<string, unknown>): string {
  const resource = requireString(params, 'resource');
  if (!isUrn(resource)) throw badRequest(`Parameter 'resource' must be a URN, got '${resource}'`);
  return resource;
}

const num = (cell: string | undefined) => (cell === undefined || cell === NULL ? undefined : Number(cell));

export function usageStatsRouter(ctx: CatalogContext): Router {
  const router = Router();

  const table = (filter: FilterCriterion[], buckets: TimeseriesAggregation['buckets'], metrics: TimeseriesAggregation['metrics']): Promise<GenericTable> =>
    ctx.timeseries.aggregate({ entityType: ENTITY, aspect: ASPECT, filter: [filter], buckets, metrics });

  const query = async (resource: string, duration: Duration, startTime?: number, endTime?: number) => {
    const filter: FilterCriterion[] = [
      { fields: ['urn'], condition: 'EQUAL', values: [resource], negated: false },
      ...(startTime !== undefined ? [{ fields: ['timestampMillis'], condition: 'GREATER_THAN_OR_EQUAL_TO' as const, values: [String(startTime)], negated: false }] : []),
      ...(endTime !== undefined ? [{ fields: ['timestampMillis'], condition: 'LESS_THAN_OR_EQUAL_TO' as const, values: [String(endTime)], negated: false }] : []),
    ];
    const [windows, users, fields] = await Promise.all([
      table(
        filter,
        [{ kind: 'date', field: 'timestampMillis', unit: duration, multiple: 1 }],
        [
          { type: 'LATEST', field: 'uniqueUserCount' },
          { type: 'LATEST', field: 'totalSqlQueries' },
          { type: 'LATEST', field: 'topSqlQueries' },
        ],
      ),
      table(filter, [{ kind: 'string', field: 'userCounts.user' }], [
        { type: 'SUM', field: 'userCounts.count' },
        { type: 'LATEST', field: 'userCounts.userEmail' },
      ]),
      table(filter, [{ kind: 'string', field: 'fieldCounts.fieldPath' }], [{ type: 'SUM', field: 'fieldCounts.count' }]),
    ]);
    const buckets = windows.rows.map(([bucket, uniqueUserCount, totalSqlQueries, topSqlQueries]) => ({
      bucket: Number(bucket),
      duration,
      resource,
      metrics: {
        ...(num(uniqueUserCount) !== undefined ? { uniqueUserCount: num(uniqueUserCount) } : {}),
        ...(num(totalSqlQueries) !== undefined ? { totalSqlQueries: num(totalSqlQueries) } : {}),
        ...(topSqlQueries !== NULL ? { topSqlQueries: JSON.parse(topSqlQueries) as string[] } : {}),
      },
    }));
    const userCounts = users.rows
      .map(([user, count, userEmail]) => ({ user, ...(num(count) !== undefined ? { count: num(count) } : {}), ...(userEmail !== NULL ? { userEmail } : {}) }))
      .sort((a, b) => (b.count ?? 0) - (a.count ?? 0) || (a.user < b.user ? -1 : 1));
    const fieldCounts = fields.rows
      .map(([fieldName, count]) => ({ fieldName, ...(num(count) !== undefined ? { count: num(count) } : {}) }))
      .sort((a, b) => (b.count ?? 0) - (a.count ?? 0) || (a.fieldName < b.fieldName ? -1 : 1));
    const totals = buckets.map((b) => b.metrics.totalSqlQueries).filter((n): n is number => n !== undefined);
    return {
      buckets,
      aggregations: {
        uniqueUserCount: userCounts.length,
        users: userCounts,
        fields: fieldCounts,
        ...(totals.length ? { totalSqlQueries: totals.reduce((a, b) => a + b, 0) } : {}),
      },
    };
  };

  router.post(
    '/usageStats',
    actions('usageStats', {
      query: async (req: Request) => {
        const params = body(req);
        const startTime = optionalInt(params, 'startTime');
        const endTime = optionalInt(params, 'endTime');
        const maxBuckets = optionalInt(params, 'maxBuckets');
        if (maxBuckets !== undefined && maxBuckets < 1) throw badRequest("Parameter 'maxBuckets' must be positive");
        const result = await query(resourceOf(params), durationOf(params), startTime, endTime);
        return maxBuckets === undefined ? result : { ...result, buckets: result.buckets.slice(-maxBuckets) };
      },
      queryRange: async (req: Request) => {
        const params = body(req);
        const range = requireString(params, 'rangeFromEnd');
        if (range !== 'ALL' && !(range in RANGE_BACK_MS)) throw badRequest(`Parameter 'rangeFromEnd' must be one of ${[...Object.keys(RANGE_BACK_MS), 'ALL'].join(', ')}, got '${range}'`);
        const now = Date.now();
        return query(resourceOf(params), durationOf(params), range === 'ALL' ? 0 : now - RANGE_BACK_MS[range], now);
      },
    }),
  );

  return router;
}
