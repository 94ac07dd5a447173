import { ParseLimitError, limitMessages } from './parse-limits';

const FREE = -1;
const DIFAT_ENTRIES_IN_HEADER = 109;

const refuse = () => new ParseLimitError('sector-chain', limitMessages.sectorChain());

/**
 * Checks the sector tables of a .doc (an OLE compound file) before word-extractor reads it.
 * word-extractor trusts them: it allocates the table's size as the header states it (4 million
 * sectors is a 2 GB Buffer from a 1 KB file), walks the header's count of table sectors,
 * and follows each chain until it ends, so a chain that loops grows an array until the memory
 * runs out. Here every count must fit in the file, and no chain of the sector table or of the
 * short-sector table may loop, so every chain word-extractor follows is shorter than the file.
 */
export function checkOleLimits(bytes: Buffer): void {
  if (bytes.length < 512) return; // word-extractor refuses it as not a compound document
  const sectorShift = bytes.readUInt16LE(0x1e);
  if (sectorShift !== 9 && sectorShift !== 12) return; // likewise refused by word-extractor
  const sectorSize = 1 << sectorShift;
  // The header takes the first sector: 512 bytes in version 3 files, 4,096 in version 4 ones.
  const sectorsInFile = Math.max(0, Math.ceil((bytes.length - sectorSize) / sectorSize));
  const tableSectors = bytes.readUInt32LE(0x2c);
  const shortTableStart = bytes.readInt32LE(0x3c);
  const difatStart = bytes.readInt32LE(0x44);
  const difatSectors = bytes.readUInt32LE(0x48);
  if (tableSectors > sectorsInFile || difatSectors > sectorsInFile) throw refuse();

  const sector = (id: number): Buffer => {
    if (id < 0 || id >= sectorsInFile) throw refuse();
    const start = (id + 1) * sectorSize; // as word-extractor reads it: past the header sector
    const data = Buffer.alloc(sectorSize);
    bytes.copy(data, 0, start, Math.min(bytes.length, start + sectorSize));
    return data;
  };

  // Where the table's sectors are: 109 in the header, the rest in a chain of DIFAT sectors.
  const tableIds: number[] = [];
  for (let i = 0; i < Math.min(tableSectors, DIFAT_ENTRIES_IN_HEADER); i++) tableIds.push(bytes.readInt32LE(0x4c + 4 * i));
  for (let i = 0, id = difatStart; i < difatSectors && tableIds.length < tableSectors; i++) {
    const difat = sector(id);
    for (let at = 0; at < sectorSize - 4 && tableIds.length < tableSectors; at += 4) tableIds.push(difat.readInt32LE(at));
    id = difat.readInt32LE(sectorSize - 4);
  }
  const table = readTable(tableIds.map(sector));
  assertNoLoop(table);

  // The short-sector table is itself a chain in the sector table, now known not to loop.
  const shortIds: number[] = [];
  for (let id = shortTableStart; id > FREE && id < table.length; id = table[id]) shortIds.push(id);
  assertNoLoop(readTable(shortIds.map(sector)));
}

function readTable(sectors: Buffer[]): Int32Array {
  const table = new Int32Array(sectors.reduce((sum, s) => sum + s.length / 4, 0));
  let i = 0;
  for (const s of sectors) for (let at = 0; at < s.length; at += 4) table[i++] = s.readInt32LE(at);
  return table;
}

/** Each entry names the next sector of its chain; following them from any entry must end. */
function assertNoLoop(table: Int32Array): void {
  // 0 unvisited, 1 on the walk being followed, 2 known to end.
  const state = new Uint8Array(table.length);
  const walk: number[] = [];
  for (let start = 0; start < table.length; start++) {
    let id = start;
    while (id >= 0 && id < table.length && state[id] === 0) {
      state[id] = 1;
      walk.push(id);
      id = table[id];
    }
    if (id >= 0 && id < table.length && state[id] === 1) throw refuse();
    for (const seen of walk) state[seen] = 2;
    walk.length = 0;
  }
}
