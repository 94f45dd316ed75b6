/** updateDescription (dataset schema fields and containers only, as the spec says) and updateName. */
import type { GraphqlContext } from '../context';
import { badInput } from '../errors';
import { mutate } from './changeset';
import { editSchemaField, requireSchemaField } from './schema-field-edits';

interface DescriptionInput {
  description: string;
  resourceUrn: string;
  subResourceType?: string | null;
  subResource?: string | null;
}

/** Where updateName writes the name of each entity type that has one. */
const NAME_FIELDS: Record<string, { aspect: string; field: string }> = {
  glossaryTerm: { aspect: 'glossaryTermInfo', field: 'name' },
  glossaryNode: { aspect: 'glossaryNodeInfo', field: 'name' },
  domain: { aspect: 'domainProperties', field: 'name' },
  corpGroup: { aspect: 'corpGroupInfo', field: 'displayName' },
};

export const descriptionMutations = {
  updateDescription: (_: unknown, { input }: { input: DescriptionInput }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const target = await cs.existing(input.resourceUrn);
      if (target.entityName === 'container') {
        if (input.subResource) throw badInput('Containers have no sub-resources');
        await cs.update(target, 'editableContainerProperties', (current) => ({ ...current, description: input.description }));
        return true;
      }
      if (target.entityName !== 'dataset' || input.subResourceType !== 'DATASET_FIELD') {
        throw badInput(`updateDescription supports dataset schema fields (subResourceType DATASET_FIELD) and containers, not ${target.entityName}${input.subResourceType ? ` ${input.subResourceType}` : ''}`);
      }
      const fieldPath = await requireSchemaField(cs, target, input.subResource);
      await editSchemaField(cs, target, fieldPath, (info) => ({ ...info, description: input.description }));
      return true;
    }),
  updateName: (_: unknown, { input }: { input: { name: string; urn: string } }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const target = await cs.existing(input.urn, Object.keys(NAME_FIELDS));
      const { aspect, field } = NAME_FIELDS[target.entityName];
      const current = await cs.current(target, aspect);
      if (!current) throw badInput(`${input.urn} has no ${aspect} to rename`);
      cs.set(target, aspect, { ...current, [field]: input.name });
      return true;
    }),
};
