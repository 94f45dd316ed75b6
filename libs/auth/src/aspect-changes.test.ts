import { changedParts } from './aspect-changes';
import { defaultPrivilegeCatalog } from './privileges';

const rule = defaultPrivilegeCatalog().aspectRule('editableSchemaMetadata')!;
const DESC = '/editableSchemaFieldInfo/*/description';
const TAGS = '/editableSchemaFieldInfo/*/globalTags';
const tag = (t: string) => ({ tags: [{ tag: t }] });

describe('changedParts', () => {
  const before = {
    created: { time: 1, actor: 'a' },
    editableSchemaFieldInfo: [{ fieldPath: 'a', description: 'x' }, { fieldPath: 'b', globalTags: tag('urn:li:tag:t') }],
  };

  it('sees a new column description as a description change only, stamps and keys aside', () => {
    const after = { ...before, lastModified: { time: 2, actor: 'b' }, editableSchemaFieldInfo: [...before.editableSchemaFieldInfo, { fieldPath: 'c', description: 'y' }] };
    expect(changedParts(rule, before, after)).toEqual({ fields: [DESC], other: false });
  });

  it('sees a tag moved to another column as a tag change', () => {
    const after = { ...before, editableSchemaFieldInfo: [{ fieldPath: 'a', description: 'x', globalTags: tag('urn:li:tag:t') }, { fieldPath: 'b' }] };
    expect(changedParts(rule, before, after)).toEqual({ fields: [TAGS], other: false });
  });

  it('sees fields outside the rule paths as other changes, and a first value as a change of its parts', () => {
    const after = { ...before, editableSchemaFieldInfo: [{ fieldPath: 'a', description: 'x', unknownField: 1 }, before.editableSchemaFieldInfo[1]] };
    expect(changedParts(rule, before, after)).toEqual({ fields: [], other: true });
    expect(changedParts(rule, undefined, before)).toEqual({ fields: [DESC, TAGS], other: false });
  });

  it('ignores key order', () => {
    const reordered = { editableSchemaFieldInfo: [{ description: 'x', fieldPath: 'a' }, before.editableSchemaFieldInfo[1]], created: { actor: 'a', time: 1 } };
    expect(changedParts(rule, before, reordered)).toEqual({ fields: [], other: false });
  });
});
