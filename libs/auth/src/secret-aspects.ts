/**
 * Secret aspects (privileges.yaml `reads.secretAspects`: corpUserCredentials) withheld from reads.
 * `readableStore` is the store as one request's actor may read it: a secret aspect the actor lacks
 * the privilege for is absent from every answer, as if the entity did not have it (what the
 * reference answers too: it leaves the aspect out rather than refusing the read). Every read path
 * that returns stored values (REST entity, snapshot and aspect reads, GraphQL, metadata test
 * evaluation) reads through it; writes and the pipeline use the store itself.
 */
import type { AspectReader, StoredAspect } from '@cairn/ports';
import type { RequestAuth } from './actor';

export function readableStore(store: AspectReader, auth: RequestAuth): AspectReader {
  if (auth.actor.system) return store;
  const readable = async (rows: StoredAspect[]): Promise<StoredAspect[]> => {
    const names = [...new Set(rows.map((r) => r.aspect))];
    const allowed = await Promise.all(names.map((n) => auth.mayReadAspect(n)));
    const refused = new Set(names.filter((_, i) => !allowed[i]));
    return refused.size === 0 ? rows : rows.filter((r) => !refused.has(r.aspect));
  };
  return {
    getLatest: async (urns, aspects) => readable(await store.getLatest(urns, aspects)),
    getVersion: async (urn, aspect, version) => ((await auth.mayReadAspect(aspect)) ? store.getVersion(urn, aspect, version) : undefined),
    // A scan of a secret aspect the actor may not read is empty; a mixed scan loses those rows (pages may come out short).
    scanLatest: async (scan) => (scan.aspect !== undefined && !(await auth.mayReadAspect(scan.aspect)) ? [] : readable(await store.scanLatest(scan))),
    // Existence and counts reveal no values.
    exists: (urn) => store.exists(urn),
    countLatest: (scan) => store.countLatest(scan),
  };
}
