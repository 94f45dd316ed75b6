import { aggregateRows, bucketStart } from './timeseries-aggregation';

const row = (timestampMillis: number, event: Record<string, unknown>) => ({
  timestampMillis,
  event: { timestampMillis, urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)', ...event },
});

describe('time-series aggregation', () => {
  it('starts calendar buckets in UTC, weeks on Monday', () => {
    const ts = Date.UTC(2021, 5, 17, 13, 45); // a Thursday
    expect(bucketStart(ts, 'HOUR', 1)).toBe(Date.UTC(2021, 5, 17, 13));
    expect(bucketStart(ts, 'DAY', 1)).toBe(Date.UTC(2021, 5, 17));
    expect(bucketStart(ts, 'WEEK', 1)).toBe(Date.UTC(2021, 5, 14));
    expect(bucketStart(ts, 'MONTH', 1)).toBe(Date.UTC(2021, 5, 1));
    expect(bucketStart(ts, 'QUARTER', 1)).toBe(Date.UTC(2021, 3, 1));
    expect(bucketStart(ts, 'YEAR', 1)).toBe(Date.UTC(2021, 0, 1));
  });

  it('takes the latest value per date bucket', () => {
    const rows = [row(Date.UTC(2021, 0, 1, 1), { totalSqlQueries: 1 }), row(Date.UTC(2021, 0, 1, 5), { totalSqlQueries: 5 }), row(Date.UTC(2021, 0, 2), {})];
    const table = aggregateRows(rows, {
      entityType: 'dataset',
      aspect: 'datasetUsageStatistics',
      filter: [],
      buckets: [{ kind: 'date', field: 'timestampMillis', unit: 'DAY', multiple: 1 }],
      metrics: [{ type: 'LATEST', field: 'totalSqlQueries' }],
    });
    expect(table).toEqual({
      columnNames: ['timestampMillis', 'latest_totalSqlQueries'],
      rows: [
        [String(Date.UTC(2021, 0, 1)), '5'],
        [String(Date.UTC(2021, 0, 2)), 'NULL'],
      ],
    });
  });

  it('explodes arrays for a string bucket inside them and sums per element', () => {
    const rows = [
      row(1, { userCounts: [{ user: 'a', count: 1, userEmail: 'a@x' }, { user: 'b', count: 2 }] }),
      row(2, { userCounts: [{ user: 'a', count: 3, userEmail: 'a@y' }] }),
    ];
    const table = aggregateRows(rows, {
      entityType: 'dataset',
      aspect: 'datasetUsageStatistics',
      filter: [],
      buckets: [{ kind: 'string', field: 'userCounts.user' }],
      metrics: [
        { type: 'SUM', field: 'userCounts.count' },
        { type: 'LATEST', field: 'userCounts.userEmail' },
      ],
    });
    expect(table.rows).toEqual([
      ['a', '4', 'a@y'],
      ['b', '2', 'NULL'],
    ]);
  });
});
