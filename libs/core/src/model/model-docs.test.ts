import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readModelDocs } from './model-docs';

const dir = mkdtempSync(join(tmpdir(), 'cairn-model-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fail = (message: string) => new Error(message);

describe('readModelDocs', () => {
  const file = join(dir, 'a.yaml');
  const cache = join(dir, 'cache.json');

  it('parses the files, keeps them parsed, and parses again after an edit', () => {
    writeFileSync(file, 'name: one\n');
    expect(readModelDocs([file], fail, cache).get(file)).toEqual([{ name: 'one' }]);
    const cached = JSON.parse(readFileSync(cache, 'utf8'));
    // What the cache holds is what is answered while the files are unchanged.
    writeFileSync(cache, JSON.stringify({ ...cached, docs: [[file, [{ name: 'from cache' }]]] }));
    expect(readModelDocs([file], fail, cache).get(file)).toEqual([{ name: 'from cache' }]);
    writeFileSync(file, 'name: two\n');
    expect(readModelDocs([file], fail, cache).get(file)).toEqual([{ name: 'two' }]);
  });

  it('names the file that is not valid YAML', () => {
    writeFileSync(file, 'name: [unclosed\n');
    expect(() => readModelDocs([file], fail, cache)).toThrow(/a\.yaml/);
  });

  it('works without a cache, and with one that cannot be written', () => {
    writeFileSync(file, 'name: three\n');
    expect(readModelDocs([file], fail).get(file)).toEqual([{ name: 'three' }]);
    expect(readModelDocs([file], fail, join(dir, 'missing', 'cache.json')).get(file)).toEqual([{ name: 'three' }]);
  });
});
