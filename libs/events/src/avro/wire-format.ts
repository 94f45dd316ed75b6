/**
 * The Confluent wire format of Kafka values: magic byte 0, the writer schema's id in the
 * schema registry (4 bytes, big-endian), then the Avro binary.
 */

export const MAGIC_BYTE = 0;
const HEADER_LENGTH = 5;

export class WireFormatError extends Error {}

/** The header that precedes a payload written with schema `schemaId`. */
export function frameHeader(schemaId: number): Buffer {
  if (!Number.isInteger(schemaId) || schemaId < 0 || schemaId > 0xffffffff) {
    throw new WireFormatError(`Schema id must be an unsigned 32-bit integer, got ${schemaId}`);
  }
  const header = Buffer.alloc(HEADER_LENGTH);
  header.writeUInt8(MAGIC_BYTE, 0);
  header.writeUInt32BE(schemaId, 1);
  return header;
}

export function frame(schemaId: number, payload: Uint8Array): Buffer {
  return Buffer.concat([frameHeader(schemaId), payload]);
}

export function unframe(message: Uint8Array): { schemaId: number; payload: Buffer } {
  const buf = Buffer.from(message.buffer, message.byteOffset, message.byteLength);
  if (buf.length < HEADER_LENGTH) {
    throw new WireFormatError(`Message of ${buf.length} bytes is shorter than the ${HEADER_LENGTH}-byte Confluent header`);
  }
  if (buf[0] !== MAGIC_BYTE) {
    throw new WireFormatError(`Unknown magic byte ${buf[0]}: not the Confluent wire format (expected ${MAGIC_BYTE})`);
  }
  return { schemaId: buf.readUInt32BE(1), payload: buf.subarray(HEADER_LENGTH) };
}
