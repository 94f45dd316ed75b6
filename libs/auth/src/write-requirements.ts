/** Which privileges one proposal needs, by the write rules of privileges.yaml. */
import { changedParts } from './aspect-changes';
import type { PrivilegeCatalog } from './privileges';

/** Satisfied by any of `resource` on the written entity or any of `platform`. */
export interface Requirement {
  readonly resource: readonly string[];
  readonly platform: readonly string[];
}

export interface WriteFacts {
  readonly entity: string;
  readonly aspect: string;
  /** A DELETE of the key aspect: the entity goes. */
  readonly deletesEntity: boolean;
  /** The entity does not exist before this request. */
  readonly creating: boolean;
  /** The written entity is the actor's own corpuser. */
  readonly ownEntity: boolean;
  /** The aspect before and after the write, for rules that look at fields (see needsValues). */
  readonly before?: unknown;
  readonly after?: unknown;
}

const unique = (xs: readonly string[]) => [...new Set(xs)];

/**
 * Platform privileges that allow every write of this aspect of entities of this type (creating,
 * deleting, any change): the managers of the type, unless the aspect is platform-only. Holding
 * one spares the reads the exact requirements need.
 */
export function privilegesCoveringEveryWrite(catalog: PrivilegeCatalog, entity: string, aspect: string): readonly string[] {
  if (catalog.platformEntity(entity) || catalog.platformAspect(aspect)) return [];
  return catalog.managers(entity);
}

export function needsValues(catalog: PrivilegeCatalog, aspect: string): boolean {
  return catalog.aspectRule(aspect)?.fields !== undefined && catalog.platformAspect(aspect) === undefined;
}

/** Every requirement must be met; an empty list means the write is allowed to anyone. */
export function writeRequirements(catalog: PrivilegeCatalog, w: WriteFacts): Requirement[] {
  const platformOnly = (list: readonly string[]) => [{ resource: [], platform: list }];
  const byEntity = catalog.platformEntity(w.entity);
  if (byEntity) return platformOnly(byEntity);
  const byAspect = catalog.platformAspect(w.aspect);
  if (byAspect) return platformOnly(byAspect);
  if (w.ownEntity && catalog.isOwnAspect(w.entity, w.aspect)) return [];

  const managers = catalog.managers(w.entity);
  const creators = catalog.creators(w.entity);
  if (w.creating && creators) return platformOnly(unique([...creators, ...managers]));
  const onEntity = (privileges: readonly string[]): Requirement => ({ resource: unique(privileges), platform: managers });
  if (w.deletesEntity) return [onEntity(catalog.deleteEntity)];

  const edit = catalog.editEntity;
  const rule = catalog.aspectRule(w.aspect);
  if (!rule) return [onEntity([edit])];
  if (rule.anyOf) return [onEntity([...rule.anyOf, edit])];
  const fields = rule.fields!;
  const change = changedParts(rule, w.before, w.after);
  const needs = change.fields.map((f) => onEntity([...fields.get(f)!, edit]));
  if (change.other) needs.push(onEntity([edit]));
  // An unchanged value is still a write (it refreshes lastObserved): any privilege on the aspect will do.
  return needs.length ? needs : [onEntity([...[...fields.values()].flat(), edit])];
}
