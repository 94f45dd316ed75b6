/** The entity types the GraphQL API serves: GraphQL enum value, model entity name, GraphQL object type. */

export interface GraphqlEntityType {
  readonly enumValue: string;
  readonly entityName: string;
  readonly objectType: string;
}

export const GRAPHQL_ENTITY_TYPES: readonly GraphqlEntityType[] = [
  { enumValue: 'DATASET', entityName: 'dataset', objectType: 'Dataset' },
  { enumValue: 'CHART', entityName: 'chart', objectType: 'Chart' },
  { enumValue: 'DASHBOARD', entityName: 'dashboard', objectType: 'Dashboard' },
  { enumValue: 'CORP_USER', entityName: 'corpuser', objectType: 'CorpUser' },
  { enumValue: 'CORP_GROUP', entityName: 'corpGroup', objectType: 'CorpGroup' },
  { enumValue: 'TAG', entityName: 'tag', objectType: 'Tag' },
  { enumValue: 'GLOSSARY_TERM', entityName: 'glossaryTerm', objectType: 'GlossaryTerm' },
  { enumValue: 'GLOSSARY_NODE', entityName: 'glossaryNode', objectType: 'GlossaryNode' },
  { enumValue: 'CONTAINER', entityName: 'container', objectType: 'Container' },
  { enumValue: 'DATA_PLATFORM', entityName: 'dataPlatform', objectType: 'DataPlatform' },
  { enumValue: 'DATA_FLOW', entityName: 'dataFlow', objectType: 'DataFlow' },
  { enumValue: 'DATA_JOB', entityName: 'dataJob', objectType: 'DataJob' },
  { enumValue: 'DOMAIN', entityName: 'domain', objectType: 'Domain' },
  { enumValue: 'TEST', entityName: 'test', objectType: 'Test' },
];

const byName = new Map(GRAPHQL_ENTITY_TYPES.map((t) => [t.entityName, t]));
const byEnum = new Map(GRAPHQL_ENTITY_TYPES.map((t) => [t.enumValue, t]));

export function typeOfEntity(entityName: string): GraphqlEntityType | undefined {
  return byName.get(entityName);
}

export function typeOfEnum(enumValue: string): GraphqlEntityType | undefined {
  return byEnum.get(enumValue);
}

/** Entity names of the given enum values, or of every served type when none are given. */
export function entityNamesOf(enumValues: readonly string[] | null | undefined): string[] {
  if (!enumValues || enumValues.length === 0) return GRAPHQL_ENTITY_TYPES.map((t) => t.entityName);
  return enumValues.map((v) => typeOfEnum(v)?.entityName).filter((n): n is string => n !== undefined);
}
