/**
 * The embedded store's version semantics without multi-document transactions (FerretDB has
 * none). A first write is one atomic insert and a redelivery is only a read, so neither locks;
 * a change to an existing version 0 runs under the aspect's write lock, where a fresh read is
 * authoritative. Every step is idempotent, so a proposal redelivered after a crash anywhere in
 * between completes its write without duplicating a version.
 */
import type { Collection } from 'mongodb';
import { sameAspectValue } from '@cairn/core';
import { alreadyApplied, type AspectWrite, type WriteOutcome } from '@cairn/ports';
import { historyCopy, latestFromWrite, rowId, toStoredAspect, type AspectDocument } from './aspect-document';
import type { AspectWriteLocks } from './aspect-write-locks';
import { insertUnlessTaken } from './insert-unless-taken';

/** Each lost race means another write or a delete went through in between, so a few suffice. */
const MAX_ATTEMPTS = 10;
const LOST_RACE = Symbol('lost race');

type Attempt = WriteOutcome | typeof LOST_RACE;

export class WriteContentionError extends Error {
  constructor(write: AspectWrite, attempts: number) {
    super(`aspect ${write.aspect} of ${write.urn}: proposal ${write.proposalId} lost ${attempts} races to concurrent writers and deletes; giving up`);
    this.name = 'WriteContentionError';
  }
}

export async function writeVersioned(rows: Collection<AspectDocument>, locks: AspectWriteLocks, write: AspectWrite): Promise<WriteOutcome> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const outcome = await attemptWrite(rows, locks, write);
    if (outcome !== LOST_RACE) return outcome;
  }
  throw new WriteContentionError(write, MAX_ATTEMPTS);
}

function readLatest(rows: Collection<AspectDocument>, write: AspectWrite): Promise<AspectDocument | null> {
  return rows.findOne({ _id: rowId(write.urn, write.aspect, 0) });
}

async function attemptWrite(rows: Collection<AspectDocument>, locks: AspectWriteLocks, write: AspectWrite): Promise<Attempt> {
  const latest = await readLatest(rows, write);
  if (!latest) return create(rows, write);
  if (alreadyApplied(latest.proposalId, write.proposalId)) return replay(rows, latest);
  return locks.withLocks(write.urn, [write.aspect], `proposal ${write.proposalId}`, () => change(rows, write));
}

async function create(rows: Collection<AspectDocument>, write: AspectWrite): Promise<Attempt> {
  const latest = latestFromWrite(write, 0);
  if (!(await insertUnlessTaken(rows, latest))) return LOST_RACE;
  return { kind: 'created', current: toStoredAspect(latest) };
}

async function replay(rows: Collection<AspectDocument>, latest: AspectDocument): Promise<Attempt> {
  const maxVersion = latest.maxVersion ?? 0;
  const previous = maxVersion > 0 ? await rows.findOne({ _id: rowId(latest.urn, latest.aspect, maxVersion) }) : null;
  return { kind: 'replayed', current: toStoredAspect(latest), ...(previous ? { previous: toStoredAspect(previous) } : {}) };
}

/** Under the aspect's lock: what was read before taking it may be out of date, so read again. */
async function change(rows: Collection<AspectDocument>, write: AspectWrite): Promise<Attempt> {
  const latest = await readLatest(rows, write);
  // Deleted, or this proposal applied by another delivery meanwhile: decide again without the lock.
  if (!latest || alreadyApplied(latest.proposalId, write.proposalId)) return LOST_RACE;
  if (sameAspectValue(latest.metadata, write.metadata)) return refreshLastObserved(rows, latest, write);
  return supersede(rows, latest, write);
}

async function refreshLastObserved(rows: Collection<AspectDocument>, latest: AspectDocument, write: AspectWrite): Promise<Attempt> {
  const systemMetadata = JSON.stringify({ ...JSON.parse(latest.systemMetadata), lastObserved: write.systemMetadata.lastObserved });
  await rows.updateOne({ _id: latest._id }, { $set: { systemMetadata, proposalId: write.proposalId } });
  return { kind: 'unchanged', current: toStoredAspect({ ...latest, systemMetadata, proposalId: write.proposalId }) };
}

/** Keeps version 0 as the next history version, then puts the new value in its place. */
async function supersede(rows: Collection<AspectDocument>, latest: AspectDocument, write: AspectWrite): Promise<Attempt> {
  const version = (latest.maxVersion ?? 0) + 1;
  // A writer that died between these two steps left a copy here: what version 0 holds now replaces it.
  await rows.replaceOne({ _id: rowId(latest.urn, latest.aspect, version) }, historyCopy(latest, version), { upsert: true });
  const next = latestFromWrite(write, version);
  await rows.replaceOne({ _id: latest._id }, next);
  return { kind: 'updated', current: toStoredAspect(next), previous: toStoredAspect(latest) };
}
