/**
 * updateDataset(s), updateChart, updateDashboard: several aspects of one entity in one write. As in
 * the other edits, every urn the input names (tags, owners) must exist and every schema field must
 * be one of the dataset's columns; otherwise the mutation fails and writes nothing (for
 * updateDatasets, nothing of any dataset).
 */
import type { GraphqlContext } from '../context';
import { badInput } from '../errors';
import { refOf, type EntityRef } from '../refs';
import { mutate, type Changeset } from './changeset';
import { ownershipOf } from './owners';
import { plainFieldPath, requireSchemaField } from './schema-field-edits';
import { deprecationOf } from './status';

interface TagsUpdate {
  tags?: { tag: { urn: string } }[] | null;
}

interface CommonUpdate {
  ownership?: { owners: { owner: string; type?: string | null }[] } | null;
  globalTags?: TagsUpdate | null;
  tags?: TagsUpdate | null;
  editableProperties?: { description: string } | null;
}

interface DatasetUpdate extends CommonUpdate {
  deprecation?: { deprecated: boolean; decommissionTime?: number | null; note: string } | null;
  institutionalMemory?: { elements: { url: string; description?: string | null; author: string; createdAt?: number | null }[] } | null;
  editableSchemaMetadata?: { editableSchemaFieldInfo: { fieldPath: string; description?: string | null; globalTags?: TagsUpdate | null }[] } | null;
}

/** The tags of an update, each an existing tag. */
async function tagsOf(cs: Changeset, update: TagsUpdate) {
  const tags = [];
  for (const t of update.tags ?? []) tags.push({ tag: (await cs.existing(t.tag.urn, ['tag'])).urn });
  return { tags };
}

async function applyCommon(cs: Changeset, target: EntityRef, update: CommonUpdate, editableAspect: string) {
  if (update.ownership) {
    for (const o of update.ownership.owners) await cs.existing(o.owner, ['corpuser', 'corpGroup']);
    cs.set(target, 'ownership', ownershipOf(update.ownership, cs));
  }
  const tags = update.tags ?? update.globalTags;
  if (tags) cs.set(target, 'globalTags', await tagsOf(cs, tags));
  if (update.editableProperties) {
    await cs.update(target, editableAspect, (current) => ({
      ...current,
      created: current?.created ?? cs.stamp,
      lastModified: cs.stamp,
      description: update.editableProperties!.description,
    }));
  }
}

async function applyDatasetUpdate(ctx: GraphqlContext, cs: Changeset, urn: string, update: DatasetUpdate): Promise<EntityRef> {
  const dataset = await cs.existing(urn, ['dataset']);
  await applyCommon(cs, dataset, update, 'editableDatasetProperties');
  if (update.deprecation) cs.set(dataset, 'deprecation', deprecationOf(update.deprecation, cs));
  if (update.institutionalMemory) {
    const elements = [];
    for (const e of update.institutionalMemory.elements) {
      if (refOf(ctx, e.author)?.entityName !== 'corpuser') throw badInput(`A link's author must be a user urn, got '${e.author}'`);
      elements.push({ url: e.url, description: e.description ?? '', createStamp: { time: e.createdAt ?? cs.stamp.time, actor: e.author } });
    }
    cs.set(dataset, 'institutionalMemory', { elements });
  }
  if (update.editableSchemaMetadata) {
    // Replaces the edited fields as a whole, as the reference does; each must name a column of the schema.
    const infos = [];
    const seen = new Set<string>();
    for (const f of update.editableSchemaMetadata.editableSchemaFieldInfo) {
      const fieldPath = await requireSchemaField(cs, dataset, f.fieldPath);
      if (seen.has(plainFieldPath(fieldPath))) throw badInput(`Field ${f.fieldPath} of dataset ${dataset.urn} is edited twice`);
      seen.add(plainFieldPath(fieldPath));
      infos.push({
        fieldPath,
        ...(f.description != null ? { description: f.description } : {}),
        ...(f.globalTags ? { globalTags: await tagsOf(cs, f.globalTags) } : {}),
      });
    }
    const current = await cs.current<{ created?: unknown }>(dataset, 'editableSchemaMetadata');
    cs.set(dataset, 'editableSchemaMetadata', { created: current?.created ?? cs.stamp, lastModified: cs.stamp, editableSchemaFieldInfo: infos });
  }
  return dataset;
}

export const entityUpdateMutations = {
  updateDataset: (_: unknown, args: { urn: string; input: DatasetUpdate }, ctx: GraphqlContext) =>
    mutate(ctx, (cs) => applyDatasetUpdate(ctx, cs, args.urn, args.input)),
  updateDatasets: (_: unknown, args: { input: { urn: string; update: DatasetUpdate }[] }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const updated: EntityRef[] = [];
      for (const item of args.input) updated.push(await applyDatasetUpdate(ctx, cs, item.urn, item.update));
      return updated;
    }),
  updateChart: (_: unknown, args: { urn: string; input: CommonUpdate }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const chart = await cs.existing(args.urn, ['chart']);
      await applyCommon(cs, chart, args.input, 'editableChartProperties');
      return chart;
    }),
  updateDashboard: (_: unknown, args: { urn: string; input: CommonUpdate }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const dashboard = await cs.existing(args.urn, ['dashboard']);
      await applyCommon(cs, dashboard, args.input, 'editableDashboardProperties');
      return dashboard;
    }),
};
