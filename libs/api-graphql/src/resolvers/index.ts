/** Every resolver map, merged and trimmed to the fields the SDL declares. */
import { isInterfaceType, isObjectType, isUnionType, type GraphQLSchema } from 'graphql';
import { authResolverMaps } from '../auth';
import { descriptionMutations } from '../mutations/descriptions';
import { domainMutations } from '../mutations/domains';
import { entityUpdateMutations } from '../mutations/entity-updates';
import { glossaryMutations } from '../mutations/glossary';
import { identityMutations } from '../mutations/identity';
import { labelMutations } from '../mutations/labels';
import { lineageMutations } from '../mutations/lineage';
import { linkMutations } from '../mutations/links';
import { operationMutations } from '../mutations/operations';
import { ownerMutations } from '../mutations/owners';
import { statusMutations } from '../mutations/status';
import { tagMutations } from '../mutations/tags';
import { testMutations } from '../mutations/tests';
import { chartDashboardResolvers } from './charts-dashboards';
import { containerPlatformResolvers } from './containers-platforms';
import { datasetResolvers } from './datasets';
import { glossaryResolvers } from './glossary';
import { identityResolvers } from './identity';
import { pipelineResolvers } from './pipelines';
import { rootQueryResolvers } from './root-queries';
import { platformSchemaResolvers } from './schema-fields';
import { searchResolvers } from './search';
import { tagDomainTestResolvers } from './tags-domains-tests';

type ResolverMap = Record<string, Record<string, unknown>>;

const READS: ResolverMap[] = [
  rootQueryResolvers,
  datasetResolvers,
  chartDashboardResolvers,
  identityResolvers,
  tagDomainTestResolvers,
  glossaryResolvers,
  containerPlatformResolvers,
  pipelineResolvers,
  searchResolvers,
  platformSchemaResolvers,
];

const MUTATIONS = [
  entityUpdateMutations,
  descriptionMutations,
  labelMutations,
  ownerMutations,
  linkMutations,
  statusMutations,
  domainMutations,
  tagMutations,
  glossaryMutations,
  identityMutations,
  testMutations,
  operationMutations,
  lineageMutations,
];

function merge(maps: ResolverMap[]): ResolverMap {
  const out: ResolverMap = {};
  for (const m of maps) for (const [type, fields] of Object.entries(m)) out[type] = { ...out[type], ...fields };
  return out;
}

/**
 * Entity types share field resolvers (commonFields) though each declares only some of those
 * fields; resolvers for undeclared fields are dropped so the schema stays the single truth.
 */
function trimmedTo(schema: GraphQLSchema, resolvers: ResolverMap): ResolverMap {
  const out: ResolverMap = {};
  for (const [typeName, fields] of Object.entries(resolvers)) {
    const type = schema.getType(typeName);
    if (!type) throw new Error(`Resolvers for type ${typeName}, which the schema does not declare`);
    if (isUnionType(type) || isInterfaceType(type)) {
      out[typeName] = fields;
      continue;
    }
    if (!isObjectType(type)) continue;
    const declared = type.getFields();
    out[typeName] = Object.fromEntries(Object.entries(fields).filter(([name]) => name in declared));
  }
  return out;
}

/** The resolvers of every field `schema` declares. */
export function buildResolvers(schema: GraphQLSchema): ResolverMap {
  return trimmedTo(schema, merge([...READS, { Mutation: Object.assign({}, ...MUTATIONS) }, ...authResolverMaps]));
}
