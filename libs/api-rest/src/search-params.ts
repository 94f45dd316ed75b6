/** Parameters of the search-side actions: pages, entity lists, and the checks that keep them sane. */
import { badRequest } from '@cairn/core';
import { MAX_RESULT_WINDOW } from '@cairn/ports';
import { optionalInt } from './http';

export const DEFAULT_PAGE_SIZE = 10;

/** `start`/`count` (or another pair of names): non-negative, and within the result window. */
export function pageOf(params: Record<string, unknown>, startName = 'start', countName = 'count'): { from: number; size: number } {
  const from = optionalInt(params, startName) ?? 0;
  const size = optionalInt(params, countName) ?? DEFAULT_PAGE_SIZE;
  if (from < 0) throw badRequest(`Parameter '${startName}' must not be negative, got ${from}`);
  if (size < 0 || size > MAX_RESULT_WINDOW) throw badRequest(`Parameter '${countName}' must be between 0 and ${MAX_RESULT_WINDOW}, got ${size}`);
  if (from + size > MAX_RESULT_WINDOW) {
    throw badRequest(`${startName} + ${countName} must be at most ${MAX_RESULT_WINDOW} (got ${from + size}); page deeper with scrollAcrossEntities`);
  }
  return { from, size };
}

export function stringList(params: Record<string, unknown>, name: string): string[] | undefined {
  const v = params[name];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw badRequest(`Parameter '${name}' must be a list of strings`);
  return v as string[];
}

/** A parameter that must be a JSON object when present (filter, sort). */
export function optionalObject(params: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const v = params[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw badRequest(`Parameter '${name}' must be an object`);
  return v as Record<string, unknown>;
}
