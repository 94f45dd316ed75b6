/** updateLineage: adds and removes upstream edges, in the aspect each kind of edge lives in. */
import type { GraphqlContext } from '../context';
import { badInput } from '../errors';
import type { EntityRef } from '../refs';
import { mutate, type Changeset } from './changeset';

interface LineageEdge {
  downstreamUrn: string;
  upstreamUrn: string;
}

type Value = Record<string, any>;

/**
 * Where an edge (downstream ← upstream) is stored: an aspect of `holder` (the downstream entity,
 * or the upstream job for a job's outputs), pointing at the other end.
 */
interface EdgeSlot {
  readonly holder: 'downstream' | 'upstream';
  readonly aspect: string;
  /** The aspect when the holder does not have it yet; undefined when it cannot be made up. */
  readonly empty?: Value;
  add(value: Value, other: string, cs: Changeset): Value;
  remove(value: Value, other: string): Value;
}

/** An `Edge` list, plus the older plain URN list of the same relationship. */
function edgeList(edges: string, plain: string, empty?: Value): Omit<EdgeSlot, 'holder' | 'aspect'> {
  return {
    ...(empty ? { empty } : {}),
    add: (v, other, cs) =>
      (v[edges] ?? []).some((e: Value) => e.destinationUrn === other) || (v[plain] ?? []).includes(other)
        ? v
        : { ...v, [edges]: [...(v[edges] ?? []), { destinationUrn: other, created: cs.stamp, lastModified: cs.stamp }] },
    remove: (v, other) => ({
      ...v,
      ...(v[edges] ? { [edges]: v[edges].filter((e: Value) => e.destinationUrn !== other) } : {}),
      ...(v[plain] ? { [plain]: v[plain].filter((u: unknown) => u !== other && (u as Value)?.string !== other) } : {}),
    }),
  };
}

const JOB_IO = { inputDatasets: [], outputDatasets: [] };

const SLOTS: Record<string, EdgeSlot> = {
  'dataset<dataset': {
    holder: 'downstream',
    aspect: 'upstreamLineage',
    empty: { upstreams: [] },
    add: (v, other, cs) =>
      v.upstreams.some((u: Value) => u.dataset === other)
        ? v
        : { ...v, upstreams: [...v.upstreams, { dataset: other, type: 'TRANSFORMED', auditStamp: cs.stamp, created: cs.stamp }] },
    remove: (v, other) => ({ ...v, upstreams: v.upstreams.filter((u: Value) => u.dataset !== other) }),
  },
  'chart<dataset': { holder: 'downstream', aspect: 'chartInfo', ...edgeList('inputEdges', 'inputs') },
  'dashboard<chart': { holder: 'downstream', aspect: 'dashboardInfo', ...edgeList('chartEdges', 'charts') },
  'dashboard<dataset': { holder: 'downstream', aspect: 'dashboardInfo', ...edgeList('datasetEdges', 'datasets') },
  'dataJob<dataset': { holder: 'downstream', aspect: 'dataJobInputOutput', ...edgeList('inputDatasetEdges', 'inputDatasets', JOB_IO) },
  'dataJob<dataJob': { holder: 'downstream', aspect: 'dataJobInputOutput', ...edgeList('inputDatajobEdges', 'inputDatajobs', JOB_IO) },
  'dataset<dataJob': { holder: 'upstream', aspect: 'dataJobInputOutput', ...edgeList('outputDatasetEdges', 'outputDatasets', JOB_IO) },
};

async function applyEdge(cs: Changeset, edge: LineageEdge, op: 'add' | 'remove') {
  const downstream = await cs.existing(edge.downstreamUrn);
  const upstream = await cs.existing(edge.upstreamUrn);
  const slot = SLOTS[`${downstream.entityName}<${upstream.entityName}`];
  if (!slot) throw badInput(`Lineage from ${upstream.entityName} to ${downstream.entityName} is not supported`);
  const [holder, other]: [EntityRef, EntityRef] = slot.holder === 'downstream' ? [downstream, upstream] : [upstream, downstream];
  const current = (await cs.current<Value>(holder, slot.aspect)) ?? slot.empty;
  if (!current) throw badInput(`${holder.urn} has no ${slot.aspect} to hold lineage`);
  cs.set(holder, slot.aspect, op === 'add' ? slot.add(current, other.urn, cs) : slot.remove(current, other.urn));
}

export const lineageMutations = {
  updateLineage: (_: unknown, { input }: { input: { edgesToAdd: (LineageEdge | null)[]; edgesToRemove: (LineageEdge | null)[] } }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      for (const e of input.edgesToRemove) if (e) await applyEdge(cs, e, 'remove');
      for (const e of input.edgesToAdd) if (e) await applyEdge(cs, e, 'add');
      return true;
    }),
};
