/** The SDL is data: every `schemas/graphql/*.graphql` file, loaded at start. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const DEFAULT_SCHEMA_DIR = resolve(__dirname, '../../../schemas/graphql');

export function loadTypeDefs(dir: string = DEFAULT_SCHEMA_DIR): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.graphql'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}
