/**
 * Which parts of an aspect a write changes, for rules that grant privileges per field (column
 * descriptions, column tags, lineage edges inside chartInfo, ...). The value is projected onto
 * each rule path (keeping identifying `keys`, dropping `ignore`d stamps and array items left
 * empty); a part changed when its projections before and after differ. Whatever lies outside
 * every rule path is compared the same way.
 */
import type { AspectRule } from './privileges';

type Decision = 'keep' | 'drop' | 'descend' | 'key';

const isAncestor = (path: string, of: string) => of.startsWith(`${path}/`);
const isWithin = (path: string, prefix: string) => path === prefix || isAncestor(prefix, path);

function project(value: unknown, path: string, decide: (path: string) => Decision): { value?: unknown; content: boolean } {
  const decision = decide(path);
  if (decision === 'drop') return { content: false };
  if (decision === 'key') return { value, content: false };
  if (decision === 'keep' || value === null || typeof value !== 'object') return { value, content: value !== undefined };
  if (Array.isArray(value)) {
    const items = value.map((v) => project(v, `${path}/*`, decide)).filter((p) => p.content);
    return items.length ? { value: items.map((p) => p.value), content: true } : { content: false };
  }
  const out: Record<string, unknown> = {};
  let content = false;
  for (const [k, v] of Object.entries(value)) {
    const p = project(v, `${path}/${k}`, decide);
    if (p.value !== undefined) out[k] = p.value;
    content ||= p.content;
  }
  return content ? { value: out, content } : { content: false };
}

/** JSON with object keys sorted, so key order is not a change. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  return `{${Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
    .join(',')}}`;
}

function differs(before: unknown, after: unknown, decide: (path: string) => Decision): boolean {
  return canonicalJson(project(before, '', decide).value) !== canonicalJson(project(after, '', decide).value);
}

export interface AspectChange {
  /** Rule paths whose part changed. */
  readonly fields: readonly string[];
  /** Whether something outside every rule path changed. */
  readonly other: boolean;
}

export function changedParts(rule: AspectRule, before: unknown, after: unknown): AspectChange {
  const prefixes = [...(rule.fields?.keys() ?? [])];
  const common = (path: string): Decision | undefined => {
    if (rule.ignore.includes(path)) return 'drop';
    if (rule.keys.includes(path)) return 'key';
    return undefined;
  };
  const onto = (prefix: string) => (path: string): Decision => {
    const c = common(path);
    if (c) return c;
    if (isWithin(path, prefix)) return 'keep';
    return path === '' || isAncestor(path, prefix) ? 'descend' : 'drop';
  };
  const outside = (path: string): Decision => {
    const c = common(path);
    if (c) return c;
    if (prefixes.some((p) => isWithin(path, p))) return 'drop';
    return path === '' || prefixes.some((p) => isAncestor(path, p)) ? 'descend' : 'keep';
  };
  return {
    fields: prefixes.filter((p) => differs(before, after, onto(p))),
    other: differs(before, after, outside),
  };
}
