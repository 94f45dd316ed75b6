/** updateDataset(s), updateChart, updateDashboard: several aspects of one entity in one write. */
import type { GraphqlContext } from '../context';
import { badInput } from '../errors';
import { refOf, type EntityRef } from '../refs';
import { mutate, type Changeset } from './changeset';
import { ownershipOf } from './owners';
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

const tagsOf = (update: TagsUpdate) => ({ tags: (update.tags ?? []).map((t) => ({ tag: t.tag.urn })) });

async function applyCommon(cs: Changeset, target: EntityRef, update: CommonUpdate, editableAspect: string) {
  if (update.ownership) cs.set(target, 'ownership', ownershipOf(update.ownership, cs));
  const tags = update.tags ?? update.globalTags;
  if (tags) cs.set(target, 'globalTags', tagsOf(tags));
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
    cs.set(dataset, 'editableSchemaMetadata', {
      created: cs.stamp,
      lastModified: cs.stamp,
      editableSchemaFieldInfo: update.editableSchemaMetadata.editableSchemaFieldInfo.map((f) => ({
        fieldPath: f.fieldPath,
        ...(f.description != null ? { description: f.description } : {}),
        ...(f.globalTags ? { globalTags: tagsOf(f.globalTags) } : {}),
      })),
    });
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
