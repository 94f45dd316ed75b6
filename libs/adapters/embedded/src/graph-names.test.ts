import { openDatabase, type EmbeddedDb } from './database';
import { GraphNames } from './graph-names';

describe('GraphNames', () => {
  let db: EmbeddedDb;
  let names: GraphNames;
  beforeEach(() => {
    db = openDatabase(':memory:');
    names = new GraphNames(db);
  });
  afterEach(() => db.close());

  it('gives a name one id, in every later transaction', () => {
    const id = names.write(() => names.idOf('urn:li:tag:pii'));
    expect(names.write(() => [names.idOf('urn:li:tag:pii'), names.known('urn:li:tag:pii')])).toEqual([id, id]);
    expect(names.write(() => names.idOf('urn:li:tag:other'))).not.toBe(id);
    expect(names.write(() => names.known('urn:li:tag:never'))).toBeUndefined();
  });

  it('keeps no id of a transaction that rolled back', () => {
    expect(() =>
      names.write(() => {
        names.idOf('urn:li:tag:lost');
        throw new Error('the batch failed');
      }),
    ).toThrow('the batch failed');
    expect(names.write(() => names.known('urn:li:tag:lost'))).toBeUndefined();
  });

  it('keeps no id of a transaction nested in one that rolled back', () => {
    expect(() =>
      db.transaction(() => {
        names.write(() => names.idOf('urn:li:tag:inner'));
        throw new Error('the outer transaction failed');
      })(),
    ).toThrow('the outer transaction failed');
    expect(names.write(() => names.known('urn:li:tag:inner'))).toBeUndefined();
  });

  it('forgets every name', () => {
    names.write(() => names.idOf('urn:li:tag:pii'));
    names.write(() => names.forgetAll());
    expect(names.write(() => names.known('urn:li:tag:pii'))).toBeUndefined();
  });
});
