/** The index fields of each entity type, from the `searchable` annotations: types, boosts, facets, aliases. */
import { badRequest, type EntitySpec, type Registry, type SearchFieldType } from '@cairn/core';
import { ENTITY_TYPE_FIELD, type SearchMappings } from '@cairn/ports';

export interface IndexFieldSpec {
  readonly name: string;
  readonly type: SearchFieldType;
  readonly boost: number;
  readonly queryByDefault: boolean;
  readonly autocomplete: boolean;
  readonly facet: boolean;
  readonly displayName?: string;
  /** Other names a query may use for this field. */
  readonly aliases: readonly string[];
  /** Its values come from a list of records (a path with a `*` step, as a schema's field paths): many a document. */
  readonly listed: boolean;
}

/** Every document carries its URN, searched by default like the reference's `urn` field. */
const URN_FIELD: IndexFieldSpec = { name: 'urn', type: 'URN', boost: 1, queryByDefault: true, autocomplete: false, facet: false, aliases: [], listed: false };

/** Field types matched word by word; the others match whole values (URNs also by component). */
export const WORD_TYPES: ReadonlySet<SearchFieldType> = new Set(['TEXT', 'TEXT_PARTIAL', 'WORD_GRAM']);

/** Filters may name a field's exact-value subfield, as clients of the reference do (`platform.keyword`). */
const KEYWORD_SUFFIX = '.keyword';

function merge(a: IndexFieldSpec | undefined, b: IndexFieldSpec): IndexFieldSpec {
  if (!a) return b;
  return {
    name: a.name,
    type: a.type,
    boost: Math.max(a.boost, b.boost),
    queryByDefault: a.queryByDefault || b.queryByDefault,
    autocomplete: a.autocomplete || b.autocomplete,
    facet: a.facet || b.facet,
    ...((a.displayName ?? b.displayName) ? { displayName: a.displayName ?? b.displayName } : {}),
    aliases: [...new Set([...a.aliases, ...b.aliases])],
    listed: a.listed || b.listed,
  };
}

function fieldsOf(entity: EntitySpec): Map<string, IndexFieldSpec> {
  const fields = new Map<string, IndexFieldSpec>([[URN_FIELD.name, URN_FIELD]]);
  const put = (f: IndexFieldSpec) => fields.set(f.name, merge(fields.get(f.name), f));
  const flag = (name: string, type: SearchFieldType): IndexFieldSpec => ({ name, type, boost: 1, queryByDefault: false, autocomplete: false, facet: false, aliases: [], listed: false });
  for (const aspect of entity.aspects.values()) {
    // Time-series values live in their own indexes, not on the entity's document.
    if (aspect.kind === 'timeseries') continue;
    for (const s of aspect.searchable) {
      put({
        name: s.fieldName,
        type: s.fieldType,
        boost: s.boostScore,
        queryByDefault: s.queryByDefault,
        autocomplete: s.enableAutocomplete,
        facet: s.addToFilters,
        ...(s.filterNameOverride ? { displayName: s.filterNameOverride } : {}),
        aliases: s.fieldNameAliases,
        listed: s.path.includes('/*/'),
      });
      if (s.hasValuesFieldName) put(flag(s.hasValuesFieldName, 'BOOLEAN'));
      if (s.numValuesFieldName) put(flag(s.numValuesFieldName, 'COUNT'));
    }
  }
  return fields;
}

/** Merged field lists kept (the entity type lists requests name are few: one type, or all of them). */
const MERGED_FIELDS_KEPT = 256;

export class SearchSchema {
  private readonly byEntity = new Map<string, Map<string, IndexFieldSpec>>();
  private readonly fieldMappings: SearchMappings;
  private readonly merged = new Map<string, readonly IndexFieldSpec[]>();

  constructor(private readonly registry: Registry) {
    for (const e of registry.entities()) this.byEntity.set(e.name, fieldsOf(e));
    const all = [...this.byEntity.values()].flatMap((fields) => [...fields.values()]);
    const lookedUp = wholeValueLookups(all);
    const prefixed = prefixLookups(all);
    this.fieldMappings = new Map(
      [...this.byEntity].map(([entity, fields]) => [
        entity,
        new Map([...fields.values()].map((f) => [f.name, { type: f.type, autocomplete: f.autocomplete, lookupTerms: lookedUp(f), prefixLookups: prefixed(f), manyValues: filteredOnly(f, lookedUp) }])),
      ]),
    );
  }

