/**
 * The service's YAML documents (the model, the auth rules), parsed once per content. Parsing the
 * ~300 files costs a cold process a few hundred milliseconds of its start, so they are kept parsed
 * as JSON in the temp folder, keyed by a hash of every file's name and text: any edit is a miss,
 * and a cache that cannot be read or written is simply not used. The YAML parser itself is loaded
 * only on a miss (loading it took 55 ms of every start here).
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Raw = Record<string, unknown>;

function parseYaml(file: string, text: string, fail: (message: string) => Error): Raw[] {
  const { parseAllDocuments } = require('yaml') as typeof import('yaml');
  return parseAllDocuments(text).map((d) => {
    if (d.errors.length) throw fail(`${file}: ${d.errors[0].message}`);
    return d.toJS() as Raw;
  });
}

/** The documents of each file, by path; `fail` makes the error for a file that is not valid YAML. */
export function readModelDocs(files: readonly string[], fail: (message: string) => Error, cacheFile?: string): Map<string, Raw[]> {
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const parse = () => new Map(files.map((f, i) => [f, parseYaml(f, texts[i]!, fail)]));
  if (!cacheFile) return parse();
  const hash = createHash('sha1');
  files.forEach((f, i) => hash.update(f).update('\0').update(texts[i]!).update('\0'));
  const key = hash.digest('hex');
  try {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as { key: string; docs: [string, Raw[]][] };
    if (cached.key === key) return new Map(cached.docs);
  } catch {
    // no cache yet, or one that cannot be read: parse
  }
  const docs = parse();
  try {
    const partial = `${cacheFile}.${process.pid}`;
    writeFileSync(partial, JSON.stringify({ key, docs: [...docs] }));
    renameSync(partial, cacheFile);
  } catch {
    // a read-only temp folder only costs the next start the parse
  }
  return docs;
}

/** Where a set of the service's own YAML files (under schemas/) is kept parsed. */
export function parsedCacheFile(name: string): string {
  return join(tmpdir(), `cairn-${name}.json`);
}

export const MODEL_CACHE_FILE = parsedCacheFile('model-docs');
