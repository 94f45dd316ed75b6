/**
 * The persister: applies proposals from the log to the aspect store with the reference's version
 * semantics and emits a change log per effective change. A proposal that cannot be applied goes to
 * the failed-proposal topic and the partition moves on.
 *
 * A batch is applied as one store unit (one commit where the engine has transactions), each
 * aspect's proposals in log order (an entity's, when one is no plain upsert or writes the key);
 * its change logs and failures are then appended together, in log order, and only once they are
 * durable are its proposals settled: a waiting request is answered once its change log is durable.
 * The log may deliver the next batch meanwhile (the handler answers a BatchTaken). A crash in
 * between loses nothing: the batch is redelivered, its writes are recognised as replayed and their
 * change logs are emitted again. On the embedded log the batch may come inside the transaction
 * that appended it (an inline delivery): the unit, the change logs and the position then commit
 * with the proposals themselves.
 */
import { applyPatch, PatchError, RestliError, unprocessable, type Registry } from '@cairn/core';
import type { AuditStamp, FailedMetadataChangeProposal, MetadataChangeLog, MetadataChangeProposal } from '@cairn/events';
import { proposalMark, type AspectStore, type BatchDelivery, type BatchTaken, type LogRecord, type NewRecord, type StoredAspect, type UnitStore, type WriteOutcome } from '@cairn/ports';
import { ACTOR_HEADER, mayBeAwaited, SYSTEM_ACTOR, type PipelineLogs } from './logs';
import { rememberParsedAspect } from './parsed-aspects';
import { checkAspectValue, checkProposalOnce, isClientError, JSON_CONTENT, type CheckedProposal } from './proposal-check';
import type { ApplyResult, ProposalSettler, Settled } from './write-notifier';

const MAX_ATTEMPTS = 3;
const KNOWN_ENTITIES = 100_000;
/** Chains applied at once: a store a round trip away gets each round's first writes in one request. */
const CONCURRENT_CHAINS = 128;

/**
 * The batch's positions in chains that each apply in log order: an entity's upserts of one aspect,
 * since different aspects are different rows; or all of an entity's proposals when one of them is
 * no plain upsert (a delete of the key aspect removes every aspect; a patch reads before its
 * write, and the entity's key and its change log must come with its first proposal) or writes the
 * key aspect itself.
 */
function writeChains(registry: Registry, batch: readonly LogRecord<MetadataChangeProposal>[]): number[][] {
  const byEntity = groupPositions(batch.map((_, i) => i), (i) => batch[i]!.value?.entityUrn ?? batch[i]!.key);
  const chains: number[][] = [];
  for (const positions of byEntity.values()) {
    const whole = positions.some((i) => {
      const mcp = batch[i]!.value;
      return !mcp || mcp.changeType !== 'UPSERT' || mcp.aspectName === registry.entity(mcp.entityType)?.keyAspect.name;
    });
    if (whole) {
      chains.push(positions);
      continue;
    }
    chains.push(...groupPositions(positions, (i) => batch[i]!.value?.aspectName).values());
  }
  return chains;
}

/** `positions` grouped by `keyOf`, each group in the order given. */
function groupPositions<K>(positions: readonly number[], keyOf: (i: number) => K): Map<K, number[]> {
  const groups = new Map<K, number[]>();
  for (const i of positions) {
    const key = keyOf(i);
    const group = groups.get(key);
    if (group) group.push(i);
    else groups.set(key, [i]);
  }
  return groups;
}

/** Runs `work` on every item, at most `limit` at a time. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** What applying one proposal produced, before anything is appended. */
interface Applied {
  readonly result: ApplyResult;
  readonly versioned: MetadataChangeLog[];
  readonly timeseries: MetadataChangeLog[];
}

/** The change logs, failures and outcomes of applied proposals, appended and settled together (outcomes only where a request may wait). */
class Outbox {
  readonly versioned: NewRecord<MetadataChangeLog>[] = [];
  readonly timeseries: NewRecord<MetadataChangeLog>[] = [];
  readonly failed: NewRecord<FailedMetadataChangeProposal>[] = [];
  readonly settled: [string, Settled][] = [];

