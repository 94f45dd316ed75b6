import { defaultRegistry } from '@cairn/core';
import { withoutReferences } from './references';

const registry = defaultRegistry();
const spec = (name: string) => {
  const s = registry.aspect(name);
  if (!s) throw new Error(name);
  return s;
};
const TAG = 'urn:li:tag:doomed';
const KEEP = 'urn:li:tag:kept';
const STAMP = { time: 1, actor: 'urn:li:corpuser:x' };

describe('withoutReferences', () => {
  it('drops the array items that hold the URN', () => {
    expect(withoutReferences(spec('globalTags'), { tags: [{ tag: TAG }, { tag: KEEP }] }, TAG)).toEqual({ value: { tags: [{ tag: KEEP }] } });
    const owners = { owners: [{ owner: 'urn:li:corpuser:a', type: 'DATAOWNER' }, { owner: 'urn:li:corpuser:b', type: 'DATAOWNER' }], lastModified: STAMP };
    expect(withoutReferences(spec('ownership'), owners, 'urn:li:corpuser:a')).toEqual({ value: { owners: [owners.owners[1]], lastModified: STAMP } });
  });

  it('reaches items nested in other items and leaves the rest alone', () => {
    const field = (tags: string[]) => ({ fieldPath: 'f', nativeDataType: 'int', type: { type: { 'com.linkedin.schema.NumberType': {} } }, globalTags: { tags: tags.map((tag) => ({ tag })) } });
    const schema = { schemaName: 's', platform: 'urn:li:dataPlatform:hive', version: 0, hash: '', platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } }, fields: [field([TAG, KEEP]), field([TAG])] };
    const result = withoutReferences(spec('schemaMetadata'), schema, TAG);
    expect(result).toEqual({ value: { ...schema, fields: [field([KEEP]), field([])] } });
  });

  it('deletes an aspect that is not valid without the reference', () => {
    expect(withoutReferences(spec('container'), { container: 'urn:li:container:c' }, 'urn:li:container:c')).toBe('delete');
  });

  it('changes nothing when the URN is not referenced', () => {
    expect(withoutReferences(spec('globalTags'), { tags: [{ tag: KEEP }] }, TAG)).toEqual({ value: { tags: [{ tag: KEEP }] } });
  });
});
