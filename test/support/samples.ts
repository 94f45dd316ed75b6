/** The reference samples shipped in shared/ (read-only fixtures). */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const SAMPLES_DIR = process.env.CAIRN_SAMPLES_DIR ?? resolve(__dirname, '../../../shared/data/reference-samples');

export function sampleFiles(): string[] {
  return readdirSync(SAMPLES_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => join(SAMPLES_DIR, f));
}

export function readRecords(file: string): any[] {
  const data = JSON.parse(readFileSync(file, 'utf8'));
  return Array.isArray(data) ? data : [data];
}
