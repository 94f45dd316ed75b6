import { buildASTSchema, isObjectType, parse } from 'graphql';
import { defaultPrivilegeCatalog } from '@cairn/auth';
import { loadTypeDefs } from '../schema';

describe('me.platformPrivileges', () => {
  it('has a privilege behind every field the schema declares', () => {
    const type = buildASTSchema(parse(loadTypeDefs().join('\n'))).getType('PlatformPrivileges');
    if (!isObjectType(type)) throw new Error('PlatformPrivileges is not an object type');
    const mapped = defaultPrivilegeCatalog().platform.flatMap((p) => (p.graphqlField ? [p.graphqlField] : []));
    expect(Object.keys(type.getFields()).sort()).toEqual(mapped.sort());
  });
});
