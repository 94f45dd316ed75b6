/** Requests as the API receives them → engine-neutral queries for a SearchIndex. */
import { badRequest, isUrn } from '@cairn/core';
import {
  ENTITY_TYPE_FIELD,
  type AutocompleteQuery,
  type BrowseQuery,
  type DocumentSelection,
  type FacetSpec,
  type FieldBoost,
  type SearchQuery,
  type SearchTerm,
  type SortSpec,
} from '@cairn/ports';
import { planFilter } from './filters';
import { parseInput, plainText, type InputTerm } from './query-input';
import { WORD_TYPES, type IndexFieldSpec, type SearchSchema } from './search-schema';

export const FACET_SIZE = 20;

export interface SelectionRequest {
  /** Entity type names; none = every entity type. */
  readonly entityTypes: readonly string[];
  readonly filter?: unknown;
}

export interface SearchRequest extends SelectionRequest {
  readonly input: string;
  readonly sort?: unknown;
}

export interface AutocompleteRequest extends SelectionRequest {
  readonly query: string;
  readonly field?: string;
  readonly limit: number;
}

export interface BrowseRequest {
  readonly entityType: string;
  readonly path: string;
  readonly filter?: unknown;
  readonly from: number;
  readonly size: number;
}

const boosts = (fields: readonly IndexFieldSpec[]): FieldBoost[] => fields.map((f) => ({ field: f.name, boost: f.boost }));

export function planSelection(schema: SearchSchema, req: SelectionRequest): DocumentSelection {
  const entityTypes = req.entityTypes.length ? [...new Set(req.entityTypes.map((t) => schema.entityType(t)))] : schema.entityTypes();
  const { filter, includeRemoved } = planFilter(schema, entityTypes, req.filter);
  return { entityTypes, filter, includeRemoved };
}

function fieldTerm(schema: SearchSchema, entityTypes: readonly string[], t: InputTerm & { field: string }): SearchTerm | undefined {
  const whole = `${t.field}:${t.text}`;
  // A URN typed into the box is a search for that URN, not for a field named `urn`.
  if (t.field === 'urn' && isUrn(whole)) return { kind: 'value', text: whole, fields: [{ field: 'urn', boost: 1 }] };
  const names = schema.resolve(entityTypes, t.field);
  if (names.length === 0 || names[0] === ENTITY_TYPE_FIELD) return undefined;
  const specs = schema.fieldsOf(entityTypes).filter((f) => names.includes(f.name));
  const words = specs.every((f) => WORD_TYPES.has(f.type));
  return words ? { kind: 'words', text: t.text, prefix: false, fields: boosts(specs) } : { kind: 'value', text: t.text, fields: boosts(specs) };
}

function sortSpec(schema: SearchSchema, entityTypes: readonly string[], raw: unknown): SortSpec | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw badRequest("'sort' must be {field, order}");
  const { field, order = 'ASCENDING' } = raw as { field?: unknown; order?: unknown };
  if (typeof field !== 'string' || !field) throw badRequest("'sort' needs a 'field'");
  const [name] = schema.resolve(entityTypes, field);
  if (!name) throw badRequest(`Unknown sort field '${field}' for entity type(s) ${entityTypes.join(', ')}`);
  if (order !== 'ASCENDING' && order !== 'DESCENDING') throw badRequest(`Sort order must be ASCENDING or DESCENDING, got '${String(order)}'`);
  return { field: name, order };
}

export function planSearch(schema: SearchSchema, req: SearchRequest): SearchQuery {
  const selection = planSelection(schema, req);
  const fields = schema.fieldsOf(selection.entityTypes);
  const defaults = boosts(fields.filter((f) => f.queryByDefault));
  const free: InputTerm[] = [];
  const terms: SearchTerm[] = [];
  for (const t of parseInput(req.input)) {
    const planned = t.field ? fieldTerm(schema, selection.entityTypes, { ...t, field: t.field }) : undefined;
    if (planned) {
      terms.push(planned);
      continue;
    }
    const text = t.field ? `${t.field}:${t.text}` : t.text;
    free.push({ ...t, text });
    terms.push({ kind: 'words', text, prefix: !t.quoted, fields: defaults });
  }
  const facets: FacetSpec[] = [
    ...fields.filter((f) => f.facet).map((f) => ({ field: f.name, ...(f.displayName ? { displayName: f.displayName } : {}), size: FACET_SIZE })),
    { field: ENTITY_TYPE_FIELD, displayName: 'Type', size: FACET_SIZE },
  ];
  const sort = sortSpec(schema, selection.entityTypes, req.sort);
  return {
    ...selection,
    terms,
    rankFields: fields.filter((f) => f.autocomplete).map((f) => f.name),
    ...(free.length ? { rankText: plainText(free) } : {}),
    ...(sort ? { sort } : {}),
    facets,
  };
}

export function planAutocomplete(schema: SearchSchema, req: AutocompleteRequest): AutocompleteQuery {
  const selection = planSelection(schema, req);
  const fields = schema.fieldsOf(selection.entityTypes);
  let wanted: IndexFieldSpec[];
  if (req.field) {
    const names = schema.resolve(selection.entityTypes, req.field);
    if (names.length === 0) throw badRequest(`Unknown autocomplete field '${req.field}' for entity type(s) ${selection.entityTypes.join(', ')}`);
    wanted = fields.filter((f) => names.includes(f.name));
  } else {
    wanted = fields.filter((f) => f.autocomplete);
  }
  return { ...selection, text: req.query.trim(), fields: boosts(wanted), limit: req.limit };
}

/** `''` for the root, else `/a/b`: a leading slash added, trailing ones dropped; empty segments are a 400. */
export function normalizeBrowsePath(raw: string): string {
  const trimmed = raw.trim().replace(/\/+$/, '');
  if (trimmed === '') return '';
  const path = trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
  if (path.includes('//')) throw badRequest(`Malformed browse path '${raw}': empty path segment`);
  return path;
}

export function planBrowse(schema: SearchSchema, req: BrowseRequest): BrowseQuery {
  const selection = planSelection(schema, { entityTypes: [req.entityType], filter: req.filter });
  return { ...selection, path: normalizeBrowsePath(req.path), from: req.from, size: req.size };
}