  /** Every entity type of the model. */
  entityTypes(): string[] {
    return [...this.byEntity.keys()];
  }

  /** The entity type's canonical name (`DATASET` and `dataset` are `dataset`); 400 when unknown. */
  entityType(name: string): string {
    const entity = this.registry.entity(name);
    if (!entity) throw badRequest(`Unknown entity type '${name}'`);
    return entity.name;
  }

  /** The entity type's canonical name, or the name itself when no entity type has it. */
  canonicalEntityType(name: string): string {
    return this.registry.entity(name)?.name ?? name;
  }

  fields(entityType: string): ReadonlyMap<string, IndexFieldSpec> {
    return this.byEntity.get(entityType) ?? new Map();
  }

  /** The distinct field specs of several entity types, merged by name (every query plans with them). */
  fieldsOf(entityTypes: readonly string[]): readonly IndexFieldSpec[] {
    const key = entityTypes.join('\u0000');
    const known = this.merged.get(key);
    if (known) return known;
    const byName = new Map<string, IndexFieldSpec>();
    for (const t of entityTypes) for (const f of this.fields(t).values()) byName.set(f.name, merge(byName.get(f.name), f));
    const fields = [...byName.values()];
    if (this.merged.size >= MERGED_FIELDS_KEPT) this.merged.delete(this.merged.keys().next().value as string);
    this.merged.set(key, fields);
    return fields;
  }

  /**
   * The index fields a name stands for in the given entity types: the field itself and every field
   * that lists it as an alias. Empty when none of the types knows the name.
   */
  resolve(entityTypes: readonly string[], name: string): string[] {
    const bare = name.endsWith(KEYWORD_SUFFIX) ? name.slice(0, -KEYWORD_SUFFIX.length) : name;
    if (bare === ENTITY_TYPE_FIELD) return [ENTITY_TYPE_FIELD];
    const out = new Set<string>();
    for (const f of this.fieldsOf(entityTypes)) if (f.name === bare || f.aliases.includes(bare)) out.add(f.name);
    return [...out];
  }

  mappings(): SearchMappings {
    return this.fieldMappings;
  }
}

/**
 * Which fields whole-value lookups can read: a `field:value` term is one when a field the name
 * stands for is not matched word by word, and autocomplete and ranking look up the prefixes of
 * autocomplete fields. Queries merge fields by name across entity types, so a field is read when
 * its name is such a field's in any entity type. Other word fields (descriptions) are only matched
 * by words.
 */
function wholeValueLookups(fields: readonly IndexFieldSpec[]): (field: IndexFieldSpec) => boolean {
  const lookedUp = new Set(fields.filter((f) => !WORD_TYPES.has(f.type) || f.autocomplete).flatMap((f) => [f.name, ...f.aliases]));
  return (f) => [f.name, ...f.aliases].some((n) => lookedUp.has(n));
}

/**
 * Which fields lookups by a prefix of the whole value read: autocomplete fields, and ranking's,
 * whose names are those of autocomplete fields in any entity type (queries merge fields by name).
 */
function prefixLookups(fields: readonly IndexFieldSpec[]): (field: IndexFieldSpec) => boolean {
  const prefixed = new Set(fields.filter((f) => f.autocomplete).map((f) => f.name));
  return (f) => prefixed.has(f.name);
}

/**
 * Whether only filters and sorts read a field's whole values, a document having many of them: a word
 * field of a list of records (a dataset's column paths and descriptions) that no whole-value lookup,
 * facet or autocomplete reads.
 */
function filteredOnly(f: IndexFieldSpec, lookedUp: (field: IndexFieldSpec) => boolean): boolean {
  return f.listed && WORD_TYPES.has(f.type) && !f.facet && !f.autocomplete && !lookedUp(f);
}

const schemas = new WeakMap<Registry, SearchSchema>();

/** The schema of a registry, built once. */
export function searchSchemaOf(registry: Registry): SearchSchema {
  let schema = schemas.get(registry);
  if (!schema) schemas.set(registry, (schema = new SearchSchema(registry)));
  return schema;
}
