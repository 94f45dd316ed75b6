import { defaultPrivilegeCatalog } from '@cairn/auth';
import { REST_ROUTES } from '../route-docs';
import { ROUTE_ACCESS, routeAccessOf } from './route-access';

describe('ROUTE_ACCESS', () => {
  it('has a rule for every documented REST route', () => {
    const missing = REST_ROUTES.filter((r) => !routeAccessOf(r.method, r.path.replace(/\{[^}]+\}/g, 'urn%3Ali%3Acorpuser%3Ax'), r.action));
    expect(missing.map((r) => `${r.method} ${r.path}${r.action ? `?action=${r.action}` : ''}`)).toEqual([]);
  });

  it('matches paths with their parameters and tolerates a trailing slash', () => {
    expect(routeAccessOf('GET', '/entitiesV2/urn%3Ali%3Acorpuser%3Ax/', undefined)).toMatchObject({ rule: { path: '/entitiesV2/{urn}' }, pathParam: 'urn%3Ali%3Acorpuser%3Ax' });
    expect(routeAccessOf('POST', '/entities', 'search')?.rule.access).toEqual({ kind: 'someEntity', privileges: ['VIEW_ENTITY_PAGE'] });
    expect(routeAccessOf('POST', '/entities', 'noSuchAction')).toBeUndefined();
  });

  it('names only known privileges', () => {
    const catalog = defaultPrivilegeCatalog();
    const named = ROUTE_ACCESS.flatMap((r) => ('privileges' in r.access ? r.access.privileges : []));
    expect(named.filter((p) => !catalog.isKnown(p))).toEqual([]);
  });
});
