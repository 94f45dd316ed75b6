import { policyGrants, type PolicyInfo, type ResourceFacts } from './policies';

const base: PolicyInfo = { displayName: 'p', description: '', type: 'METADATA', state: 'ACTIVE', privileges: ['EDIT_ENTITY_TAGS'], actors: { users: ['urn:li:corpuser:ann'] } };
const ann = { urn: 'urn:li:corpuser:ann', groups: ['urn:li:corpGroup:eng'], roles: [] };
const bob = { urn: 'urn:li:corpuser:bob', groups: [], roles: ['urn:li:dataHubRole:Editor'] };
const dataset = (owners: string[] = [], domains: string[] = []): ResourceFacts => ({
  type: 'dataset',
  urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)',
  owners: async () => owners.map((owner) => ({ owner, type: 'DATAOWNER' })),
  domains: async () => domains,
});

describe('policyGrants', () => {
  it('grants listed privileges to listed users, groups and roles of active policies only', async () => {
    expect(await policyGrants(base, 'EDIT_ENTITY_TAGS', ann, dataset())).toBe(true);
    expect(await policyGrants(base, 'EDIT_ENTITY_OWNERS', ann, dataset())).toBe(false);
    expect(await policyGrants(base, 'EDIT_ENTITY_TAGS', bob, dataset())).toBe(false);
    expect(await policyGrants({ ...base, state: 'INACTIVE' }, 'EDIT_ENTITY_TAGS', ann, dataset())).toBe(false);
    expect(await policyGrants({ ...base, actors: { groups: ['urn:li:corpGroup:eng'] } }, 'EDIT_ENTITY_TAGS', ann, dataset())).toBe(true);
    expect(await policyGrants({ ...base, actors: { roles: ['urn:li:dataHubRole:Editor'] } }, 'EDIT_ENTITY_TAGS', bob, dataset())).toBe(true);
    expect(await policyGrants({ ...base, actors: { allUsers: true } }, 'EDIT_ENTITY_TAGS', bob, dataset())).toBe(true);
  });

  it('limits metadata policies to the resources they select', async () => {
    const byType = { ...base, resources: { filter: { criteria: [{ field: 'TYPE', values: ['chart'] }] } } };
    expect(await policyGrants(byType, 'EDIT_ENTITY_TAGS', ann, dataset())).toBe(false);
    const byUrn = { ...base, resources: { resources: [dataset().urn] } };
    expect(await policyGrants(byUrn, 'EDIT_ENTITY_TAGS', ann, dataset())).toBe(true);
    const byDomain = { ...base, resources: { filter: { criteria: [{ field: 'DOMAIN', values: ['urn:li:domain:x'] }] } } };
    expect(await policyGrants(byDomain, 'EDIT_ENTITY_TAGS', ann, dataset([], ['urn:li:domain:x']))).toBe(true);
    expect(await policyGrants(byDomain, 'EDIT_ENTITY_TAGS', ann, dataset())).toBe(false);
    expect(await policyGrants({ ...byType, type: 'PLATFORM' }, 'EDIT_ENTITY_TAGS', ann, dataset())).toBe(true);
  });

  it('grants to resource owners, directly or through a group, of the given ownership types', async () => {
    const owners = { ...base, actors: { resourceOwners: true } };
    expect(await policyGrants(owners, 'EDIT_ENTITY_TAGS', bob, dataset(['urn:li:corpuser:bob']))).toBe(true);
    expect(await policyGrants(owners, 'EDIT_ENTITY_TAGS', ann, dataset(['urn:li:corpGroup:eng']))).toBe(true);
    expect(await policyGrants(owners, 'EDIT_ENTITY_TAGS', bob, dataset(['urn:li:corpuser:ann']))).toBe(false);
    const typed = { ...base, actors: { resourceOwners: true, resourceOwnersTypes: ['urn:li:ownershipType:__system__technical_owner'] } };
    expect(await policyGrants(typed, 'EDIT_ENTITY_TAGS', bob, dataset(['urn:li:corpuser:bob']))).toBe(false);
  });
});
