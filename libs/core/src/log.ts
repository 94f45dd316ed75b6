/** Structured logs: one JSON object per line on stderr, so stdout stays free for tools. */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(service: string, level: LogLevel = (process.env.LOG_LEVEL as LogLevel) ?? 'info'): Logger {
  const min = ORDER[level] ?? ORDER.info;
  const write = (lvl: LogLevel) => (msg: string, fields: Record<string, unknown> = {}) => {
    if (ORDER[lvl] < min) return;
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: lvl, service, msg, ...fields })}\n`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
