import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dockerIgnore } from '../../deploy/docker/dockerignore';

describe('dockerIgnore', () => {
  const ignored = dockerIgnore('# comment\nnode_modules\n**/*.test.ts\nbench/reports\n/data/\n');

  it('matches a top-level pattern at the top only, and everything below what it matches', () => {
    expect(ignored('node_modules')).toBe(true);
    expect(ignored('node_modules/tsx/package.json')).toBe(true);
    expect(ignored('libs/core/node_modules')).toBe(false);
    expect(ignored('data')).toBe(true);
    expect(ignored('database.ts')).toBe(false);
    expect(ignored('bench/reports/a.json')).toBe(true);
    expect(ignored('bench/main.ts')).toBe(false);
  });

  it('matches ** across segments, including none, and * within one', () => {
    expect(ignored('urn.test.ts')).toBe(true);
    expect(ignored('libs/core/src/urn.test.ts')).toBe(true);
    expect(ignored('libs/core/src/urn.ts')).toBe(false);
    expect(ignored('libs/core/src/urn.test.tsx')).toBe(false);
  });

  it('refuses exceptions rather than ignore them', () => {
    expect(() => dockerIgnore('test\n!test/keep.ts')).toThrow(/exceptions/);
  });

  it("keeps the project's tests, node_modules at any depth and local data out of the image", () => {
    const project = dockerIgnore(readFileSync(join(resolve(__dirname, '../..'), '.dockerignore'), 'utf8'));
    for (const path of ['node_modules/x', 'libs/core/node_modules/x', 'libs/core/src/urn.test.ts', 'test/contract/a.ts', 'data/catalog.db']) expect([path, project(path)]).toEqual([path, true]);
    for (const path of ['libs/core/src/urn.ts', 'schemas/entity-registry.yaml', 'package.json']) expect([path, project(path)]).toEqual([path, false]);
  });
});
