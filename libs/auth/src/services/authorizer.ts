/** Decides whether an actor holds privileges, from the stored policies and the actor's groups and roles. */
import { applyPatch } from '@cairn/core';
import type { AspectReads } from '@cairn/ports';
import type { CheckedProposal } from '@cairn/pipeline';
import { forbidden } from '../errors';
import { POLICY_ENTITY, policyGrants, type Owner, type ResourceFacts } from '../policies';
import type { PrivilegeCatalog } from '../privileges';
import { needsValues, privilegesCoveringEveryWrite, writeRequirements, type Requirement } from '../write-requirements';
import { IDENTITY_ASPECTS, type Accounts } from './accounts';
import type { PolicyStore } from './policy-store';

export interface ResourceRef {
  readonly type: string;
  readonly urn: string;
}

/** Stands for the result of a PATCH that cannot be applied: a change outside every rule path, so EDIT_ENTITY decides. */
const UNREADABLE = { $unappliablePatch: true };

export class Authorizer {
  constructor(
    readonly catalog: PrivilegeCatalog,
    private readonly policies: PolicyStore,
    private readonly accounts: Accounts,
    private readonly store: AspectReads,
    /** Actors with every privilege: the system client and the pipeline's own writes. */
    private readonly systemActors: readonly string[],
  ) {}

  isSystem(actor: string): boolean {
    return this.systemActors.includes(actor);
  }

  /** Whether `actor` holds any of `privileges`, on `resource` or, without one, on some resource or the platform. */
  async can(actor: string, privileges: readonly string[], resource?: ResourceRef): Promise<boolean> {
    if (this.isSystem(actor)) return true;
    const [policies, identity] = await Promise.all([this.policies.all(), this.accounts.identity(actor)]);
    const facts = resource ? this.facts(resource) : undefined;
    for (const privilege of privileges) {
      for (const p of policies) if (await policyGrants(p.info, privilege, identity, facts)) return true;
    }
    return false;
  }

  /** The platform privileges `actor` holds, for `me.platformPrivileges`. */
  async platformPrivileges(actor: string): Promise<Set<string>> {
    const names = this.catalog.platform.map((p) => p.name);
    const held = await Promise.all(names.map((n) => this.can(actor, [n])));
    return new Set(names.filter((_, i) => held[i]));
  }

  /**
   * The write pipeline's check: every proposal of a request is allowed, or the request is refused
   * (403) before anything is queued.
   */
  async authorizeProposals(actor: string, proposals: readonly CheckedProposal[]): Promise<void> {
    this.forgetChanged(proposals);
    if (this.isSystem(actor)) return;
    const existing = new Map<string, Promise<boolean>>();
    const exists = (urn: string) => {
      if (!existing.has(urn)) existing.set(urn, this.store.exists(urn));
      return existing.get(urn)!;
    };
    for (const p of proposals) {
      const entity = p.entity.name;
      const aspect = p.aspect.name;
      const resource = { type: entity, urn: p.urn };
      const covering = privilegesCoveringEveryWrite(this.catalog, entity, aspect);
      if (covering.length > 0 && (await this.can(actor, covering))) continue;
      const deletesEntity = p.mcp.changeType === 'DELETE' && p.aspect.kind === 'key';
      const creating = this.catalog.creators(entity) !== undefined && !(await exists(p.urn));
      // EDIT_ENTITY satisfies every field rule, so who holds it needs no comparison of values.
      const compare = needsValues(this.catalog, aspect) && p.aspect.kind === 'versioned' && !creating && !deletesEntity;
      const values = compare && !(await this.can(actor, [this.catalog.editEntity], resource)) ? await this.beforeAndAfter(p) : {};
      const requirements = writeRequirements(this.catalog, { entity, aspect, deletesEntity, creating, ownEntity: p.urn === actor, ...values });
      for (const r of requirements) {
        if (!(await this.meets(actor, r, resource))) {
          throw forbidden(`${actor} may not write ${aspect} of ${p.urn}; that needs ${describe(r)}`);
        }
      }
    }
  }

  /**
   * Writes to memberships, roles or policies show in this process's next decisions instead of
   * after the cache expires (the write is applied before its request answers).
   */
  private forgetChanged(proposals: readonly CheckedProposal[]): void {
    for (const p of proposals) {
      if (p.entity.name === POLICY_ENTITY) this.policies.forget();
      else if (p.entity.name === 'corpuser' && (IDENTITY_ASPECTS.includes(p.aspect.name) || p.aspect.kind === 'key')) this.accounts.forget(p.urn);
    }
  }

  private async meets(actor: string, r: Requirement, resource: ResourceRef): Promise<boolean> {
    return (r.resource.length > 0 && (await this.can(actor, r.resource, resource))) || (r.platform.length > 0 && (await this.can(actor, r.platform)));
  }

  private async beforeAndAfter(p: CheckedProposal): Promise<{ before?: unknown; after?: unknown }> {
    const [row] = await this.store.getLatest([p.urn], [p.aspect.name]);
    const before = row ? (JSON.parse(row.metadata) as unknown) : undefined;
    if (p.mcp.changeType === 'DELETE') return { before };
    if (!p.patch) return { before, after: p.value };
    try {
      return { before, after: applyPatch(before ?? {}, p.patch) };
    } catch {
      return { before, after: UNREADABLE };
    }
  }

  private facts(ref: ResourceRef): ResourceFacts {
    let aspects: Promise<Map<string, any>> | undefined;
    const read = () => (aspects ??= this.store.getLatest([ref.urn], ['ownership', 'domains']).then((rows) => new Map(rows.map((r) => [r.aspect, JSON.parse(r.metadata)]))));
    return {
      ...ref,
      owners: async () => ((await read()).get('ownership')?.owners ?? []) as Owner[],
      domains: async () => ((await read()).get('domains')?.domains ?? []) as string[],
    };
  }
}

function describe(r: Requirement): string {
  const parts = [...(r.resource.length ? [`${r.resource.join(' or ')} on the entity`] : []), ...(r.platform.length ? [`platform privilege ${r.platform.join(' or ')}`] : [])];
  return parts.join(', or ');
}
