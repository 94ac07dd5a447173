import { brotliDecompressSync, constants, inflateRawSync } from 'node:zlib';
import { UnreadableFileError } from './unreadable-file.error';
import { isOverCap } from './over-cap';
import { MAX_PDF_DECODED_BYTES, MAX_PDF_NESTING, MAX_PDF_STREAM_BYTES, ParseLimitError, limitMessages } from './parse-limits';

/** A decoder's output passed its budget. */
class OverBudget extends Error {}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const STREAM = Buffer.from('stream');
const END_STREAM = Buffer.from('endstream');

/**
 * Checks, before pdf.js sees the file, that no stream decodes past MAX_PDF_STREAM_BYTES, that
 * all of them together stay under MAX_PDF_DECODED_BYTES, and that arrays and dictionaries nest
 * at most MAX_PDF_NESTING deep (pdf.js's parser recurses per level), in the file's own bytes and
 * inside its object streams. Each stream is decoded through its filter chain under a cap on the
 * output, so a 1 GB FlateDecode stream stops at 64 MB instead of after 1 GB.
 *
 * Every `stream` keyword in the file is decoded, wherever it stands: pdf.js finds objects by
 * the offsets of the cross-reference table, which may point inside a string or another stream.
 * Image-only filters (DCT, JPX, JBIG2, CCITT) end a chain: text extraction never decodes images.
 *
 * Not covered here, so left to the parse worker's memory limit and deadline: streams of an
 * encrypted PDF (pdf.js decrypts them with an empty password; they cannot be decoded without
 * it), a predictor between two filters of a chain, and an image filter on a page's contents.
 */
export function checkPdfLimits(bytes: Buffer): void {
  const streams: { dataStart: number; dataEnd: number; dictionary: string }[] = [];
  for (let at = bytes.indexOf(STREAM); at >= 0; at = bytes.indexOf(STREAM, at + 1)) {
    if (!isStreamKeyword(bytes, at)) continue;
    let dataStart = at + STREAM.length;
    if (bytes[dataStart] === 0x0d) dataStart++;
    if (bytes[dataStart] === 0x0a) dataStart++;
    const dictionary = dictionaryBefore(bytes, at);
    streams.push({ dataStart, dataEnd: streamEnd(bytes, dataStart, dictionary), dictionary });
  }

  new NestingScan().scan(bytes, streams);

  let decoded = 0;
  for (const { dataStart, dataEnd, dictionary } of streams) {
    const output = decodeChain(
      bytes.subarray(dataStart, dataEnd),
      filtersOf(dictionary),
      Math.min(MAX_PDF_STREAM_BYTES, MAX_PDF_DECODED_BYTES - decoded),
      decoded,
    );
    decoded += output.length;
    if (/\/Type\s*\/ObjStm\b/.test(dictionary)) new NestingScan().scan(output, []);
  }
}

/** The dictionary `<< ... >>` that ends just before the keyword at `at`, as text; '' when there is none. */
function dictionaryBefore(bytes: Buffer, at: number): string {
  let end = at;
  while (end > 0 && WHITESPACE.has(bytes[end - 1])) end--;
  if (bytes[end - 1] !== 0x3e || bytes[end - 2] !== 0x3e) return '';
  const stop = Math.max(0, end - 65_536);
  let depth = 0;
  for (let i = end - 2; i > stop; i--) {
    if (bytes[i] === 0x3e && bytes[i + 1] === 0x3e) {
      depth++;
      i--;
    } else if (bytes[i] === 0x3c && bytes[i - 1] === 0x3c && --depth === 0) return bytes.toString('latin1', i - 1, end);
    else if (bytes[i] === 0x3c && bytes[i - 1] === 0x3c) i--;
  }
  return '';
}

/** Depth of arrays and dictionaries, outside strings, comments and the streams' data. */
class NestingScan {
  private depth = 0;

  scan(bytes: Buffer, streams: readonly { dataStart: number; dataEnd: number }[]): void {
    let next = 0;
    for (let at = 0; at < bytes.length;) {
      while (next < streams.length && streams[next].dataStart <= at) next++;
      if (next > 0 && at < streams[next - 1].dataEnd) {
        at = streams[next - 1].dataEnd;
        continue;
      }
      const byte = bytes[at];
      if (byte === 0x25) at = skipComment(bytes, at);
      else if (byte === 0x28) at = Math.min(skipString(bytes, at), next < streams.length ? streams[next].dataStart : bytes.length);
      else if (byte === 0x3c && bytes[at + 1] === 0x3c) {
        this.open();
        at += 2;
      } else if (byte === 0x3c) at = skipHexString(bytes, at);
      else if (byte === 0x3e && bytes[at + 1] === 0x3e) {
        this.close();
        at += 2;
      } else if (byte === 0x5b) {
        this.open();
        at++;
      } else if (byte === 0x5d) {
        this.close();
        at++;
      } else at++;
    }
  }

  private open(): void {
    if (++this.depth > MAX_PDF_NESTING) throw new ParseLimitError('pdf-nesting', limitMessages.pdfNesting());
  }

  private close(): void {
    this.depth = Math.max(0, this.depth - 1);
  }
}

