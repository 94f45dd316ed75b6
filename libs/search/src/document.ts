/** Search-document fields and graph edges an aspect contributes, from its annotations. */
import { valuesAtPath, type AspectSpec, type SearchableSpec } from '@cairn/core';
import type { Edge, SearchFields } from '@cairn/ports';

function isMulti(spec: SearchableSpec): boolean {
  return spec.path.includes('*') || spec.fieldType === 'BROWSE_PATH';
}

function isObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function scalar(v: unknown): unknown {
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : v;
}

/**
 * Every field the aspect can set, so fields the new value no longer has are cleared.
 * `value` null means the aspect was deleted.
 */
export function searchFieldsOf(spec: AspectSpec, value: unknown | null): SearchFields {
  const fields: SearchFields = {};
  for (const s of spec.searchable) {
    const raw = value === null ? [] : valuesAtPath(value, s.path);
    const values = scalarsOf(raw, s);
    // A list or map at the path is multi-valued even with one entry (as the reference indexes it).
    const multi = isMulti(s) || values.length > 1 || raw.some((v) => Array.isArray(v) || (isObject(v) && s.fieldType !== 'OBJECT'));
    const merged = multi ? appendValues(fields[s.fieldName], values) : values[0];
    fields[s.fieldName] = merged === undefined || (Array.isArray(merged) && merged.length === 0) ? null : merged;
    // Several paths of one aspect may share a has/num field (inputDatasets, inputDatasetEdges): an empty one must not reset it.
    if (s.hasValuesFieldName) fields[s.hasValuesFieldName] = value === null ? null : fields[s.hasValuesFieldName] === true || values.length > 0;
    if (s.numValuesFieldName) fields[s.numValuesFieldName] = value === null ? null : Math.max(Number(fields[s.numValuesFieldName] ?? 0), values.length);
  }
  return fields;
}

/** Maps become `key=value` strings (customProperties); arrays spread; objects left become JSON. */
function scalarsOf(values: unknown[], spec: SearchableSpec): unknown[] {
  const out: unknown[] = [];
  for (const v of values) {
    if (Array.isArray(v)) for (const item of v) out.push(scalar(item));
    else if (v && typeof v === 'object' && spec.fieldType !== 'OBJECT') for (const [k, x] of Object.entries(v)) out.push(`${k}=${String(x)}`);
    else out.push(scalar(v));
  }
  return out;
}

function appendValues(existing: unknown, values: unknown[]): unknown[] {
  if (existing === null || existing === undefined) return values;
  return Array.isArray(existing) ? [...existing, ...values] : [existing, ...values];
}

interface ItemsAndRest {
  readonly items?: string;
  readonly rest: string;
}

/** A model has a few dozen relationship paths, each split for every aspect value that has it. */
const itemsAndRestByPath = new Map<string, ItemsAndRest>();

/** Splits a path at its last `*` so per-item companions (createdOn) stay with their item. */
function itemsAndRest(path: string): ItemsAndRest {
  let split = itemsAndRestByPath.get(path);
  if (!split) {
    const i = path.lastIndexOf('/*/');
    split = i < 0 ? { rest: path } : { items: path.slice(0, i + 2), rest: path.slice(i + 2) };
    itemsAndRestByPath.set(path, split);
  }
  return split;
}

export function edgesOf(source: string, spec: AspectSpec, value: unknown | null): Edge[] {
  if (value === null) return [];
  const edges: Edge[] = [];
  for (const r of spec.relationships) {
    const { items, rest } = itemsAndRest(r.path);
    const elements = items ? valuesAtPath(value, items) : [value];
    const companion = (path: string | undefined, element: unknown): unknown => {
      if (!path) return undefined;
      if (items && path.startsWith(`${items}/`)) return valuesAtPath(element, path.slice(items.length))[0];
      return valuesAtPath(value, path)[0];
    };
    for (const element of elements) {
      for (const destination of valuesAtPath(element, rest)) {
        if (typeof destination !== 'string') continue;
        const createdOn = companion(r.createdOn, element);
        const createdActor = companion(r.createdActor, element);
        edges.push({
          source,
          destination,
          relationshipType: r.name,
          ...(typeof createdOn === 'number' ? { createdOn } : {}),
          ...(typeof createdActor === 'string' ? { createdActor } : {}),
        });
      }
    }
  }
  return edges;
}
