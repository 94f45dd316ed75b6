/** The resolved model: entity specs, aspect specs and the type expressions of their values. */

export type PrimitiveName = 'string' | 'int' | 'long' | 'float' | 'double' | 'boolean' | 'bytes';

export interface FieldDef {
  readonly name: string;
  readonly type: TypeExpr;
  readonly optional: boolean;
  readonly default?: unknown;
}

export interface RecordType {
  readonly kind: 'record';
  readonly name: string;
  fields: FieldDef[];
}

export interface EnumType {
  readonly kind: 'enum';
  readonly name: string;
  readonly symbols: readonly string[];
}

export interface UnionMember {
  /** The key of the member in Rest.li JSON: alias, fq name, or primitive name. */
  readonly key: string;
  readonly type: TypeExpr;
}

export type TypeExpr =
  | { readonly kind: 'primitive'; readonly name: PrimitiveName }
  | { readonly kind: 'urn' }
  | { readonly kind: 'array'; readonly items: TypeExpr }
  | { readonly kind: 'map'; readonly values: TypeExpr }
  | { readonly kind: 'union'; readonly members: readonly UnionMember[]; readonly aliased: boolean }
  | { readonly kind: 'ref'; readonly name: string; resolved?: RecordType | EnumType | TypeExpr }
  | RecordType
  | EnumType;

export type SearchFieldType =
  | 'KEYWORD'
  | 'TEXT'
  | 'TEXT_PARTIAL'
  | 'BROWSE_PATH'
  | 'BROWSE_PATH_V2'
  | 'URN'
  | 'URN_PARTIAL'
  | 'BOOLEAN'
  | 'COUNT'
  | 'DATETIME'
  | 'OBJECT'
  | 'WORD_GRAM'
  | 'DOUBLE';

export interface SearchableSpec {
  readonly path: string;
  readonly fieldName: string;
  readonly fieldType: SearchFieldType;
  readonly queryByDefault: boolean;
  readonly enableAutocomplete: boolean;
  readonly boostScore: number;
  readonly addToFilters: boolean;
  readonly filterNameOverride?: string;
  readonly hasValuesFieldName?: string;
  readonly numValuesFieldName?: string;
  readonly fieldNameAliases: readonly string[];
}

export interface RelationshipSpec {
  readonly path: string;
  readonly name: string;
  readonly entityTypes: readonly string[];
  readonly isLineage: boolean;
  readonly isUpstream?: boolean;
  readonly createdOn?: string;
  readonly createdActor?: string;
}

export interface TimeseriesFieldSpec {
  readonly path: string;
  readonly fieldType: string;
}

export type AspectKind = 'versioned' | 'timeseries' | 'key';

export interface AspectSpec {
  readonly name: string;
  /** Fully qualified Rest.li record name, e.g. com.linkedin.dataset.DatasetProperties. */
  readonly record: string;
  readonly kind: AspectKind;
  readonly type: RecordType;
  readonly searchable: readonly SearchableSpec[];
  readonly relationships: readonly RelationshipSpec[];
  readonly timeseriesFields: readonly TimeseriesFieldSpec[];
}

export interface EntitySpec {
  readonly name: string;
  readonly keyAspect: AspectSpec;
  readonly snapshot?: string;
  /** Every aspect of the entity, key aspect included. */
  readonly aspects: ReadonlyMap<string, AspectSpec>;
}
