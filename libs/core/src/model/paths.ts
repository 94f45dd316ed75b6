/** Values at an annotation path: segments split by "/", where "*" stands for every array item or map value. */

export function valuesAtPath(value: unknown, path: string): unknown[] {
  const segments = path.split('/').filter((s) => s.length > 0);
  let current: unknown[] = [value];
  for (const seg of segments) {
    const next: unknown[] = [];
    for (const v of current) {
      if (v === null || v === undefined) continue;
      if (seg === '*') {
        if (Array.isArray(v)) next.push(...v);
        else if (typeof v === 'object') next.push(...Object.values(v));
      } else if (typeof v === 'object' && !Array.isArray(v)) {
        const child = (v as Record<string, unknown>)[seg];
        if (child !== undefined && child !== null) next.push(child);
      }
    }
    current = next;
  }
  return current;
}