  applied(record: LogRecord<MetadataChangeProposal>, applied: Applied): void {
    for (const value of applied.versioned) this.versioned.push({ key: record.key, value });
    for (const value of applied.timeseries) this.timeseries.push({ key: record.key, value });
    if (mayBeAwaited(record)) this.settled.push([record.id, { ok: true, result: applied.result }]);
  }

  rejected(record: LogRecord<MetadataChangeProposal>, err: unknown): void {
    const error = err instanceof RestliError ? err : new RestliError(500, `Failed to apply proposal: ${(err as Error).message}`);
    this.failed.push({ key: record.key, value: { metadataChangeProposal: record.value, error: error.message } });
    if (mayBeAwaited(record)) this.settled.push([record.id, { ok: false, error }]);
  }
}

export class Persister {
  /** URNs whose key aspect is known to be stored (the persister is the only writer of its keys). */
  private readonly knownEntities = new Set<string>();
  /** Keys being stored, by URN: an entity's chains of other aspects wait for the one write instead of each writing it. */
  private readonly keysInFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly registry: Registry,
    private readonly store: AspectStore,
    private readonly logs: PipelineLogs,
    private readonly settler?: ProposalSettler,
  ) {}

  /** Applies the batch, its change logs durable and its proposals settled when this resolves. */
  async handleBatch(batch: LogRecord<MetadataChangeProposal>[]): Promise<void> {
    await (await this.takeBatch(batch)).durable;
  }

  /**
   * Applies the batch; its change logs are durable, and its proposals settled, once `durable`
   * resolves. When a proposal has to be retried (an error that is not the client's), the rest of its
   * chain is retried one by one before this resolves, so no later batch overtakes them; inside the
   * appending transaction (`delivery.inline`) the batch is refused instead, undone, and delivered
   * again the usual way.
   */
  async takeBatch(batch: LogRecord<MetadataChangeProposal>[], delivery?: BatchDelivery): Promise<BatchTaken> {
    const outcomes: (Applied | { readonly error: unknown } | undefined)[] = new Array(batch.length);
    const deferred: number[] = [];
    // A chain's proposals apply in order; different chains' overlap, so a store that is a round
    // trip away is not waited on one write at a time. A client error is final for its proposal
    // only; any other error stops its chain, whose rest is then retried one by one.
    const applyChain = async (store: UnitStore, indices: readonly number[]) => {
      for (let k = 0; k < indices.length; k++) {
        const i = indices[k]!;
        try {
          outcomes[i] = await this.apply(batch[i]!, store);
        } catch (err) {
          if (!isClientError(err)) {
            deferred.push(...indices.slice(k));
            return;
          }
          outcomes[i] = { error: err };
        }
      }
    };
    const applyAll = (store: UnitStore) => inParallel(writeChains(this.registry, batch), CONCURRENT_CHAINS, (chain) => applyChain(store, chain));
    try {
      await (this.store.unit ? this.store.unit(applyAll) : applyAll(this.store));
      if (deferred.length > 0 && delivery?.inline) throw new Error(`${deferred.length} proposals of the batch failed and are to be retried`);
    } catch (err) {
      // The unit did not commit (or is undone): what it remembered about stored keys may not hold.
      this.knownEntities.clear();
      throw err;
    }
    const outbox = new Outbox();
    outcomes.forEach((outcome, i) => {
      if (outcome && 'error' in outcome) outbox.rejected(batch[i]!, outcome.error);
      else if (outcome) outbox.applied(batch[i]!, outcome);
    });
    const published = this.publish(outbox);
    if (deferred.length === 0) return { durable: published };
    await published;
    for (const i of deferred.sort((a, b) => a - b)) await this.publish(await this.applyWithRetries(batch[i]!));
    return { durable: Promise.resolve() };
  }

  private async applyWithRetries(record: LogRecord<MetadataChangeProposal>): Promise<Outbox> {
    const outbox = new Outbox();
    for (let attempt = 1; ; attempt++) {
      try {
        outbox.applied(record, await this.apply(record, this.store));
        return outbox;
      } catch (err) {
        if (!isClientError(err) && attempt < MAX_ATTEMPTS) {
          await new Promise((r) => setTimeout(r, 100 * attempt));
          continue;
        }
        outbox.rejected(record, err);
        return outbox;
      }
    }
  }

  private async publish(outbox: Outbox): Promise<void> {
    await Promise.all([
      outbox.versioned.length ? this.logs.versionedChangeLog.append(outbox.versioned) : undefined,
      outbox.timeseries.length ? this.logs.timeseriesChangeLog.append(outbox.timeseries) : undefined,
      outbox.failed.length ? this.logs.failedProposals.append(outbox.failed) : undefined,
    ]);
    for (const [id, outcome] of outbox.settled) this.settler?.settle(id, outcome);
  }

  /** `store`: the store the proposal writes through (its batch's unit's, when the store has units). */
  private async apply(record: LogRecord<MetadataChangeProposal>, store: UnitStore): Promise<Applied> {
    const now = Date.now();
    const checked = checkProposalOnce(this.registry, record.value, now);
    const created: AuditStamp = { time: now, actor: record.headers[ACTOR_HEADER] ?? SYSTEM_ACTOR };
    if (checked.aspect.kind === 'timeseries') return { result: {}, versioned: [], timeseries: [parsedAs(withCreated(checked.mcp, created), checked.value)] };
    if (checked.mcp.changeType === 'DELETE') return this.delete(checked, created, store);
    const value = checked.patch ? await this.patched(checked, store) : checked.value;
    const mcp: MetadataChangeProposal = checked.patch
      ? { ...checked.mcp, changeType: 'PATCH', aspect: { value: JSON.stringify(value), contentType: JSON_CONTENT } }
      : checked.mcp;
    // The key and the aspect are written side by side (a store a round trip away sends them
    // together); the key's change log still comes first. A redelivery completes whichever failed.
    const [keyLogs, outcome] = await Promise.all([
      checked.aspect.kind === 'key' ? [] : this.ensureKey(checked, record, created, store),
      store.write({
        urn: checked.urn,
        aspect: checked.aspect.name,
        metadata: (mcp.aspect as { value: string }).value,
        systemMetadata: mcp.systemMetadata ?? {},
        createdOn: created.time,
        createdBy: created.actor,
        proposalId: proposalMark(record.id, record.timestamp),
      }),
    ]);
    // A key whose change log this proposal owes is known once it applied: had it failed, its retry
    // would find the key its own (`createIfAbsent`) and log it then.
    if (checked.aspect.kind === 'key' || keyLogs.length) this.remember(checked.urn);
    const log = changeLogOf(mcp, value, outcome, created);
    return { result: {}, versioned: log ? [...keyLogs, log] : keyLogs, timeseries: [] };
  }

  private async patched(checked: CheckedProposal, store: UnitStore): Promise<unknown> {
    const [current] = await store.getLatest([checked.urn], [checked.aspect.name]);
    try {
      const result = applyPatch(current ? JSON.parse(current.metadata) : {}, checked.patch ?? []);
      return checkAspectValue(checked.aspect, result, checked.urn);
    } catch (err) {
      if (err instanceof PatchError) throw unprocessable(`Cannot apply patch to ${checked.aspect.name} of ${checked.urn}: ${err.message}`);
      throw err;
    }
  }

  /** Stores the key aspect on an entity's first write, with its own change log. */
  private async ensureKey(checked: CheckedProposal, record: LogRecord<MetadataChangeProposal>, created: AuditStamp, store: UnitStore): Promise<MetadataChangeLog[]> {
    if (this.knownEntities.has(checked.urn)) return [];
    const inFlight = this.keysInFlight.get(checked.urn);
    if (inFlight) {
      // Its change log goes with the proposal that wrote it.
      await inFlight;
      return [];
    }
    const written = this.writeKey(checked, record, created, store);
    this.keysInFlight.set(checked.urn, written);
    try {
      return await written;
    } finally {
      this.keysInFlight.delete(checked.urn);
    }
  }

  private async writeKey(checked: CheckedProposal, record: LogRecord<MetadataChangeProposal>, created: AuditStamp, store: UnitStore): Promise<MetadataChangeLog[]> {
    const keyName = checked.entity.keyAspect.name;
    const { urn } = this.registry.parseEntityUrn(checked.urn);
    const key = this.registry.keyFromUrn(urn, checked.entity);
    const keyValue = JSON.stringify(key);
    const stored = await store.createIfAbsent({
      urn: checked.urn,
      aspect: keyName,
      metadata: keyValue,
      systemMetadata: checked.mcp.systemMetadata ?? {},
      createdOn: created.time,
      createdBy: created.actor,
      proposalId: proposalMark(record.id, record.timestamp, 'key'),
    });
    if (!stored) {
      // Another proposal's key, whose change log went with it.
      this.remember(checked.urn);
      return [];
    }
    const keyMcp: MetadataChangeProposal = {
      entityType: checked.entity.name,
      entityUrn: checked.urn,
      changeType: 'UPSERT',
      aspectName: keyName,
      aspect: { value: keyValue, contentType: JSON_CONTENT },
      systemMetadata: checked.mcp.systemMetadata,
    };
    return [changeLogOf(keyMcp, key, { kind: 'created', current: stored }, created)!];
  }

  private remember(urn: string): void {
    if (this.knownEntities.size >= KNOWN_ENTITIES) this.knownEntities.clear();
    this.knownEntities.add(urn);
  }

  /** DELETE of the key aspect removes the whole entity; of another aspect, all its versions. */
  private async delete(checked: CheckedProposal, created: AuditStamp, store: UnitStore): Promise<Applied> {
    const removed: StoredAspect[] = [];
    let rows: number;
    if (checked.aspect.kind === 'key') {
      const result = await store.deleteEntity(checked.urn);
      removed.push(...result.latest);
      rows = result.rows;
      this.knownEntities.delete(checked.urn);
    } else {
      const result = await store.deleteAspect(checked.urn, checked.aspect.name);
      if (result.latest) removed.push(result.latest);
      rows = result.rows;
    }
    const keyName = checked.entity.keyAspect.name;
    // Change logs of the other aspects first, the key's last: indexers drop the document on it.
    removed.sort((a, b) => Number(a.aspect === keyName) - Number(b.aspect === keyName));
    const logs: MetadataChangeLog[] = removed.map((row) => ({
      entityType: checked.entity.name,
      entityUrn: checked.urn,
      changeType: 'DELETE',
      aspectName: row.aspect,
      previousAspectValue: { value: row.metadata, contentType: JSON_CONTENT },
      ...(row.systemMetadata ? { previousSystemMetadata: row.systemMetadata } : {}),
      ...(checked.mcp.systemMetadata ? { systemMetadata: checked.mcp.systemMetadata } : {}),
      created,
    }));
    return { result: { rows }, versioned: logs, timeseries: [] };
  }
}

