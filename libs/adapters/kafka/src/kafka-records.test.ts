import type { IHeaders, KafkaMessage, RecordMetadata } from 'kafkajs';
import { appendedIds, decodeRecord, undecodableRecord } from './kafka-records';
import { jsonValueCodec } from './value-codecs';

const sent = (partition: number, baseOffset: string): RecordMetadata => ({ topicName: 't', partition, errorCode: 0, baseOffset });

describe('appendedIds', () => {
  it('numbers the records of each partition from its base offset, in input order', () => {
    expect(appendedIds([1, 0, 1, 2, 1], [sent(0, '10'), sent(1, '5'), sent(2, '0')])).toEqual(['1:5', '0:10', '1:6', '2:0', '1:7']);
  });

  it('refuses a partition the broker did not acknowledge', () => {
    expect(() => appendedIds([0, 1], [sent(0, '3')])).toThrow(/partition 1/);
  });
});

describe('records from messages', () => {
  const message = (fields: { key?: Buffer | null; value?: Buffer | null; headers?: IHeaders }): KafkaMessage => ({
    key: Buffer.from('urn:li:corpuser:x'),
    value: Buffer.from('{"n":1}'),
    timestamp: '1700000000000',
    attributes: 0,
    offset: '42',
    headers: {},
    ...fields,
  });

  it('carries id, key, timestamp and headers; the last of repeated headers wins', () => {
    const raw = undecodableRecord('t', 2, message({ headers: { actor: [Buffer.from('a'), Buffer.from('b')], runId: 'r' } }));
    expect(decodeRecord(raw, jsonValueCodec())).toEqual({ id: '2:42', key: 'urn:li:corpuser:x', value: { n: 1 }, timestamp: 1_700_000_000_000, headers: { actor: 'b', runId: 'r' } });
  });

  it('refuses a message without a value', () => {
    const raw = undecodableRecord('t', 0, message({ key: null, value: null }));
    expect(raw).toMatchObject({ id: '0:42', key: null, value: null });
    expect(() => decodeRecord(raw, jsonValueCodec())).toThrow(/no value/);
  });
});
