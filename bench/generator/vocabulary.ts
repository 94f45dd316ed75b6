/** Words the synthetic catalog is made of: business domains, table nouns, column names and people. */

export const PLATFORMS = ['hive', 'snowflake', 'bigquery', 'postgres', 'mysql', 'kafka', 's3', 'redshift', 'databricks', 'oracle'] as const;
export const BI_TOOLS = ['looker', 'tableau', 'superset', 'mode', 'powerbi'] as const;
export const ENVIRONMENTS = ['PROD', 'PROD', 'PROD', 'DEV', 'QA'] as const;

export const DOMAINS = [
  'sales', 'marketing', 'finance', 'billing', 'payments', 'logistics', 'inventory', 'customer', 'support', 'growth',
  'product', 'engineering', 'security', 'hr', 'legal', 'risk', 'fraud', 'ads', 'search', 'recommendations',
] as const;

export const NOUNS = [
  'orders', 'customers', 'events', 'sessions', 'invoices', 'payments', 'shipments', 'products', 'accounts', 'users',
  'clicks', 'impressions', 'campaigns', 'leads', 'tickets', 'refunds', 'subscriptions', 'transactions', 'devices', 'visits',
  'carts', 'reviews', 'returns', 'suppliers', 'warehouses', 'employees', 'contracts', 'claims', 'alerts', 'experiments',
] as const;

export const QUALIFIERS = [
  'daily', 'hourly', 'weekly', 'monthly', 'raw', 'clean', 'enriched', 'aggregated', 'snapshot', 'history',
  'latest', 'staging', 'summary', 'fact', 'dim', 'by_region', 'by_country', 'by_channel', 'rollup', 'deduped',
] as const;

export const COLUMN_WORDS = [
  'id', 'customer', 'order', 'amount', 'currency', 'status', 'created', 'updated', 'country', 'region', 'email',
  'name', 'price', 'quantity', 'discount', 'tax', 'total', 'channel', 'device', 'session', 'event', 'type', 'source',
  'campaign', 'revenue', 'cost', 'margin', 'score', 'rank', 'count', 'duration', 'latitude', 'longitude', 'city',
  'postal_code', 'phone', 'account', 'plan', 'tier', 'segment', 'category', 'sku', 'vendor', 'warehouse', 'flag',
] as const;

export const COLUMN_SUFFIXES = ['', '', '', '_id', '_at', '_date', '_ts', '_code', '_key', '_amount', '_count', '_name'] as const;

export const COLUMN_TYPES: readonly { readonly native: string; readonly type: string }[] = [
  { native: 'varchar(255)', type: 'com.linkedin.schema.StringType' },
  { native: 'string', type: 'com.linkedin.schema.StringType' },
  { native: 'bigint', type: 'com.linkedin.schema.NumberType' },
  { native: 'int', type: 'com.linkedin.schema.NumberType' },
  { native: 'decimal(18,2)', type: 'com.linkedin.schema.NumberType' },
  { native: 'double', type: 'com.linkedin.schema.NumberType' },
  { native: 'boolean', type: 'com.linkedin.schema.BooleanType' },
  { native: 'date', type: 'com.linkedin.schema.DateType' },
  { native: 'timestamp', type: 'com.linkedin.schema.TimeType' },
  { native: 'array<string>', type: 'com.linkedin.schema.ArrayType' },
];

export const DESCRIPTION_WORDS = [
  'contains', 'every', 'record', 'of', 'the', 'customer', 'facing', 'pipeline', 'refreshed', 'nightly', 'from', 'upstream',
  'sources', 'used', 'by', 'analysts', 'for', 'reporting', 'and', 'forecasting', 'deduplicated', 'joined', 'with',
  'reference', 'data', 'owned', 'team', 'partitioned', 'by', 'date', 'sensitive', 'personal', 'information', 'masked',
] as const;

export const FIRST_NAMES = [
  'ada', 'alan', 'grace', 'linus', 'margaret', 'dennis', 'barbara', 'ken', 'frances', 'edsger', 'donald', 'radia',
  'john', 'katherine', 'tim', 'sophie', 'guido', 'james', 'anita', 'brian', 'lisa', 'niklaus', 'shafi', 'leslie',
] as const;

export const LAST_NAMES = [
  'lovelace', 'turing', 'hopper', 'torvalds', 'hamilton', 'ritchie', 'liskov', 'thompson', 'allen', 'dijkstra', 'knuth',
  'perlman', 'mccarthy', 'johnson', 'berners', 'wilson', 'rossum', 'gosling', 'borg', 'kernighan', 'su', 'wirth', 'goldwasser', 'lamport',
] as const;

export const TITLES = ['Data Engineer', 'Analyst', 'Data Scientist', 'Engineering Manager', 'Product Manager', 'Architect', 'SRE'] as const;

export const CHART_TYPES = ['BAR', 'LINE', 'PIE', 'TABLE', 'AREA', 'SCATTER', 'TEXT'] as const;

export const TAG_THEMES = ['pii', 'gdpr', 'gold', 'silver', 'bronze', 'deprecated', 'certified', 'sensitive', 'external', 'finance'] as const;

export const TERM_THEMES = ['Revenue', 'Customer', 'Order', 'Account', 'Churn', 'Lifetime Value', 'Conversion', 'Margin', 'Invoice', 'Refund'] as const;
