/**
 * Owners (users or groups) of entities. Ownership is an entity aspect only: the model has no
 * ownership of a schema field (editableSchemaFieldInfo holds descriptions, tags and terms), and the
 * reference's owner mutations use the resource urn alone. A resource naming a schema field
 * (subResource) is refused rather than taken as the whole entity.
 */
import type { GraphqlContext } from '../context';
import { badInput } from '../errors';
import type { EntityRef } from '../refs';
import { mutate, type Changeset } from './changeset';
import type { ResourceRef } from './labels';

interface OwnerInput {
  ownerUrn: string;
  ownerEntityType: 'CORP_USER' | 'CORP_GROUP';
  type?: string | null;
}

interface Owner {
  owner: string;
  type: string;
  source?: unknown;
}

interface Ownership {
  owners: Owner[];
  lastModified?: unknown;
}

const DEFAULT_OWNERSHIP_TYPE = 'TECHNICAL_OWNER';
const OWNER_ENTITY: Record<OwnerInput['ownerEntityType'], string> = { CORP_USER: 'corpuser', CORP_GROUP: 'corpGroup' };

/** Refuses resources that name a schema field, before anything is read or written. */
function wholeEntities(resources: ResourceRef[]): void {
  for (const r of resources) {
    if (r.subResource || r.subResourceType) {
      const field = r.subResource ? `subResource '${r.subResource}'` : `subResourceType ${r.subResourceType}`;
      throw badInput(`Owners apply to whole entities; schema fields have no owners (${field} on ${r.resourceUrn})`);
    }
  }
}

async function addOwners(ctx: GraphqlContext, owners: OwnerInput[], resources: ResourceRef[]): Promise<boolean> {
  if (owners.length === 0 || resources.length === 0) throw badInput('At least one owner and one resource are required');
  wholeEntities(resources);
  return mutate(ctx, async (cs) => {
    for (const o of owners) await cs.existing(o.ownerUrn, [OWNER_ENTITY[o.ownerEntityType]]);
    for (const r of resources) {
      const target = await cs.existing(r.resourceUrn);
      await setOwners(cs, target, (current) => {
        const added = owners.map((o) => ({ owner: o.ownerUrn, type: o.type ?? DEFAULT_OWNERSHIP_TYPE, source: { type: 'MANUAL' } }));
        const kept = current.filter((c) => !added.some((a) => a.owner === c.owner && a.type === c.type));
        return [...kept, ...added];
      });
    }
    return true;
  });
}

async function removeOwners(ctx: GraphqlContext, ownerUrns: string[], resources: ResourceRef[]): Promise<boolean> {
  if (resources.length === 0) throw badInput('At least one resource is required');
  wholeEntities(resources);
  return mutate(ctx, async (cs) => {
    for (const r of resources) {
      const target = await cs.existing(r.resourceUrn);
      await setOwners(cs, target, (current) => current.filter((c) => !ownerUrns.includes(c.owner)));
    }
    return true;
  });
}

async function setOwners(cs: Changeset, target: EntityRef, change: (owners: Owner[]) => Owner[]) {
  await cs.update<Ownership>(target, 'ownership', (current) => ({ owners: change(current?.owners ?? []), lastModified: cs.stamp }));
}

const present = <T>(xs: (T | null)[]): T[] => xs.filter((x): x is T => x !== null);

export const ownerMutations = {
  addOwner: (_: unknown, { input }: { input: OwnerInput & { resourceUrn: string } }, ctx: GraphqlContext) => addOwners(ctx, [input], [input]),
  addOwners: (_: unknown, { input }: { input: { owners: OwnerInput[]; resourceUrn: string } }, ctx: GraphqlContext) => addOwners(ctx, input.owners, [input]),
  batchAddOwners: (_: unknown, { input }: { input: { owners: OwnerInput[]; resources: (ResourceRef | null)[] } }, ctx: GraphqlContext) =>
    addOwners(ctx, input.owners, present(input.resources)),
  removeOwner: (_: unknown, { input }: { input: { ownerUrn: string; resourceUrn: string } }, ctx: GraphqlContext) => removeOwners(ctx, [input.ownerUrn], [input]),
  batchRemoveOwners: (_: unknown, { input }: { input: { ownerUrns: string[]; resources: (ResourceRef | null)[] } }, ctx: GraphqlContext) =>
    removeOwners(ctx, input.ownerUrns, present(input.resources)),
};

/** The owners of an `ownership` update input (updateDataset and the like), replacing the current ones. */
export function ownershipOf(update: { owners: { owner: string; type?: string | null }[] }, cs: Changeset): Ownership {
  return { owners: update.owners.map((o) => ({ owner: o.owner, type: o.type ?? DEFAULT_OWNERSHIP_TYPE, source: { type: 'MANUAL' } })), lastModified: cs.stamp };
}

/** As in the reference, whoever creates a tag, domain or glossary entity becomes its owner. */
export function creatorAsOwner(cs: Changeset): Ownership {
  return ownershipOf({ owners: [{ owner: cs.stamp.actor }] }, cs);
}
