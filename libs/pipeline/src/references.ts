/**
 * deleteReferences: every aspect that points at a URN (found through the graph's incoming edges)
 * gets that reference removed, by a proposal like any other write. An array item holding the
 * reference goes; a field holding it is dropped, and an aspect that no longer validates is deleted.
 */
import { validateValue, type AspectSpec, type Registry } from '@cairn/core';
import type { MetadataChangeProposal } from '@cairn/events';
import type { AspectReads, GraphIndex } from '@cairn/ports';
import type { IngestService } from './ingest';
import { JSON_CONTENT } from './proposal-check';

export interface RelatedAspect {
  readonly entity: string;
  readonly aspect: string;
  readonly relationship: string;
}

/** The reference answers at most this many related aspects per call, like its graph page. */
const MAX_REFERENCES = 10_000;

const REMOVE = Symbol('remove');

/** The value without `urn` at the path; an item inside an array is dropped as a whole. */
function prune(node: unknown, segments: readonly string[], urn: string, inArray: boolean): unknown {
  if (segments.length === 0) return node === urn ? REMOVE : node;
  const [seg, ...rest] = segments;
  if (seg === '*') {
    if (Array.isArray(node)) return node.map((el) => prune(el, rest, urn, true)).filter((el) => el !== REMOVE);
    if (node && typeof node === 'object') {
      const entries = Object.entries(node).map(([k, v]) => [k, prune(v, rest, urn, true)] as const);
      return Object.fromEntries(entries.filter(([, v]) => v !== REMOVE));
    }
    return node;
  }
  if (!node || typeof node !== 'object' || Array.isArray(node) || !(seg in node)) return node;
  const child = prune((node as Record<string, unknown>)[seg], rest, urn, false);
  if (child !== REMOVE) return { ...(node as Record<string, unknown>), [seg]: child };
  if (inArray) return REMOVE;
  const { [seg]: _dropped, ...others } = node as Record<string, unknown>;
  return others;
}

/** The aspect value without references to `urn`, or `delete` when what is left is not valid. */
export function withoutReferences(spec: AspectSpec, value: unknown, urn: string): { value: unknown } | 'delete' {
  let pruned = value;
  for (const r of spec.relationships) pruned = prune(pruned, r.path.split('/').filter(Boolean), urn, false);
  if (pruned === REMOVE) return 'delete';
  return validateValue(pruned, spec.type).errors.length ? 'delete' : { value: pruned };
}

export class ReferenceRemover {
  constructor(
    private readonly registry: Registry,
    private readonly store: AspectReads,
    private readonly graph: GraphIndex,
    private readonly ingest: IngestService,
  ) {}

  async remove(urn: string, options: { dryRun: boolean; actor: string }): Promise<{ total: number; relatedAspects: RelatedAspect[] }> {
    const { total, references } = await this.graph.references(urn, { start: 0, count: MAX_REFERENCES });
    const relatedAspects = references.map((r) => ({ entity: r.source, aspect: r.aspect, relationship: r.relationshipType }));
    if (options.dryRun) return { total, relatedAspects };
    const proposals: MetadataChangeProposal[] = [];
    const seen = new Set<string>();
    for (const r of references) {
      const key = `${r.source} ${r.aspect}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const entity = this.registry.parseEntityUrn(r.source).entity;
      const spec = entity.aspects.get(r.aspect);
      const [row] = await this.store.getLatest([r.source], [r.aspect]);
      if (!spec || !row) continue;
      const result = withoutReferences(spec, JSON.parse(row.metadata), urn);
      const base = { entityType: entity.name, entityUrn: r.source, aspectName: r.aspect };
      proposals.push(
        result === 'delete'
          ? { ...base, changeType: 'DELETE' }
          : { ...base, changeType: 'UPSERT', aspect: { value: JSON.stringify(result.value), contentType: JSON_CONTENT } },
      );
    }
    if (proposals.length) await this.ingest.propose(proposals, { actor: options.actor });
    return { total, relatedAspects };
  }
}
