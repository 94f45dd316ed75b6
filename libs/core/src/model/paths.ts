/** Values at an annotation path: segments split by "/", where "*" stands for every array item or map value. */

/** A model has a few hundred annotation paths, each read for every aspect value that has it. */
const segmentsByPath = new Map<string, readonly string[]>();

function segmentsOf(path: string): readonly string[] {
  let segments = segmentsByPath.get(path);
  if (!segments) segmentsByPath.set(path, (segments = path.split('/').filter((s) => s.length > 0)));
  return segments;
}

export function valuesAtPath(value: unknown, path: string): unknown[] {
  const out: unknown[] = [];
  collect(value, segmentsOf(path), 0, out);
  return out;
}

/** Depth first, which yields the values in the order of a level-by-level spread. */
function collect(v: unknown, segments: readonly string[], i: number, out: unknown[]): void {
  if (i === segments.length) {
    out.push(v);
    return;
  }
  if (v === null || v === undefined || typeof v !== 'object') return;
  const segment = segments[i]!;
  if (segment === '*') {
    const items = Array.isArray(v) ? v : Object.values(v);
    for (let j = 0; j < items.length; j++) collect(items[j], segments, i + 1, out);
  } else if (!Array.isArray(v)) {
    const child = (v as Record<string, unknown>)[segment];
    if (child !== undefined && child !== null) collect(child, segments, i + 1, out);
  }
}
