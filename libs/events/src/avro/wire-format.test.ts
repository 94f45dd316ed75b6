import { frame, unframe, WireFormatError } from './wire-format';

describe('Confluent wire format', () => {
  it('frames as magic byte 0, a big-endian schema id and the payload', () => {
    const framed = frame(0x01020304, Buffer.from([0xaa, 0xbb]));
    expect([...framed]).toEqual([0x00, 0x01, 0x02, 0x03, 0x04, 0xaa, 0xbb]);
  });

  it('unframes what it framed', () => {
    const { schemaId, payload } = unframe(frame(258, Buffer.from('abc')));
    expect(schemaId).toBe(258);
    expect(payload.toString()).toBe('abc');
  });

  it('unframes a view into a larger buffer', () => {
    const backing = Buffer.from([9, 9, 0, 0, 0, 0, 7, 42, 9]);
    const { schemaId, payload } = unframe(backing.subarray(2, 8));
    expect(schemaId).toBe(7);
    expect([...payload]).toEqual([42]);
  });

  it('rejects a buffer shorter than the header', () => {
    expect(() => unframe(Buffer.from([0, 0, 1]))).toThrow(WireFormatError);
    expect(() => unframe(Buffer.from([0, 0, 1]))).toThrow(/3 bytes is shorter than the 5-byte Confluent header/);
  });

  it('rejects an unknown magic byte', () => {
    expect(() => unframe(Buffer.from([1, 0, 0, 0, 1, 5]))).toThrow(/Unknown magic byte 1/);
  });

  it('rejects a schema id that does not fit 4 bytes', () => {
    expect(() => frame(-1, Buffer.alloc(0))).toThrow(WireFormatError);
    expect(() => frame(2 ** 32, Buffer.alloc(0))).toThrow(WireFormatError);
  });
});
