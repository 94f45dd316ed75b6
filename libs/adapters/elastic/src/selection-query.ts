/**
 * A DocumentSelection as an Elasticsearch query: the entity types are the indices searched;
 * soft-deleted documents and the filter become non-scoring clauses.
 */
import type { SearchFieldType } from '@cairn/core';
import { ENTITY_TYPE_FIELD, type DocumentSelection, type FilterCriterion, type IndexFieldMapping } from '@cairn/ports';
import type { EntityIndices } from './entity-indices';
import { valueKindOf } from './entity-mappings';
import { criterionQuery, invert, isInverted, MATCH_NONE, planQuery, type Query, type ValueKind } from './filter-query';

const REMOVED_FIELD = 'removed';

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The selection's entity types whose names pass the criterion, tested here on the names themselves. */
function entityTypesWhere(c: FilterCriterion, entityTypes: readonly string[]): string[] {
  const [v = ''] = c.values;
  const holds = (t: string): boolean => {
    switch (c.condition) {
      case 'EQUAL':
      case 'IN':
        return c.values.includes(t);
      case 'CONTAIN':
        return t.includes(v);
      case 'START_WITH':
        return t.startsWith(v);
      case 'END_WITH':
        return t.endsWith(v);
      case 'GREATER_THAN':
        return compareText(t, v) > 0;
      case 'GREATER_THAN_OR_EQUAL_TO':
        return compareText(t, v) >= 0;
      case 'LESS_THAN':
        return compareText(t, v) < 0;
      case 'LESS_THAN_OR_EQUAL_TO':
        return compareText(t, v) <= 0;
      case 'EXISTS':
      case 'IS_NULL':
        return true;
    }
  };
  return entityTypes.filter(holds);
}

export class SelectionQueries {
  constructor(private readonly indices: EntityIndices) {}

  indicesOf(entityTypes: readonly string[]): string[] {
    return entityTypes.map((t) => this.indices.name(t));
  }

  /** The types a field has among the entity types (none where no entity type has it). */
  typesOf(entityTypes: readonly string[], field: string): Set<SearchFieldType> {
    const types = new Set<SearchFieldType>();
    for (const t of entityTypes) {
      const type = this.indices.fields(t).get(field);
      if (type) types.add(type);
    }
    return types;
  }

  /** The mappings a field has among the entity types (none where no entity type has it). */
  mappingsOf(entityTypes: readonly string[], field: string): IndexFieldMapping[] {
    return entityTypes.flatMap((t) => this.indices.fieldMappings(t).get(field) ?? []);
  }

  private kindOf(entityTypes: readonly string[], field: string): ValueKind | undefined {
    const kinds = new Set([...this.typesOf(entityTypes, field)].map(valueKindOf));
    if (kinds.size === 0) return undefined;
    // A field typed differently across entity types is compared as text.
    return kinds.size === 1 ? [...kinds][0] : 'string';
  }

  private criterion(c: FilterCriterion, entityTypes: readonly string[]): Query {
    if (!c.fields.includes(ENTITY_TYPE_FIELD)) {
      return criterionQuery(c, (field) => {
        const kind = this.kindOf(entityTypes, field);
        return kind && { path: field, kind };
      });
    }
    const matching = entityTypesWhere(c, entityTypes);
    return invert(matching.length ? { terms: { _index: this.indicesOf(matching) } } : MATCH_NONE, isInverted(c));
  }

  /** Non-scoring clauses selecting the documents (to go in a bool query's `filter`). */
  clauses(sel: DocumentSelection): Query[] {
    const removed = sel.includeRemoved ? [] : [{ bool: { must_not: [{ term: { [REMOVED_FIELD]: true } }] } }];
    return [...removed, ...planQuery(sel.filter, (c) => this.criterion(c, sel.entityTypes))];
  }
}
