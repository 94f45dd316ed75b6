import type { MetadataChangeLog } from '@cairn/events';
import { changeLogsBesideAspects } from './change-log-form';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)';
const SCHEMA = '{"schemaName":"t","fields":[]}';
const upsert: MetadataChangeLog = {
  entityType: 'dataset',
  entityUrn: URN,
  changeType: 'UPSERT',
  aspectName: 'schemaMetadata',
  aspect: { value: SCHEMA, contentType: 'application/json' },
  previousAspectValue: { value: '{"schemaName":"old","fields":[]}', contentType: 'application/json' },
  systemMetadata: { lastObserved: 5, runId: 'r' },
  created: { time: 5, actor: 'urn:li:corpuser:x' },
};

describe('change logs stored beside their aspects', () => {
  const rows = new Map<string, string>([[`${URN} schemaMetadata`, SCHEMA]]);
  const form = changeLogsBesideAspects((urn, aspect) => rows.get(`${urn} ${aspect}`));
  const roundTrip = (mcl: MetadataChangeLog) => form.fromStored(JSON.parse(JSON.stringify(form.toStored(mcl))));

  it('stores an upsert without its aspect value or previous value, and reads the value back from the aspect row', () => {
    const stored = JSON.stringify(form.toStored(upsert));
    expect(stored).not.toContain('schemaName');
    const { previousAspectValue: _previous, ...withoutPrevious } = upsert;
    expect(roundTrip(upsert)).toEqual(withoutPrevious);
  });

  it('skips an upsert whose aspect has no row any more', () => {
    expect(roundTrip({ ...upsert, aspectName: 'datasetProperties' })).toBeUndefined();
  });

  it('stores a DELETE as it is, but its previous value', () => {
    const deleted: MetadataChangeLog = { ...upsert, changeType: 'DELETE', aspect: undefined, aspectName: 'status' };
    const { previousAspectValue: _previous, aspect: _aspect, ...expected } = deleted;
    expect(roundTrip(deleted)).toEqual(expected);
  });

  it('counts the values it leaves out against the memory bound', () => {
    expect(form.heldChars(upsert)).toBe(SCHEMA.length + upsert.previousAspectValue!.value.length);
  });
});
