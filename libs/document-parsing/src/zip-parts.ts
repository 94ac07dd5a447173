import { crc32, inflateRawSync } from 'node:zlib';
import { UnreadableFileError } from './unreadable-file.error';
import { isOverCap } from './over-cap';
import { MAX_UNPACKED_BYTES, MAX_UNPACKED_PART_BYTES, MAX_ZIP_ENTRIES, ParseLimitError, limitMessages } from './parse-limits';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const UNSET_32 = 0xffffffff;

/**
 * The parts of a zip (a DOCX) that `wanted` names, each inflated with Node's zlib under a cap
 * on its output (`maxOutputLength`), so that sizes a zip declares, which can lie, are never
 * trusted: inflation stops at the cap, never after. Parts not wanted (images) are not inflated.
 * Throws ParseLimitError past MAX_ZIP_ENTRIES, MAX_UNPACKED_PART_BYTES or MAX_UNPACKED_BYTES,
 * and UnreadableFileError for a zip it cannot read (damaged, encrypted, zip64 directory).
 */
export function readZipParts(bytes: Buffer, wanted: (name: string) => boolean): Map<string, Buffer> {
  const end = findEndOfDirectory(bytes);
  const entries = bytes.readUInt16LE(end + 10);
  const directoryOffset = bytes.readUInt32LE(end + 16);
  // A CV never needs zip64 (over 65,535 entries or 4 GB); its directory would say either.
  if (entries === 0xffff || directoryOffset === UNSET_32) throw new UnreadableFileError('a zip64 directory, which a CV never needs');
  if (entries > MAX_ZIP_ENTRIES) throw new ParseLimitError('zip-entries', limitMessages.zipEntries());

  const parts = new Map<string, Buffer>();
  let unpacked = 0;
  let at = directoryOffset;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new UnreadableFileError('a damaged zip directory');
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    let compressedSize = bytes.readUInt32LE(at + 20);
    const uncompressedSize = bytes.readUInt32LE(at + 24);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    let localOffset = bytes.readUInt32LE(at + 42);
    const name = bytes.toString('utf8', at + 46, at + 46 + nameLength);
    const extra = bytes.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength);
    at += 46 + nameLength + extraLength + commentLength;
    if (!wanted(name)) continue;
    if (flags & 1) throw new UnreadableFileError('an encrypted zip');
    if (compressedSize === UNSET_32 || localOffset === UNSET_32) {
      ({ compressedSize, localOffset } = zip64Sizes(extra, uncompressedSize, compressedSize, localOffset));
    }

    if (localOffset + 30 > bytes.length || bytes.readUInt32LE(localOffset) !== LOCAL_HEADER)
      throw new UnreadableFileError(`a damaged zip entry ${name}`);
    const dataStart = localOffset + 30 + bytes.readUInt16LE(localOffset + 26) + bytes.readUInt16LE(localOffset + 28);
    if (dataStart + compressedSize > bytes.length) throw new UnreadableFileError(`a truncated zip entry ${name}`);
    const data = bytes.subarray(dataStart, dataStart + compressedSize);

    const partCapped = MAX_UNPACKED_PART_BYTES <= MAX_UNPACKED_BYTES - unpacked;
    const budget = Math.min(MAX_UNPACKED_PART_BYTES, MAX_UNPACKED_BYTES - unpacked);
    const overBudget = () =>
      partCapped
        ? new ParseLimitError('unpacked-size', limitMessages.unpackedPart())
        : new ParseLimitError('unpacked-size', limitMessages.unpackedSize());
    let content: Buffer;
    if (method === 0) {
      if (data.length > budget) throw overBudget();
      content = data;
    } else if (method === 8) {
      try {
        content = inflateRawSync(data, { maxOutputLength: budget });
      } catch (error) {
        if (isOverCap(error)) throw overBudget();
        throw new UnreadableFileError(`a damaged zip entry ${name}: ${(error as Error).message}`);
      }
    } else {
      throw new UnreadableFileError(`zip compression method ${method}, which Word does not use`);
    }
    unpacked += content.length;
    parts.set(name, content);
  }
  return parts;
}

function findEndOfDirectory(bytes: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535; the last signature wins.
  const stop = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= stop; at--) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) return at;
  }
  throw new UnreadableFileError('no zip directory');
}

/** The 64-bit sizes a directory entry moved to its zip64 extra field, in the field's fixed order. */
function zip64Sizes(
  extra: Buffer,
  uncompressedSize: number,
  compressedSize: number,
  localOffset: number,
): { compressedSize: number; localOffset: number } {
  for (let at = 0; at + 4 <= extra.length;) {
    const id = extra.readUInt16LE(at);
    const size = extra.readUInt16LE(at + 2);
    if (id === ZIP64_EXTRA) {
      let field = at + 4;
      const next = () => {
        if (field + 8 > at + 4 + size) throw new UnreadableFileError('a damaged zip64 field');
        const value = Number(extra.readBigUInt64LE(field));
        field += 8;
        return value;
      };
      if (uncompressedSize === UNSET_32) next();
      const compressed = compressedSize === UNSET_32 ? next() : compressedSize;
      const offset = localOffset === UNSET_32 ? next() : localOffset;
      return { compressedSize: compressed, localOffset: offset };
    }
    at += 4 + size;
  }
  throw new UnreadableFileError('a zip entry without its zip64 sizes');
}

/**
 * A zip of the given parts, stored without compression: what a zip library reading it can
 * unpack is exactly these bytes, so no zip trick in the original reaches it.
 */
export function storedZip(parts: Map<string, Buffer>): Buffer {
  const chunks: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of parts) {
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // names are UTF-8
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(content.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(DIRECTORY_ENTRY, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(0x21, 14);
    entry.writeUInt32LE(crc, 16);
    entry.writeUInt32LE(content.length, 20);
    entry.writeUInt32LE(content.length, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(offset, 42);
    chunks.push(local, nameBytes, content);
    directory.push(entry, nameBytes);
    offset += 30 + nameBytes.length + content.length;
  }
  const directorySize = directory.reduce((sum, b) => sum + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_DIRECTORY, 0);
  end.writeUInt16LE(parts.size, 8);
  end.writeUInt16LE(parts.size, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, ...directory, end]);
}
