/**
 * One mutation's writes. Targets are checked and current values read first; `commit` then sends
 * every change as proposals in one `propose` call (all or nothing) and waits until they are
 * applied, so a read right after the mutation sees them.
 */
import { randomUUID } from 'node:crypto';
import type { MetadataChangeProposal } from '@cairn/events';
import { ReferenceRemover } from '@cairn/pipeline';
import type { GraphqlContext } from '../context';
import { badInput, fromPipelineError, notFound } from '../errors';
import { requireRef, type EntityRef } from '../refs';

export interface Stamp {
  readonly time: number;
  readonly actor: string;
}

type AspectValues = Map<string, unknown>;

export class Changeset {
  private readonly stored = new Map<string, AspectValues>();
  private readonly changes = new Map<string, { ref: EntityRef; aspect: string; value: unknown }>();
  private readonly deletions = new Map<string, EntityRef>();
  readonly stamp: Stamp;

  constructor(private readonly ctx: GraphqlContext) {
    this.stamp = { time: Date.now(), actor: ctx.actor };
  }

  /** Latest stored aspects, read from the store rather than the request's cache so edits build on fresh values. */
  private async load(urn: string): Promise<AspectValues> {
    let values = this.stored.get(urn);
    if (!values) {
      const rows = await this.ctx.catalog.store.getLatest([urn]);
      values = new Map(rows.map((r) => [r.aspect, JSON.parse(r.metadata)]));
      this.stored.set(urn, values);
    }
    return values;
  }

  /** An entity that must exist, optionally of given types; a clear error otherwise. */
  async existing(urn: string, entityNames?: readonly string[]): Promise<EntityRef> {
    const ref = requireRef(this.ctx, urn);
    if (entityNames && !entityNames.includes(ref.entityName)) {
      throw badInput(`Expected an urn of ${entityNames.join(' or ')}, got '${urn}'`);
    }
    if ((await this.load(ref.urn)).size === 0) throw notFound(`Entity ${urn} does not exist`);
    return ref;
  }

  /** A new entity of the given type: `id` when given (it must not exist yet), else a random one. */
  async created(entityName: string, id: string | null | undefined, what: string): Promise<EntityRef> {
    const key = id?.trim() || randomUUID();
    const ref = requireRef(this.ctx, `urn:li:${entityName}:${key}`, entityName);
    if ((await this.load(ref.urn)).size > 0) throw badInput(`This ${what} already exists: ${ref.urn}`);
    return ref;
  }

  /** The value an aspect has in this changeset: the pending change, else the stored one. */
  async current<T = any>(ref: EntityRef, aspect: string): Promise<T | undefined> {
    const pending = this.changes.get(`${ref.urn}\n${aspect}`);
    if (pending) return pending.value as T;
    return (await this.load(ref.urn)).get(aspect) as T | undefined;
  }

  set(ref: EntityRef, aspect: string, value: unknown): void {
    const entity = this.ctx.catalog.registry.entity(ref.entityName);
    if (!entity?.aspects.has(aspect)) throw badInput(`${ref.urn}: entities of type ${ref.entityName} have no ${aspect}`);
    this.changes.set(`${ref.urn}\n${aspect}`, { ref, aspect, value });
  }

  async update<T = any>(ref: EntityRef, aspect: string, change: (current: T | undefined) => T): Promise<void> {
    this.set(ref, aspect, change(await this.current<T>(ref, aspect)));
  }

  /**
   * Hard-deletes the entity (its key aspect), then removes the references other entities hold to
   * it (tags on datasets, owners, ...), as the reference's delete mutations do.
   */
  delete(ref: EntityRef): void {
    this.deletions.set(ref.urn, ref);
  }

  async commit(): Promise<void> {
    const proposals: MetadataChangeProposal[] = [
      ...[...this.changes.values()].map(({ ref, aspect, value }) => ({
        entityType: ref.entityName,
        entityUrn: ref.urn,
        changeType: 'UPSERT' as const,
        aspectName: aspect,
        aspect: { value: JSON.stringify(value), contentType: 'application/json' },
      })),
      ...[...this.deletions.values()].map((ref) => ({
        entityType: ref.entityName,
        entityUrn: ref.urn,
        changeType: 'DELETE' as const,
        aspectName: this.ctx.catalog.registry.entity(ref.entityName)!.keyAspect.name,
      })),
    ];
    if (proposals.length === 0) return;
    try {
      await this.ctx.catalog.ingest.propose(proposals, { actor: this.ctx.actor });
      await this.removeReferencesToDeleted();
    } catch (err) {
      throw fromPipelineError(err);
    }
    // Cached values are stale now; references may have been removed from any entity.
    this.ctx.loaders.aspects.clearAll();
  }

  private async removeReferencesToDeleted(): Promise<void> {
    if (this.deletions.size === 0) return;
    const { registry, store, graph, ingest } = this.ctx.catalog;
    const remover = new ReferenceRemover(registry, store, graph, ingest);
    for (const urn of this.deletions.keys()) await remover.remove(urn, { dryRun: false, actor: this.ctx.actor });
  }
}

/** Runs a mutation's checks and edits on a fresh changeset, then commits it. */
export async function mutate<T>(ctx: GraphqlContext, edit: (cs: Changeset) => Promise<T>): Promise<T> {
  const cs = new Changeset(ctx);
  const result = await edit(cs);
  await cs.commit();
  return result;
}