function skipComment(bytes: Buffer, at: number): number {
  while (at < bytes.length && bytes[at] !== 0x0a && bytes[at] !== 0x0d) at++;
  return at;
}

/** Past a literal string: balanced parentheses, backslash escapes. */
function skipString(bytes: Buffer, at: number): number {
  let depth = 0;
  for (; at < bytes.length; at++) {
    const byte = bytes[at];
    if (byte === 0x5c) at++;
    else if (byte === 0x28) depth++;
    else if (byte === 0x29 && --depth === 0) return at + 1;
  }
  return at;
}

function skipHexString(bytes: Buffer, at: number): number {
  const end = bytes.indexOf(0x3e, at + 1);
  return end < 0 ? bytes.length : end + 1;
}

/** `stream` as a keyword: after whitespace or `>>`, followed by an end of line. */
function isStreamKeyword(bytes: Buffer, at: number): boolean {
  if (!bytes.subarray(at, at + STREAM.length).equals(STREAM)) return false;
  const before = bytes[at - 1];
  const after = bytes[at + STREAM.length];
  return (WHITESPACE.has(before) || before === 0x3e) && (after === 0x0a || after === 0x0d);
}

/** Where the stream's data ends: its direct /Length when `endstream` follows it there, else the next `endstream`, as pdf.js finds it. */
function streamEnd(bytes: Buffer, dataStart: number, dictionary: string): number {
  const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary);
  if (length) {
    const end = dataStart + Number(length[1]);
    let after = end;
    while (after < bytes.length && WHITESPACE.has(bytes[after])) after++;
    if (end <= bytes.length && bytes.subarray(after, after + END_STREAM.length).equals(END_STREAM)) return end;
  }
  const found = bytes.indexOf(END_STREAM, dataStart);
  return found < 0 ? bytes.length : found;
}

/** The stream's filters in order; an indirect /Filter is taken to be Flate, the one that matters most. */
function filtersOf(dictionary: string): string[] {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]()]+|\d+\s+\d+\s+R)/.exec(dictionary);
  if (!filter) return [];
  if (filter[1].endsWith('R')) return ['FlateDecode'];
  return filter[1].match(/\/[^\s/<>[\]()]+/g)?.map((name) => name.slice(1)) ?? [];
}

/**
 * The stream's data decoded through its chain, each step under `budget` bytes of output.
 * Throws ParseLimitError when a step passes it: per stream, or for the file when `decodedBefore`
 * has used up the total.
 */
function decodeChain(data: Buffer, filters: string[], budget: number, decodedBefore: number): Buffer {
  let output = data;
  try {
    for (const [i, filter] of filters.entries()) {
      const last = i === filters.length - 1;
      const next = decodeStep(output, filter, budget);
      if (next === null) break; // an image filter: not decoded for text
      if (next === 'damaged') {
        // pdf.js would hand a later step whatever came out before the damage; refuse rather than guess it.
        if (!last) throw new UnreadableFileError(`a damaged ${filter} stream inside a filter chain`);
        break;
      }
      output = next;
    }
  } catch (error) {
    if (!(error instanceof OverBudget)) throw error;
    const streamCapped = MAX_PDF_STREAM_BYTES <= MAX_PDF_DECODED_BYTES - decodedBefore;
    throw streamCapped
      ? new ParseLimitError('pdf-stream-size', limitMessages.pdfStream())
      : new ParseLimitError('pdf-decoded-size', limitMessages.pdfDecoded());
  }
  return output;
}

function decodeStep(data: Buffer, filter: string, budget: number): Buffer | null | 'damaged' {
  switch (filter) {
    case 'FlateDecode':
    case 'Fl':
      return inflateLikePdfJs(data, budget);
    case 'LZWDecode':
    case 'LZW':
      return lzwDecode(data, budget);
    case 'RunLengthDecode':
    case 'RL':
      return runLengthDecode(data, budget);
    case 'ASCII85Decode':
    case 'A85':
      return ascii85Decode(data, budget);
    case 'ASCIIHexDecode':
    case 'AHx':
      return asciiHexDecode(data, budget);
    case 'BrotliDecode':
      return zlibStep(() => brotliDecompressSync(data, { maxOutputLength: budget, finishFlush: constants.BROTLI_OPERATION_FLUSH }));
    default:
      return null;
  }
}

/** A zlib call under maxOutputLength: its output, OverBudget past the cap, 'damaged' on bad data. */
function zlibStep(run: () => Buffer): Buffer | 'damaged' {
  try {
    return run();
  } catch (error) {
    if (isOverCap(error)) throw new OverBudget();
    return 'damaged';
  }
}

/**
 * pdf.js inflates past a bad zlib header and ignores the checksum, so the deflate data is read
 * raw, after the two header bytes, and, if that fails, from the first byte; a truncated stream
 * gives what it holds (a sync flush instead of an error).
 */
function inflateLikePdfJs(data: Buffer, budget: number): Buffer | 'damaged' {
  const options = { maxOutputLength: budget, finishFlush: constants.Z_SYNC_FLUSH };
  const afterHeader = zlibStep(() => inflateRawSync(data.subarray(2), options));
  if (afterHeader !== 'damaged') return afterHeader;
  return zlibStep(() => inflateRawSync(data, options));
}

