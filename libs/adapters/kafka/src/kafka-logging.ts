/** kafkajs logs routed to the service's JSON logger. */
import type { Logger } from '@cairn/core';
import { logLevel, type logCreator } from 'kafkajs';

/** kafkajs is chatty at info (every join, pause, seek); warnings and errors are what matter. */
export const KAFKAJS_LOG_LEVEL = logLevel.WARN;

export function kafkaLogCreator(logger: Logger): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, ...fields } = log;
      const write =
        level === logLevel.ERROR ? logger.error : level === logLevel.WARN ? logger.warn : level === logLevel.INFO ? logger.info : logger.debug;
      write(message, { kafkajs: namespace, ...fields });
    };
}
