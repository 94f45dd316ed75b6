/** Glossary terms and nodes: create, delete, move, rename (see descriptions), related terms. */
import type { GraphqlContext } from '../context';
import { badInput } from '../errors';
import { mutate, type Changeset } from './changeset';
import { creatorAsOwner } from './owners';

interface CreateInput {
  id?: string | null;
  name: string;
  description?: string | null;
  parentNode?: string | null;
}

const INFO_ASPECT: Record<string, string> = { glossaryTerm: 'glossaryTermInfo', glossaryNode: 'glossaryNodeInfo' };
/** Related-term lists by relationship: isA terms are what the term is; hasA terms what it contains. */
const RELATED_FIELD: Record<string, 'isRelatedTerms' | 'hasRelatedTerms'> = { isA: 'isRelatedTerms', hasA: 'hasRelatedTerms' };

async function parentOf(cs: Changeset, parentNode: string | null | undefined): Promise<{ parentNode?: string }> {
  if (!parentNode) return {};
  await cs.existing(parentNode, ['glossaryNode']);
  return { parentNode };
}

function create(entityName: 'glossaryTerm' | 'glossaryNode', what: string, extra: Record<string, unknown>) {
  return (_: unknown, { input }: { input: CreateInput }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const ref = await cs.created(entityName, input.id, what);
      cs.set(ref, INFO_ASPECT[entityName], { name: input.name, definition: input.description ?? '', ...extra, ...(await parentOf(cs, input.parentNode)) });
      cs.set(ref, 'ownership', creatorAsOwner(cs));
      return ref.urn;
    });
}

function editRelated(op: 'add' | 'remove') {
  return (_: unknown, { input }: { input: { urn: string; termUrns: string[]; relationshipType: string } }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const term = await cs.existing(input.urn, ['glossaryTerm']);
      if (input.termUrns.includes(term.urn)) throw badInput('A term cannot be related to itself');
      if (op === 'add') for (const u of input.termUrns) await cs.existing(u, ['glossaryTerm']);
      const field = RELATED_FIELD[input.relationshipType];
      await cs.update<Record<string, string[] | undefined>>(term, 'glossaryRelatedTerms', (current) => {
        const existing = current?.[field] ?? [];
        const next = op === 'add' ? [...existing, ...input.termUrns.filter((u) => !existing.includes(u))] : existing.filter((u) => !input.termUrns.includes(u));
        return { ...current, [field]: next };
      });
      return true;
    });
}

export const glossaryMutations = {
  createGlossaryTerm: create('glossaryTerm', 'Glossary Term', { termSource: 'INTERNAL' }),
  createGlossaryNode: create('glossaryNode', 'Glossary Node', {}),
  deleteGlossaryEntity: (_: unknown, { urn }: { urn: string }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      cs.delete(await cs.existing(urn, Object.keys(INFO_ASPECT)));
      return true;
    }),
  updateParentNode: (_: unknown, { input }: { input: { parentNode?: string | null; resourceUrn: string } }, ctx: GraphqlContext) =>
    mutate(ctx, async (cs) => {
      const target = await cs.existing(input.resourceUrn, Object.keys(INFO_ASPECT));
      if (input.parentNode === target.urn) throw badInput('A glossary node cannot be its own parent');
      const aspect = INFO_ASPECT[target.entityName];
      const current = await cs.current<Record<string, unknown>>(target, aspect);
      if (!current) throw badInput(`${target.urn} has no ${aspect}`);
      const { parentNode: _old, ...rest } = current;
      cs.set(target, aspect, { ...rest, ...(await parentOf(cs, input.parentNode)) });
      return true;
    }),
  addRelatedTerms: editRelated('add'),
  removeRelatedTerms: editRelated('remove'),
};
