import { defaultPrivilegeCatalog } from './privileges';
import { writeRequirements, type WriteFacts } from './write-requirements';

const catalog = defaultPrivilegeCatalog();
const facts = (w: Partial<WriteFacts>): WriteFacts => ({ entity: 'dataset', aspect: 'datasetProperties', deletesEntity: false, creating: false, ownEntity: false, ...w });

describe('writeRequirements', () => {
  it('needs EDIT_ENTITY for aspects without a rule, and the rule or EDIT_ENTITY otherwise', () => {
    expect(writeRequirements(catalog, facts({}))).toEqual([{ resource: ['EDIT_ENTITY'], platform: [] }]);
    expect(writeRequirements(catalog, facts({ aspect: 'globalTags' }))).toEqual([{ resource: ['EDIT_ENTITY_TAGS', 'EDIT_ENTITY'], platform: [] }]);
  });

  it('keeps platform aspects and platform entities to their platform privileges', () => {
    expect(writeRequirements(catalog, facts({ entity: 'corpuser', aspect: 'corpUserCredentials', ownEntity: true }))).toEqual([{ resource: [], platform: ['MANAGE_USER_CREDENTIALS'] }]);
    expect(writeRequirements(catalog, facts({ entity: 'dataHubPolicy', aspect: 'dataHubPolicyInfo' }))).toEqual([{ resource: [], platform: ['MANAGE_POLICIES'] }]);
  });

  it('lets users edit their own profile, needs creation privileges for new tags and DELETE_ENTITY for deletes', () => {
    expect(writeRequirements(catalog, facts({ entity: 'corpuser', aspect: 'corpUserEditableInfo', ownEntity: true }))).toEqual([]);
    expect(writeRequirements(catalog, facts({ entity: 'tag', aspect: 'ownership', creating: true }))).toEqual([{ resource: [], platform: ['CREATE_TAGS', 'MANAGE_TAGS'] }]);
    expect(writeRequirements(catalog, facts({ entity: 'tag', aspect: 'tagKey', deletesEntity: true }))).toEqual([{ resource: ['DELETE_ENTITY'], platform: ['MANAGE_TAGS'] }]);
  });

  it('asks per changed field for field rules', () => {
    const before = { editableSchemaFieldInfo: [{ fieldPath: 'a' }] };
    const after = { editableSchemaFieldInfo: [{ fieldPath: 'a', description: 'd' }] };
    expect(writeRequirements(catalog, facts({ aspect: 'editableSchemaMetadata', before, after }))).toEqual([{ resource: ['EDIT_DATASET_COL_DESCRIPTION', 'EDIT_ENTITY'], platform: [] }]);
  });
});
