import { defaultRegistry } from '@cairn/core';
import type { AspectReader, StoredAspect } from '@cairn/ports';
import { unrestrictedAuth, type RequestAuth } from './actor';
import { defaultPolicies } from './default-policies';
import { defaultPrivilegeCatalog, PrivilegeCatalog } from './privileges';
import { readableStore } from './secret-aspects';

const catalog = defaultPrivilegeCatalog();
const USER = 'urn:li:corpuser:ann';
const row = (aspect: string): StoredAspect => ({ urn: USER, aspect, version: 0, metadata: '{}', createdOn: 1, createdBy: 'urn:li:corpuser:x' });
const rows = [row('corpUserKey'), row('corpUserInfo'), row('corpUserCredentials')];
const store: AspectReader = {
  getLatest: async (_urns, aspects) => rows.filter((r) => !aspects || aspects.includes(r.aspect)),
  getVersion: async (_urn, aspect) => rows.find((r) => r.aspect === aspect),
  scanLatest: async (scan) => rows.filter((r) => !scan.aspect || r.aspect === scan.aspect),
  exists: async () => true,
  countLatest: async () => rows.length,
};
const userAuth = (privileges: string[]): RequestAuth => ({
  actor: { urn: 'urn:li:corpuser:bob', system: false, via: 'token' },
  can: async (p) => (typeof p === 'string' ? [p] : p).some((x) => privileges.includes(x)),
  require: async () => undefined,
  mayReadAspect: async (aspect) => {
    const needs = catalog.secretAspect(aspect);
    return !needs || needs.some((p) => privileges.includes(p));
  },
});

describe('secret aspects', () => {
  it('are data: corpUserCredentials needs the platform privilege MANAGE_USER_CREDENTIALS', () => {
    expect(catalog.secretAspectNames()).toEqual(['corpUserCredentials']);
    expect(catalog.secretAspect('corpUserCredentials')).toEqual(['MANAGE_USER_CREDENTIALS']);
    expect(catalog.secretAspect('corpUserInfo')).toBeUndefined();
  });

  it('are versioned aspects that no index holds (no searchable, relationship or time-series annotations)', () => {
    const registry = defaultRegistry();
    for (const name of catalog.secretAspectNames()) {
      const spec = registry.aspect(name);
      expect({ name, kind: spec?.kind, searchable: spec?.searchable, relationships: spec?.relationships }).toEqual({ name, kind: 'versioned', searchable: [], relationships: [] });
    }
  });

  it('are readable by admins and the root user through the default platform policies, not by editors or every user', () => {
    const granted = (id: string) => defaultPolicies(catalog, 'urn:li:corpuser:datahub').find((p) => p.urn === `urn:li:dataHubPolicy:${id}`)!.info.privileges;
    expect(granted('admin-platform-policy')).toContain('MANAGE_USER_CREDENTIALS');
    expect(granted('root-user-platform-policy')).toContain('MANAGE_USER_CREDENTIALS');
    for (const id of ['editor-platform-policy', 'editor-metadata-policy', 'all-users-view-and-document']) expect(granted(id)).not.toContain('MANAGE_USER_CREDENTIALS');
  });

  it('must name known platform privileges', () => {
    const raw = (secretAspects: unknown) => ({ platformPrivileges: [{ name: 'P' }], resourcePrivileges: [{ name: 'R' }], reads: { secretAspects }, writes: { editEntity: 'R', deleteEntity: ['R'] } });
    expect(() => new PrivilegeCatalog(raw({ a: ['P'] }))).not.toThrow();
    expect(() => new PrivilegeCatalog(raw({ a: ['NOPE'] }))).toThrow(/must name platform privileges, not NOPE/);
    expect(() => new PrivilegeCatalog(raw({ a: ['R'] }))).toThrow(/must name platform privileges/);
  });
});

describe('readableStore', () => {
  it('leaves secret aspects out of every read for an actor without the privilege, as if absent', async () => {
    const view = readableStore(store, userAuth([]));
    expect((await view.getLatest([USER])).map((r) => r.aspect)).toEqual(['corpUserKey', 'corpUserInfo']);
    expect(await view.getLatest([USER], ['corpUserCredentials'])).toEqual([]);
    expect(await view.getVersion(USER, 'corpUserCredentials', 0)).toBeUndefined();
    expect(await view.getVersion(USER, 'corpUserInfo', 0)).toEqual(row('corpUserInfo'));
    expect(await view.scanLatest({ aspect: 'corpUserCredentials', start: 0, limit: 10 })).toEqual([]);
    expect((await view.scanLatest({ start: 0, limit: 10 })).map((r) => r.aspect)).not.toContain('corpUserCredentials');
  });

  it('reads everything for an actor with the privilege, the system client and with authentication off', async () => {
    expect(await readableStore(store, userAuth(['MANAGE_USER_CREDENTIALS'])).getLatest([USER])).toEqual(rows);
    expect(readableStore(store, unrestrictedAuth('urn:li:corpuser:__datahub_system'))).toBe(store);
  });
});
