/**
 * The little of Protocol Buffers (proto3, binary wire format) that the signing block needs: varints and
 * length-delimited fields to write, and every wire type to read (so that fields a newer signer adds are
 * skipped, and kept verbatim when a block is countersigned, as protobuf-java keeps unknown fields).
 *
 * Written here instead of taking protobufjs: five small messages, two wire types written, and the block must
 * be byte-exact with what protobuf-java writes (fields in number order, proto3 defaults left out), which is
 * easier to see in forty lines than through a code generator's options.
 */

export class ProtobufError extends Error {}

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LENGTH_DELIMITED = 2;
export const WIRE_FIXED32 = 5;

export interface ProtobufField {
  field: number;
  wireType: number;
  /** Varints (wire type 0) as numbers; larger than 2^53 is refused. */
  varint?: number;
  /** Length-delimited payloads (wire type 2), and fixed-width values as raw bytes. */
  bytes?: Buffer;
  /** The field as it was on the wire, tag included. */
  raw: Buffer;
}

function readVarint(buffer: Buffer, start: number): { value: number; end: number } {
  let value = 0;
  let scale = 1;
  for (let position = start; position < buffer.length && position < start + 10; position += 1) {
    const byte = buffer[position]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) {
      if (!Number.isSafeInteger(value)) throw new ProtobufError('a number is too large');
      return { value, end: position + 1 };
    }
    scale *= 128;
  }
  throw new ProtobufError(
    buffer.length < start + 10
      ? 'a number runs past the end of the data'
      : 'a number is longer than ten bytes',
  );
}

/** Reads every field of one message, in wire order. */
export function readFields(buffer: Buffer): ProtobufField[] {
  const fields: ProtobufField[] = [];
  let position = 0;
  while (position < buffer.length) {
    const start = position;
    const tag = readVarint(buffer, position);
    position = tag.end;
    const field = Math.floor(tag.value / 8);
    const wireType = tag.value % 8;
    if (field === 0) throw new ProtobufError('a field has the number 0');
    if (wireType === WIRE_VARINT) {
      const value = readVarint(buffer, position);
      position = value.end;
      fields.push({ field, wireType, varint: value.value, raw: buffer.subarray(start, position) });
    } else if (wireType === WIRE_LENGTH_DELIMITED) {
      const length = readVarint(buffer, position);
      const end = length.end + length.value;
      if (end > buffer.length) throw new ProtobufError('a field runs past the end of the data');
      position = end;
      fields.push({
        field,
        wireType,
        bytes: buffer.subarray(length.end, end),
        raw: buffer.subarray(start, end),
      });
    } else if (wireType === WIRE_FIXED64 || wireType === WIRE_FIXED32) {
      const end = position + (wireType === WIRE_FIXED64 ? 8 : 4);
      if (end > buffer.length) throw new ProtobufError('a field runs past the end of the data');
      fields.push({
        field,
        wireType,
        bytes: buffer.subarray(position, end),
        raw: buffer.subarray(start, end),
      });
      position = end;
    } else {
      throw new ProtobufError(`a field has the unknown wire type ${wireType}`);
    }
  }
  return fields;
}

/** The one value of a scalar field (proto3: the last one wins; absent is 0). */
export function varintField(fields: readonly ProtobufField[], field: number): number {
  let value = 0;
  for (const entry of fields) {
    if (entry.field !== field) continue;
    if (entry.wireType !== WIRE_VARINT) throw new ProtobufError(`field ${field} is not a number`);
    value = entry.varint!;
  }
  return value;
}

/** Every payload of a length-delimited field (repeated bytes or messages), in order. */
export function bytesFields(fields: readonly ProtobufField[], field: number): Buffer[] {
  return fields
    .filter((entry) => entry.field === field)
    .map((entry) => {
      if (entry.wireType !== WIRE_LENGTH_DELIMITED)
        throw new ProtobufError(`field ${field} is not a byte string`);
      return entry.bytes!;
    });
}

/** The last payload of a singular length-delimited field, or undefined. */
export function bytesField(fields: readonly ProtobufField[], field: number): Buffer | undefined {
  const all = bytesFields(fields, field);
  return all[all.length - 1];
}

function varint(value: number): Buffer {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a protobuf varint: ${value}`);
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 128) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** A scalar field; proto3 leaves 0 out. */
export function writeVarintField(field: number, value: number): Buffer {
  if (value === 0) return Buffer.alloc(0);
  return Buffer.concat([varint(field * 8 + WIRE_VARINT), varint(value)]);
}

/** A length-delimited field; for `bytes` proto3 leaves an empty value out, embedded messages are always written. */
export function writeBytesField(field: number, value: Buffer, { keepEmpty = false } = {}): Buffer {
  if (value.length === 0 && !keepEmpty) return Buffer.alloc(0);
  return Buffer.concat([varint(field * 8 + WIRE_LENGTH_DELIMITED), varint(value.length), value]);
}