/** Output that refuses to grow past its budget. */
class BoundedOutput {
  private bytes = Buffer.alloc(1024);
  length = 0;

  constructor(private readonly budget: number) {}

  push(byte: number): void {
    if (this.length >= this.bytes.length) this.grow(this.length + 1);
    this.bytes[this.length++] = byte;
  }

  pushAll(source: Buffer, start: number, end: number): void {
    if (this.length + end - start > this.bytes.length) this.grow(this.length + end - start);
    source.copy(this.bytes, this.length, start, end);
    this.length += end - start;
  }

  private grow(needed: number): void {
    if (needed > this.budget) throw new OverBudget();
    const next = Buffer.alloc(Math.min(this.budget, Math.max(needed, this.bytes.length * 2)));
    this.bytes.copy(next, 0, 0, this.length);
    this.bytes = next;
  }

  result(): Buffer {
    return this.bytes.subarray(0, this.length);
  }
}

/** LZW as PDF uses it (early change, 9 to 12-bit codes), as pdf.js decodes it, which may reach 4,096 bytes per code. */
function lzwDecode(data: Buffer, budget: number): Buffer {
  const output = new BoundedOutput(budget);
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const lengths = new Int32Array(4096);
  const scratch = Buffer.alloc(4097);
  for (let i = 0; i < 256; i++) {
    suffix[i] = i;
    lengths[i] = 1;
    prefix[i] = -1;
  }
  let next = 258;
  let width = 9;
  let previous = -1;
  let bits = 0;
  let buffer = 0;
  for (let at = 0; at < data.length;) {
    while (bits < width && at < data.length) {
      buffer = ((buffer << 8) | data[at++]) >>> 0;
      bits += 8;
    }
    if (bits < width) break;
    const code = (buffer >>> (bits - width)) & ((1 << width) - 1);
    bits -= width;
    if (code === 256) {
      next = 258;
      width = 9;
      previous = -1;
      continue;
    }
    if (code === 257) break;
    let entry = code;
    if (code >= next) {
      if (previous < 0 || code > next) break; // damaged: pdf.js stops here too
      entry = previous;
    }
    // Write the entry's bytes backwards into scratch, then out.
    let length = lengths[entry];
    for (let c = entry, i = length - 1; i >= 0; i--, c = prefix[c]) scratch[i] = suffix[c];
    const first = scratch[0];
    if (code >= next) scratch[length++] = first;
    output.pushAll(scratch, 0, length);
    if (previous >= 0 && next < 4096) {
      prefix[next] = previous;
      suffix[next] = first;
      lengths[next] = lengths[previous] + 1;
      next++;
    }
    previous = code;
    if (next + 1 >= 1 << width && width < 12) width++;
  }
  return output.result();
}

/** Run-length: a length byte n < 128 copies n + 1 bytes, n > 128 repeats one byte 257 - n times, 128 ends. */
function runLengthDecode(data: Buffer, budget: number): Buffer {
  const output = new BoundedOutput(budget);
  for (let at = 0; at < data.length;) {
    const n = data[at++];
    if (n === 128) break;
    if (n < 128) {
      output.pushAll(data, at, Math.min(data.length, at + n + 1));
      at += n + 1;
    } else if (at < data.length) {
      const byte = data[at++];
      for (let i = 0; i < 257 - n; i++) output.push(byte);
    }
  }
  return output.result();
}

function ascii85Decode(data: Buffer, budget: number): Buffer {
  const output = new BoundedOutput(budget);
  let group = 0;
  let count = 0;
  for (const byte of data) {
    if (byte === 0x7e /* ~ */) break;
    if (WHITESPACE.has(byte)) continue;
    if (byte === 0x7a /* z */ && count === 0) {
      for (let i = 0; i < 4; i++) output.push(0);
      continue;
    }
    if (byte < 0x21 || byte > 0x75) continue;
    group = group * 85 + (byte - 0x21);
    if (++count === 5) {
      for (let shift = 24; shift >= 0; shift -= 8) output.push(Math.floor(group / 2 ** shift) & 0xff);
      group = 0;
      count = 0;
    }
  }
  if (count > 1) {
    for (let i = count; i < 5; i++) group = group * 85 + 84;
    for (let i = 0, shift = 24; i < count - 1; i++, shift -= 8) output.push(Math.floor(group / 2 ** shift) & 0xff);
  }
  return output.result();
}

function asciiHexDecode(data: Buffer, budget: number): Buffer {
  const output = new BoundedOutput(budget);
  let high = -1;
  for (const byte of data) {
    if (byte === 0x3e) break;
    const digit = byte >= 0x30 && byte <= 0x39 ? byte - 0x30 : (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66 ? (byte | 0x20) - 0x57 : -1;
    if (digit < 0) continue;
    if (high < 0) high = digit;
    else {
      output.push((high << 4) | digit);
      high = -1;
    }
  }
  if (high >= 0) output.push(high << 4);
  return output.result();
}
