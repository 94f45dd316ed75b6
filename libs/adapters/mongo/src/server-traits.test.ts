import { isFerretDb } from './server-traits';

describe('isFerretDb', () => {
  it('recognises FerretDB 1.x by its buildInfo, and MongoDB by the lack of it', () => {
    expect(isFerretDb({ version: '7.0.42', ferretdbVersion: 'v1.24.2', ok: 1 })).toBe(true);
    expect(isFerretDb({ version: '7.0.42', ferretdb: { version: 'v1.10.1' }, ok: 1 })).toBe(true);
    expect(isFerretDb({ version: '7.0.14', gitVersion: 'ce59cfc6a3c5e5c067dca0d30697edd68d4f5188', ok: 1 })).toBe(false);
  });
});
