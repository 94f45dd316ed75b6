/** The privileges and write rules of `schemas/auth/privileges.yaml`, loaded once. */
import { basename, dirname, resolve } from 'node:path';
import { parsedCacheFile, readModelDocs } from '@cairn/core';

export const AUTH_MODEL_DIR = resolve(__dirname, '../../../schemas/auth');

/** The document of a YAML file of auth rules; the service's own are kept parsed across starts. */
export function readAuthYaml(file: string): unknown {
  const cache = dirname(file) === AUTH_MODEL_DIR ? parsedCacheFile(`auth-${basename(file, '.yaml')}`) : undefined;
  return readModelDocs([file], (message) => new Error(message), cache).get(file)![0];
}

export interface PrivilegeDef {
  readonly name: string;
  readonly description: string;
  /** The field of the GraphQL `PlatformPrivileges` type that shows it, if any. */
  readonly graphqlField?: string;
}

/** How one aspect's changes map onto privileges; see the comments in privileges.yaml. */
export interface AspectRule {
  /** Any of these for any change; undefined when `fields` decide. */
  readonly anyOf?: readonly string[];
  readonly fields?: ReadonlyMap<string, readonly string[]>;
  readonly keys: readonly string[];
  readonly ignore: readonly string[];
}

type Raw = any;

function names(raw: unknown, where: string): string[] {
  if (!Array.isArray(raw) || raw.some((n) => typeof n !== 'string')) throw new Error(`${where}: expected a list of privilege names`);
  return raw;
}

function table(raw: Raw, where: string): Map<string, string[]> {
  return new Map(Object.entries(raw ?? {}).map(([k, v]) => [k, names(v, `${where}.${k}`)]));
}

function aspectRule(raw: Raw, where: string): AspectRule {
  if (Array.isArray(raw)) return { anyOf: names(raw, where), keys: [], ignore: [] };
  return {
    fields: table(raw.fields, `${where}.fields`),
    keys: raw.keys ?? [],
    ignore: raw.ignore ?? [],
  };
}

export class PrivilegeCatalog {
  readonly platform: readonly PrivilegeDef[];
  readonly resource: readonly PrivilegeDef[];
  readonly editEntity: string;
  readonly deleteEntity: readonly string[];
  private readonly aspects: ReadonlyMap<string, AspectRule>;
  private readonly platformAspects: ReadonlyMap<string, readonly string[]>;
  private readonly platformEntities: ReadonlyMap<string, readonly string[]>;
  private readonly managedBy: ReadonlyMap<string, readonly string[]>;
  private readonly creation: ReadonlyMap<string, readonly string[]>;
  private readonly ownAspects: ReadonlyMap<string, readonly string[]>;
  private readonly secretAspects: ReadonlyMap<string, readonly string[]>;

  constructor(raw: Raw) {
    const defs = (list: Raw[]): PrivilegeDef[] => list.map((p) => ({ name: String(p.name), description: String(p.description ?? ''), ...(p.graphqlField ? { graphqlField: String(p.graphqlField) } : {}) }));
    this.platform = defs(raw.platformPrivileges);
    this.resource = defs(raw.resourcePrivileges);
    const w = raw.writes;
    this.editEntity = String(w.editEntity);
    this.deleteEntity = names(w.deleteEntity, 'writes.deleteEntity');
    this.aspects = new Map(Object.entries(w.aspects ?? {}).map(([k, v]) => [k, aspectRule(v, `writes.aspects.${k}`)]));
    this.platformAspects = table(w.platformAspects, 'writes.platformAspects');
    this.platformEntities = table(w.platformEntities, 'writes.platformEntities');
    this.managedBy = table(w.managedBy, 'writes.managedBy');
    this.creation = table(w.creation, 'writes.creation');
    this.ownAspects = table(w.ownAspects, 'writes.ownAspects');
    this.secretAspects = table(raw.reads?.secretAspects, 'reads.secretAspects');
    this.checkNames();
  }

  static load(file = resolve(AUTH_MODEL_DIR, 'privileges.yaml')): PrivilegeCatalog {
    return new PrivilegeCatalog(readAuthYaml(file) as Raw);
  }

  isKnown(privilege: string): boolean {
    return this.platform.some((p) => p.name === privilege) || this.resource.some((p) => p.name === privilege);
  }

  aspectRule(aspect: string): AspectRule | undefined {
    return this.aspects.get(aspect);
  }

  platformAspect(aspect: string): readonly string[] | undefined {
    return this.platformAspects.get(aspect);
  }

  platformEntity(entity: string): readonly string[] | undefined {
    return this.platformEntities.get(entity);
  }

  managers(entity: string): readonly string[] {
    return this.managedBy.get(entity) ?? [];
  }

  creators(entity: string): readonly string[] | undefined {
    return this.creation.get(entity);
  }

  /** The platform privileges (any of) that reading a secret aspect needs; undefined for every other aspect. */
  secretAspect(aspect: string): readonly string[] | undefined {
    return this.secretAspects.get(aspect);
  }

  /** The names of the secret aspects. */
  secretAspectNames(): readonly string[] {
    return [...this.secretAspects.keys()];
  }

  isOwnAspect(entity: string, aspect: string): boolean {
    return this.ownAspects.get(entity)?.includes(aspect) ?? false;
  }

  /** A typo in the rules would silently grant or deny; refuse to load instead. */
  private checkNames(): void {
    const all = [
      this.editEntity,
      ...this.deleteEntity,
      ...[...this.aspects.values()].flatMap((r) => [...(r.anyOf ?? []), ...[...(r.fields?.values() ?? [])].flat()]),
      ...[this.platformAspects, this.platformEntities, this.managedBy, this.creation].flatMap((t) => [...t.values()].flat()),
    ];
    const unknown = all.filter((n) => !this.isKnown(n));
    if (unknown.length) throw new Error(`privileges.yaml: unknown privileges ${[...new Set(unknown)].join(', ')}`);
    // A secret is read by who holds a platform privilege: a resource privilege would let a policy on one entity reveal it.
    const notPlatform = [...this.secretAspects.values()].flat().filter((n) => !this.platform.some((p) => p.name === n));
    if (notPlatform.length) throw new Error(`privileges.yaml: reads.secretAspects must name platform privileges, not ${[...new Set(notPlatform)].join(', ')}`);
    const empty = [...this.secretAspects].filter(([, v]) => v.length === 0).map(([k]) => k);
    if (empty.length) throw new Error(`privileges.yaml: reads.secretAspects ${empty.join(', ')} name no privilege`);
  }
}

let shared: PrivilegeCatalog | undefined;

export function defaultPrivilegeCatalog(): PrivilegeCatalog {
  shared ??= PrivilegeCatalog.load();
  return shared;
}
