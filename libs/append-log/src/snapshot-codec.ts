import { deserialize, serialize } from 'node:v8';

/**
 * How an index's memory is laid out in a snapshot: v8's serializer for the structure, and each
 * large typed array as a raw section aligned to 8 bytes, so that decoding makes it a view into
 * the snapshot's bytes. (v8's serializer alone places typed arrays at any offset, and Node copies
 * each misaligned one when it reads them: at 100k CVs that held 500 MB twice.)
 *
 *   [u32 structure bytes][structure][padding][section][padding][section]...
 */
const SECTION = '__snapshotSection';
/** Smaller arrays stay in the structure: a section costs up to 7 bytes of padding. */
const SECTION_MIN_BYTES = 1024;

type TypedArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigUint64Array
  | BigInt64Array;

const KINDS = {
  Int8Array,
  Uint8Array,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
  BigUint64Array,
  BigInt64Array,
} as const;
type Kind = keyof typeof KINDS;

interface Section {
  kind: Kind;
  length: number;
}

/** Bytes of padding that bring offset `n` to a multiple of 8. */
export const padTo8 = (n: number) => (8 - (n % 8)) % 8;

/** The chunks to write, in order, for `value`. */
export function encodeSnapshot(value: unknown): Buffer[] {
  const sections: TypedArray[] = [];
  const replaced = replaceArrays(value, sections);
  const table: Section[] = sections.map((a) => ({ kind: a.constructor.name as Kind, length: a.length }));
  const structure = serialize({ value: replaced, sections: table });
  const chunks: Buffer[] = [];
  const length = Buffer.alloc(4);
  length.writeUInt32LE(structure.byteLength);
  chunks.push(length, structure);
  let at = 4 + structure.byteLength;
  for (const section of sections) {
    chunks.push(Buffer.alloc(padTo8(at)));
    at += padTo8(at);
    chunks.push(Buffer.from(section.buffer, section.byteOffset, section.byteLength));
    at += section.byteLength;
  }
  return chunks;
}

/** The value `encodeSnapshot` was given; its large typed arrays are views into `bytes`. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the caller names what it encoded
export function decodeSnapshot<T>(bytes: Buffer): T {
  const length = bytes.readUInt32LE(0);
  const { value, sections } = deserialize(bytes.subarray(4, 4 + length)) as { value: unknown; sections: Section[] };
  const buffer = bytes.buffer as ArrayBuffer; // read from a file, never shared
  let at = 4 + length;
  const arrays = sections.map(({ kind, length: count }) => {
    const Kind = KINDS[kind];
    at += padTo8(at);
    const byteLength = count * Kind.BYTES_PER_ELEMENT;
    if (!Kind || at + byteLength > bytes.byteLength) throw new Error('snapshot does not hold the sections its table names');
    const offset = bytes.byteOffset + at;
    at += byteLength;
    // Aligned in the file; a copy only if the bytes were read into a misaligned buffer.
    return offset % Kind.BYTES_PER_ELEMENT === 0 ? new Kind(buffer, offset, count) : new Kind(buffer.slice(offset, offset + byteLength));
  });
  return restoreArrays(value, arrays) as T;
}

function isTypedArray(value: unknown): value is TypedArray {
  return ArrayBuffer.isView(value) && !(value instanceof DataView);
}

function replaceArrays(value: unknown, sections: TypedArray[]): unknown {
  if (isTypedArray(value)) {
    if (value.byteLength < SECTION_MIN_BYTES) return value;
    sections.push(value);
    return { [SECTION]: sections.length - 1 };
  }
  if (Array.isArray(value)) return value.map((v) => replaceArrays(v, sections));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceArrays(v, sections)]));
  return value;
}

function restoreArrays(value: unknown, arrays: readonly TypedArray[]): unknown {
  if (isTypedArray(value)) return value;
  if (Array.isArray(value)) return value.map((v) => restoreArrays(v, arrays));
  if (value && typeof value === 'object') {
    if (SECTION in value) return arrays[(value as { [SECTION]: number })[SECTION]];
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, restoreArrays(v, arrays)]));
  }
  return value;
}
