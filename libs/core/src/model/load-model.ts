/** Loads the model folder (schemas/) into resolved entity and aspect specs. */
import { readdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type {
  AspectKind,
  AspectSpec,
  EntitySpec,
  EnumType,
  FieldDef,
  PrimitiveName,
  RecordType,
  RelationshipSpec,
  SearchFieldType,
  SearchableSpec,
  TimeseriesFieldSpec,
  TypeExpr,
  UnionMember,
} from './types';
import { MODEL_CACHE_FILE, readModelDocs } from './model-docs';

const PRIMITIVES = new Set<string>(['string', 'int', 'long', 'float', 'double', 'boolean', 'bytes']);
const DEFAULT_QUERY_TYPES = new Set<string>(['TEXT', 'TEXT_PARTIAL', 'URN', 'URN_PARTIAL', 'WORD_GRAM']);

export class ModelError extends Error {}

type Raw = Record<string, unknown>;

/** Named types: records, enums and typerefs, by fully qualified name. */
class TypeTable {
  readonly named = new Map<string, RecordType | EnumType | TypeExpr>();
  readonly unresolved: string[] = [];

  parse(expr: unknown, where: string): TypeExpr {
    if (typeof expr === 'string') {
      if (PRIMITIVES.has(expr)) return { kind: 'primitive', name: expr as PrimitiveName };
      if (expr === 'urn') return { kind: 'urn' };
      if (expr.includes('.')) return { kind: 'ref', name: expr };
      throw new ModelError(`${where}: unknown type '${expr}'`);
    }
    if (expr && typeof expr === 'object' && !Array.isArray(expr)) {
      const o = expr as Raw;
      if ('array' in o) return { kind: 'array', items: this.parse(o.array, `${where}[]`) };
      if ('map' in o) return { kind: 'map', values: this.parse(o.map, `${where}{}`) };
      if ('union' in o) return this.parseUnion(o.union, where);
      if ('record' in o) return this.defineRecord(String(o.record), o.fields, where);
      if ('enum' in o) return this.defineEnum(String(o.enum), o.symbols, where);
    }
    throw new ModelError(`${where}: unreadable type expression ${JSON.stringify(expr)}`);
  }

  private parseUnion(members: unknown, where: string): TypeExpr {
    if (!Array.isArray(members) || members.length === 0) throw new ModelError(`${where}: union needs members`);
    let aliased = false;
    const parsed: UnionMember[] = members.map((m, i) => {
      if (m && typeof m === 'object' && 'alias' in (m as Raw)) {
        aliased = true;
        const a = m as Raw;
        return { key: String(a.alias), type: this.parse(a.type, `${where}|${i}`) };
      }
      const type = this.parse(m, `${where}|${i}`);
      return { key: memberKey(type), type };
    });
    return { kind: 'union', members: parsed, aliased };
  }

  defineRecord(name: string, fields: unknown, where: string): RecordType {
    const record: RecordType = { kind: 'record', name, fields: [] };
    this.register(name, record, where);
    record.fields = this.parseFields(fields, `${where}/${name}`);
    return record;
  }

  defineEnum(name: string, symbols: unknown, where: string): EnumType {
    if (!Array.isArray(symbols) || symbols.some((s) => typeof s !== 'string')) {
      throw new ModelError(`${where}: enum ${name} needs a list of symbols`);
    }
    const e: EnumType = { kind: 'enum', name, symbols: symbols as string[] };
    this.register(name, e, where);
    return e;
  }

  register(name: string, type: RecordType | EnumType | TypeExpr, where: string): void {
    if (this.named.has(name)) throw new ModelError(`${where}: type ${name} is defined twice`);
    this.named.set(name, type);
  }

  parseFields(fields: unknown, where: string): FieldDef[] {
    if (fields === undefined || fields === null) return [];
    if (!Array.isArray(fields)) throw new ModelError(`${where}: fields must be a list`);
    const seen = new Set<string>();
    return fields.map((f, i) => {
      const o = f as Raw;
      if (!o || typeof o.name !== 'string') throw new ModelError(`${where}: field #${i} has no name`);
      if (seen.has(o.name)) throw new ModelError(`${where}: field ${o.name} is declared twice`);
      seen.add(o.name);
      const def: FieldDef = {
        name: o.name,
        type: this.parse(o.type, `${where}.${o.name}`),
        optional: o.optional === true,
        ...('default' in o ? { default: o.default } : {}),
      };
      return def;
    });
  }

  /** Resolves every `ref` reachable from the given expression; records names that are missing. */
  resolveAll(): void {
    const visit = (t: TypeExpr, seen: Set<TypeExpr>): void => {
      if (seen.has(t)) return;
      seen.add(t);
      switch (t.kind) {
        case 'ref': {
          const target = this.named.get(t.name);
          if (!target) {
            if (!this.unresolved.includes(t.name)) this.unresolved.push(t.name);
            return;
          }
          t.resolved = target;
          visit(target, seen);
          return;
        }
        case 'array':
          return visit(t.items, seen);
        case 'map':
          return visit(t.values, seen);
        case 'union':
          return t.members.forEach((m) => visit(m.type, seen));
        case 'record':
          return t.fields.forEach((f) => visit(f.type, seen));
        default:
          return;
      }
    };
    const seen = new Set<TypeExpr>();
    for (const t of this.named.values()) visit(t, seen);
  }
}

/** The Rest.li JSON key of a union member. */
function memberKey(type: TypeExpr): string {
  switch (type.kind) {
    case 'primitive':
      return type.name;
    case 'urn':
      return 'string';
    case 'ref':
    case 'record':
    case 'enum':
      return type.name;
    case 'array':
      return 'array';
    case 'map':
      return 'map';
    case 'union':
      throw new ModelError('a union cannot be a member of a union');
  }
}

/** Follows refs (and typerefs) to the concrete type. */
export function deref(type: TypeExpr): Exclude<TypeExpr, { kind: 'ref' }> {
  let t: TypeExpr = type;
  for (let i = 0; t.kind === 'ref'; i++) {
    if (!t.resolved || i > 32) throw new ModelError(`unresolved type ${t.name}`);
    t = t.resolved;
  }
  return t;
}

function parseSearchable(raw: unknown, where: string): SearchableSpec[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new ModelError(`${where}: searchable must be a list`);
  return raw.map((s: Raw, i) => {
    if (typeof s.path !== 'string' || !s.path.startsWith('/')) throw new ModelError(`${where}: searchable #${i} needs a path starting with /`);
    const fieldType = String(s.fieldType ?? 'KEYWORD') as SearchFieldType;
    const lastSegment = s.path.split('/').filter((p) => p && p !== '*').pop() ?? 'value';
    return {
      path: s.path,
      fieldName: typeof s.fieldName === 'string' ? s.fieldName : lastSegment,
      fieldType,
      queryByDefault: typeof s.queryByDefault === 'boolean' ? s.queryByDefault : DEFAULT_QUERY_TYPES.has(fieldType),
      enableAutocomplete: s.enableAutocomplete === true,
      boostScore: typeof s.boostScore === 'number' ? s.boostScore : 1,
      addToFilters: s.addToFilters === true,
      ...(typeof s.filterNameOverride === 'string' ? { filterNameOverride: s.filterNameOverride } : {}),
      ...(typeof s.hasValuesFieldName === 'string' ? { hasValuesFieldName: s.hasValuesFieldName } : {}),
      ...(typeof s.numValuesFieldName === 'string' ? { numValuesFieldName: s.numValuesFieldName } : {}),
      fieldNameAliases: Array.isArray(s.fieldNameAliases) ? s.fieldNameAliases.map(String) : [],
    };
  });
}

function parseRelationships(raw: unknown, where: string): RelationshipSpec[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new ModelError(`${where}: relationships must be a list`);
  return raw.map((r: Raw, i) => {
    if (typeof r.path !== 'string' || typeof r.name !== 'string') throw new ModelError(`${where}: relationship #${i} needs path and name`);
    return {
      path: r.path,
      name: r.name,
      entityTypes: Array.isArray(r.entityTypes) ? r.entityTypes.map(String) : [],
      isLineage: r.isLineage === true,
      ...(typeof r.isUpstream === 'boolean' ? { isUpstream: r.isUpstream } : {}),
      ...(typeof r.createdOn === 'string' ? { createdOn: r.createdOn } : {}),
      ...(typeof r.createdActor === 'string' ? { createdActor: r.createdActor } : {}),
    };
  });
}

function parseTimeseriesFields(raw: unknown): TimeseriesFieldSpec[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((r: Raw) => ({ path: String(r.path), fieldType: String(r.fieldType ?? 'COUNT') }));
}

export interface LoadedModel {
  readonly entities: ReadonlyMap<string, EntitySpec>;
  readonly aspects: ReadonlyMap<string, AspectSpec>;
  readonly types: ReadonlyMap<string, RecordType | EnumType | TypeExpr>;
  /** Problems that do not stop loading: names referenced but not defined. */
  readonly warnings: readonly string[];
}

export function defaultModelDir(): string {
  // libs/core/src/model → repo root
  return resolve(__dirname, '../../../../schemas');
}

export function loadModel(dir: string = defaultModelDir(), opts: { strict?: boolean } = {}): LoadedModel {
  const strict = opts.strict ?? true;
  const table = new TypeTable();
  const typesDir = join(dir, 'types');
  const aspectsDir = join(dir, 'aspects');
  const registryFile = join(dir, 'entity-registry.yaml');
  const yamlIn = (folder: string) => (existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.yaml')).sort() : []);
  const typeFiles = yamlIn(typesDir);
  const aspectFiles = yamlIn(aspectsDir);
  const docs = readModelDocs(
    [...typeFiles.map((f) => join(typesDir, f)), ...aspectFiles.map((f) => join(aspectsDir, f)), ...(existsSync(registryFile) ? [registryFile] : [])],
    (message) => new ModelError(message),
    resolve(dir) === defaultModelDir() ? MODEL_CACHE_FILE : undefined,
  );
  const readYamlDocs = (file: string): Raw[] => docs.get(file)!;
  if (existsSync(typesDir)) {
    for (const file of typeFiles) {
      for (const doc of readYamlDocs(join(typesDir, file))) {
        const where = `types/${file}`;
        const name = String(doc.name);
        switch (doc.kind) {
          case 'record':
            table.defineRecord(name, doc.fields, where);
            break;
          case 'enum':
            table.defineEnum(name, doc.symbols, where);
            break;
          case 'typeref':
            table.register(name, table.parse(doc.type, where), where);
            break;
          case 'union':
            table.register(name, table.parse({ union: doc.members }, where), where);
            break;
          default:
            throw new ModelError(`${where}: kind must be record, enum, typeref or union`);
        }
      }
    }
  }

  const aspects = new Map<string, AspectSpec>();
  for (const file of aspectFiles) {
    const where = `aspects/${file}`;
    const [doc] = readYamlDocs(join(aspectsDir, file));
    const name = String(doc.name);
    if (`${name}.yaml` !== file) throw new ModelError(`${where}: file name must be ${name}.yaml`);
    if (aspects.has(name)) throw new ModelError(`${where}: aspect ${name} is defined twice`);
    const kind = String(doc.kind ?? 'versioned') as AspectKind;
    if (!['versioned', 'timeseries', 'key'].includes(kind)) throw new ModelError(`${where}: bad kind ${kind}`);
    const record = String(doc.record);
    const type = table.defineRecord(record, doc.fields, where);
    aspects.set(name, {
      name,
      record,
      kind,
      type,
      searchable: parseSearchable(doc.searchable, where),
      relationships: parseRelationships(doc.relationships, where),
      timeseriesFields: parseTimeseriesFields(doc.timeseriesFields),
    });
  }
  table.resolveAll();

  const warnings: string[] = table.unresolved.map((n) => `type ${n} is referenced but not defined`);
  const entities = new Map<string, EntitySpec>();
  if (!existsSync(registryFile)) warnings.push('entity-registry.yaml is missing');
  const registry = existsSync(registryFile) ? readYamlDocs(registryFile)[0] : {};
  for (const e of (registry.entities as Raw[]) ?? []) {
    const name = String(e.name);
    const keyAspect = aspects.get(String(e.keyAspect));
    if (!keyAspect) {
      warnings.push(`entity ${name}: key aspect ${String(e.keyAspect)} is not defined`);
      continue;
    }
    const map = new Map<string, AspectSpec>([[keyAspect.name, keyAspect]]);
    for (const list of [e.aspects, e.timeseriesAspects]) {
      for (const a of (list as string[]) ?? []) {
        const spec = aspects.get(a);
        if (!spec) warnings.push(`entity ${name}: aspect ${a} is not defined`);
        else map.set(a, spec);
      }
    }
    entities.set(name, { name, keyAspect, aspects: map, ...(typeof e.snapshot === 'string' ? { snapshot: e.snapshot } : {}) });
  }
  if (strict && warnings.length) throw new ModelError(`The model is incomplete:\n  ${warnings.join('\n  ')}`);
  return { entities, aspects, types: table.named, warnings };
}
