/**
 * Indices are created idempotently at start. The name the rest of the adapter uses
 * (`datasetindex_v2`, ...) is an alias of a physical index named after a hash of its
 * definition (`datasetindex_v2_<hash>`). When the model changes a mapping or analyzer, start
 * creates the new physical index, copies the documents into it with a reindex task, then in
 * one atomic alias update points the name at it and drops the old one. Writes a process of
 * the previous version makes to the old index during that copy are lost, so migrate by
 * starting one process of the new version before the others (as the reference's
 * system-update job does). A concrete index that already holds the name (created without
 * this scheme) is migrated the same way.
 */
import { createHash } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import { waitForTask } from './es-tasks';

export interface IndexDefinition {
  /** The alias everything reads and writes through. */
  readonly name: string;
  readonly settings: Record<string, unknown>;
  readonly mappings: Record<string, unknown>;
}

/** Hex digits of a definition's hash in its physical index's name. */
const HASH_DIGITS = 10;
const HASH_SUFFIX = new RegExp(`_[0-9a-f]{${HASH_DIGITS}}$`);

/** Replicas and refresh interval change in place; everything else needs a new index. */
function definitionHash(def: IndexDefinition): string {
  const { number_of_replicas: _replicas, refresh_interval: _refresh, ...settings } = def.settings;
  return createHash('sha256').update(JSON.stringify({ settings, mappings: def.mappings })).digest('hex').slice(0, HASH_DIGITS);
}

function physicalIndexName(def: IndexDefinition): string {
  return `${def.name}_${definitionHash(def)}`;
}

/** The alias a physical index is named after (`datasetindex_v2_<hash>` → `datasetindex_v2`); any other name as it is. */
export function aliasOfPhysicalIndex(index: string): string {
  return index.replace(HASH_SUFFIX, '');
}

/** Replicas and refresh interval of an existing index follow the configuration. */
async function applyDynamicSettings(client: Client, def: IndexDefinition): Promise<void> {
  const { number_of_replicas, refresh_interval } = def.settings;
  await client.indices.putSettings({ index: def.name, body: { index: { number_of_replicas, refresh_interval } } });
}

/** The concrete indices behind a name (the alias' targets, or the index itself). */
async function concreteIndices(client: Client, name: string): Promise<string[]> {
  const { body, statusCode } = await client.indices.get({ index: name }, { ignore: [404] });
  return statusCode === 404 ? [] : Object.keys(body);
}

/** Creates the index (with the alias in the same call, so no write can auto-create the name first); false if it existed. */
async function createIndex(client: Client, index: string, def: IndexDefinition, withAlias: boolean): Promise<boolean> {
  const body = { settings: def.settings, mappings: def.mappings, ...(withAlias ? { aliases: { [def.name]: {} } } : {}) };
  const { body: res, statusCode } = await client.indices.create({ index, body }, { ignore: [400] });
  if (statusCode !== 400) return true;
  if (res?.error?.type !== 'resource_already_exists_exception') throw new Error(`Creating index ${index} failed: ${JSON.stringify(res.error)}`);
  return false;
}

export async function ensureIndex(client: Client, def: IndexDefinition): Promise<void> {
  const target = physicalIndexName(def);
  const current = await concreteIndices(client, def.name);
  if (current.length === 1 && current[0] === target) return applyDynamicSettings(client, def);
  if (current.length === 0) {
    // Existing without the alias: another process is creating it, or a migration lost its old index.
    if (!(await createIndex(client, target, def, true))) await client.indices.putAlias({ index: target, name: def.name });
    return;
  }

  const stale = current.filter((index) => index !== target);
  await createIndex(client, target, def, false);
  const { body } = await client.reindex({
    wait_for_completion: false,
    refresh: true,
    // op_type create: documents already written to the new index (by a new-version process) win.
    body: { conflicts: 'proceed', source: { index: stale }, dest: { index: target, op_type: 'create' } },
  });
  await waitForTask(client, String(body.task));
  const actions = [{ add: { index: target, alias: def.name } }, ...stale.map((index) => ({ remove_index: { index } }))];
  const { statusCode } = await client.indices.updateAliases({ body: { actions } }, { ignore: [404] });
  // 404: a process migrating concurrently already swapped and removed the old index.
  if (statusCode === 404 && (await concreteIndices(client, def.name)).join() !== target) {
    throw new Error(`Index ${def.name} was changed concurrently while migrating to ${target}`);
  }
}
