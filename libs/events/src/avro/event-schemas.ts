/** The Avro schemas of the events, read from schemas/avro. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Type } from 'avsc';

export const EVENT_SCHEMA_FILES = {
  mcp: 'MetadataChangeProposal.avsc',
  mcl: 'MetadataChangeLog.avsc',
  failedMcp: 'FailedMetadataChangeProposal.avsc',
  mce: 'MetadataChangeEvent.avsc',
  platformEvent: 'PlatformEvent.avsc',
} as const;

export type EventKind = keyof typeof EVENT_SCHEMA_FILES;

export type EventSchemas = Readonly<Record<EventKind, Type>>;

export function defaultAvroDir(): string {
  // libs/events/src/avro → repo root
  return resolve(__dirname, '../../../../schemas/avro');
}

export function readAvroSchemaFile(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8'));
}

export function loadEventSchemas(dir: string = defaultAvroDir()): EventSchemas {
  const load = (kind: EventKind): Type => Type.forSchema(readAvroSchemaFile(join(dir, EVENT_SCHEMA_FILES[kind])) as Parameters<typeof Type.forSchema>[0]);
  return { mcp: load('mcp'), mcl: load('mcl'), failedMcp: load('failedMcp'), mce: load('mce'), platformEvent: load('platformEvent') };
}

let shared: EventSchemas | undefined;

/** The schemas of the default folder, parsed once per process. */
export function eventSchemas(): EventSchemas {
  shared ??= loadEventSchemas();
  return shared;
}
