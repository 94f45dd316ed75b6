/** Tags and glossary terms on entities or, with a subResource, on dataset schema fields. */
import type { GraphqlContext } from '../context';
import { badInput } from '../errors';
import type { EntityRef } from '../refs';
import { mutate, type Changeset } from './changeset';
import { editSchemaField, requireSchemaField } from './schema-field-edits';

export interface ResourceRef {
  resourceUrn: string;
  subResourceType?: string | null;
  subResource?: string | null;
}

/** How one kind of label is stored: on the entity, and inside an editable schema field entry. */
interface LabelKind {
  readonly entityName: string;
  read(value: unknown): string[];
  write(urns: string[], cs: Changeset): unknown;
  readonly aspect: string;
  readonly fieldKey: 'globalTags' | 'glossaryTerms';
}

const TAGS: LabelKind = {
  entityName: 'tag',
  aspect: 'globalTags',
  fieldKey: 'globalTags',
  read: (value) => ((value as { tags?: { tag: string }[] } | undefined)?.tags ?? []).map((t) => t.tag),
  write: (urns) => ({ tags: urns.map((tag) => ({ tag })) }),
};

const TERMS: LabelKind = {
  entityName: 'glossaryTerm',
  aspect: 'glossaryTerms',
  fieldKey: 'glossaryTerms',
  read: (value) => ((value as { terms?: { urn: string }[] } | undefined)?.terms ?? []).map((t) => t.urn),
  write: (urns, cs) => ({ terms: urns.map((urn) => ({ urn })), auditStamp: cs.stamp }),
};

/** Resource checks come first (the entity, its field), then labels are merged into the current values. */
async function applyLabels(ctx: GraphqlContext, kind: LabelKind, labelUrns: string[], resources: ResourceRef[], op: 'add' | 'remove'): Promise<boolean> {
  if (resources.length === 0) throw badInput('At least one resource is required');
  return mutate(ctx, async (cs) => {
    if (op === 'add') for (const urn of labelUrns) await cs.existing(urn, [kind.entityName]);
    const merge = (existing: string[]) =>
      op === 'add' ? [...existing, ...labelUrns.filter((u) => !existing.includes(u))] : existing.filter((u) => !labelUrns.includes(u));
    for (const r of resources) {
      const target: EntityRef = await cs.existing(r.resourceUrn);
      if (r.subResourceType || r.subResource) {
        if (r.subResourceType && r.subResourceType !== 'DATASET_FIELD') throw badInput(`Unsupported subResourceType ${r.subResourceType}`);
        const fieldPath = await requireSchemaField(cs, target, r.subResource);
        await editSchemaField(cs, target, fieldPath, (info) => ({ ...info, [kind.fieldKey]: kind.write(merge(kind.read(info[kind.fieldKey])), cs) }));
      } else {
        await cs.update(target, kind.aspect, (current) => ({ ...(current as object), ...(kind.write(merge(kind.read(current)), cs) as object) }));
      }
    }
    return true;
  });
}

type One = { input: ResourceRef & { tagUrn?: string; termUrn?: string } };
type Many = { input: ResourceRef & { tagUrns?: string[]; termUrns?: string[] } };
type Batch = { input: { tagUrns?: string[]; termUrns?: string[]; resources: (ResourceRef | null)[] } };

const present = <T>(xs: (T | null)[]): T[] => xs.filter((x): x is T => x !== null);

export const labelMutations = {
  addTag: (_: unknown, { input }: One, ctx: GraphqlContext) => applyLabels(ctx, TAGS, [input.tagUrn!], [input], 'add'),
  addTags: (_: unknown, { input }: Many, ctx: GraphqlContext) => applyLabels(ctx, TAGS, input.tagUrns!, [input], 'add'),
  batchAddTags: (_: unknown, { input }: Batch, ctx: GraphqlContext) => applyLabels(ctx, TAGS, input.tagUrns!, present(input.resources), 'add'),
  removeTag: (_: unknown, { input }: One, ctx: GraphqlContext) => applyLabels(ctx, TAGS, [input.tagUrn!], [input], 'remove'),
  batchRemoveTags: (_: unknown, { input }: Batch, ctx: GraphqlContext) => applyLabels(ctx, TAGS, input.tagUrns!, present(input.resources), 'remove'),
  addTerm: (_: unknown, { input }: One, ctx: GraphqlContext) => applyLabels(ctx, TERMS, [input.termUrn!], [input], 'add'),
  addTerms: (_: unknown, { input }: Many, ctx: GraphqlContext) => applyLabels(ctx, TERMS, input.termUrns!, [input], 'add'),
  batchAddTerms: (_: unknown, { input }: Batch, ctx: GraphqlContext) => applyLabels(ctx, TERMS, input.termUrns!, present(input.resources), 'add'),
  removeTerm: (_: unknown, { input }: One, ctx: GraphqlContext) => applyLabels(ctx, TERMS, [input.termUrn!], [input], 'remove'),
  batchRemoveTerms: (_: unknown, { input }: Batch, ctx: GraphqlContext) => applyLabels(ctx, TERMS, input.termUrns!, present(input.resources), 'remove'),
};