/** `mcl`, its aspect remembered as `value` when there is one. */
function parsedAs(mcl: MetadataChangeLog, value: unknown): MetadataChangeLog {
  if (value !== undefined) rememberParsedAspect(mcl, value);
  return mcl;
}

/**
 * The change log of a write, or none when nothing changed; `value` is the proposal's aspect value,
 * parsed, handed on with it unless the change log holds what the store holds instead (a replay).
 */
function changeLogOf(mcp: MetadataChangeProposal, value: unknown, outcome: WriteOutcome, created: AuditStamp): MetadataChangeLog | undefined {
  if (outcome.kind === 'unchanged' && mcp.changeType !== 'RESTATE') return undefined;
  const previous = outcome.kind === 'updated' || outcome.kind === 'replayed' ? outcome.previous : undefined;
  const log = withCreated(mcp, created);
  // A redelivered proposal may have been superseded since: the indexes get what the store holds.
  if (outcome.kind === 'replayed') log.aspect = { value: outcome.current.metadata, contentType: JSON_CONTENT };
  if (previous) {
    log.previousAspectValue = { value: previous.metadata, contentType: JSON_CONTENT };
    if (previous.systemMetadata) log.previousSystemMetadata = previous.systemMetadata;
  }
  return outcome.kind === 'replayed' ? log : parsedAs(log, value);
}

/** The change log of `mcp` made at `created`: a literal key first, then the proposal's (docs/performance.md, "Objects that begin with a spread"). */
function withCreated(mcp: MetadataChangeProposal, created: AuditStamp): MetadataChangeLog {
  const log: MetadataChangeLog = { created, ...mcp };
  log.created = created;
  return log;
}
