// A read-only reader of Compound File Binary (OLE2) containers, the envelope of .xls files and of
// password-protected OOXML files. Hostile input is assumed: every sector number is bounds-checked,
// every chain is followed at most as many steps as the file has sectors (a loop is an error), and
// no stream can be larger than the file itself.

import { AppError } from '../../errors.js';

export const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] as const;

const END_OF_CHAIN = 0xfffffffe;
const FREE_SECTOR = 0xffffffff;
const MAX_REGULAR_SECTOR = 0xfffffffa;

export function looksLikeCfb(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && CFB_SIGNATURE.every((byte, index) => bytes[index] === byte);
}

export interface CfbEntry {
  name: string;
  /** 1 storage, 2 stream, 5 root. */
  type: number;
  start: number;
  size: number;
}

function corrupt(detail: string): never {
  throw new AppError('invalid_spreadsheet', `the XLS file is damaged: ${detail}`);
}

export class CompoundFile {
  private readonly view: DataView;
  private readonly sectorSize: number;
  private readonly sectorCount: number;
  private readonly fat: Uint32Array;
  readonly entries: CfbEntry[] = [];
  private readonly miniCutoff: number;
  private readonly firstMiniFatSector: number;
  private miniStream: Uint8Array | undefined;
  private miniFat: Uint32Array | undefined;

  constructor(private readonly bytes: Uint8Array) {
    if (!looksLikeCfb(bytes) || bytes.length < 512) corrupt('it does not have a compound file header');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.view = view;
    const major = view.getUint16(26, true);
    const sectorShift = view.getUint16(30, true);
    if (!((major === 3 && sectorShift === 9) || (major === 4 && sectorShift === 12))) {
      corrupt(`its header has an unknown version (${major}) or sector size (2^${sectorShift})`);
    }
    if (view.getUint16(32, true) !== 6) corrupt('its mini sector size is not 64 bytes');
    this.sectorSize = 1 << sectorShift;
    this.sectorCount = Math.ceil((bytes.length - this.sectorSize) / this.sectorSize);
    const fatSectorCount = view.getUint32(44, true);
    const firstDirectorySector = view.getUint32(48, true);
    this.miniCutoff = view.getUint32(56, true);
    this.firstMiniFatSector = view.getUint32(60, true);
    let difatSector = view.getUint32(68, true);
    const difatCount = view.getUint32(72, true);
    if (fatSectorCount > this.sectorCount) corrupt('its header claims more allocation sectors than the file has');

    // The sectors of the allocation table: 109 in the header, the rest in DIFAT sectors.
    const fatSectors: number[] = [];
    for (let index = 0; index < 109 && fatSectors.length < fatSectorCount; index++) {
      fatSectors.push(view.getUint32(76 + index * 4, true));
    }
    const perDifat = this.sectorSize / 4 - 1;
    for (let step = 0; fatSectors.length < fatSectorCount; step++) {
      if (step >= difatCount || step > this.sectorCount || difatSector > MAX_REGULAR_SECTOR) {
        corrupt('its allocation table index is broken');
      }
      const offset = this.sectorOffset(difatSector, true);
      for (let index = 0; index < perDifat && fatSectors.length < fatSectorCount; index++) {
        fatSectors.push(view.getUint32(offset + index * 4, true));
      }
      difatSector = view.getUint32(offset + perDifat * 4, true);
    }

    const perSector = this.sectorSize / 4;
    this.fat = new Uint32Array(fatSectors.length * perSector);
    fatSectors.forEach((sector, index) => {
      const offset = this.sectorOffset(sector, true);
      for (let entry = 0; entry < perSector; entry++) {
        this.fat[index * perSector + entry] = view.getUint32(offset + entry * 4, true);
      }
    });

    const directory = this.readChain(firstDirectorySector, undefined);
    const decoder = new TextDecoder('utf-16le');
    for (let offset = 0; offset + 128 <= directory.length; offset += 128) {
      const nameLength = directory[offset + 64]! | (directory[offset + 65]! << 8);
      const type = directory[offset + 66]!;
      if (type === 0) continue;
      const entryView = new DataView(directory.buffer, directory.byteOffset + offset, 128);
      const name = decoder.decode(directory.subarray(offset, offset + Math.max(0, Math.min(64, nameLength) - 2)));
      const start = entryView.getUint32(116, true);
      const size = entryView.getUint32(120, true) + (major === 4 ? entryView.getUint32(124, true) * 2 ** 32 : 0);
      this.entries.push({ name, type, start, size });
    }
    if (this.entries[0]?.type !== 5) corrupt('its directory has no root entry');
  }

  /** Offset of a sector; `whole` also requires all of it to be in the file. */
  private sectorOffset(sector: number, whole = false): number {
    const offset = (sector + 1) * this.sectorSize;
    if (sector >= this.sectorCount || (whole && offset + this.sectorSize > this.bytes.length)) {
      corrupt(`a sector number (${sector}) lies outside the file`);
    }
    return offset;
  }

  /** The bytes of a chain of regular sectors, cut to `size` when given. */
  private readChain(start: number, size: number | undefined): Uint8Array {
    if (size !== undefined && size > this.bytes.length) corrupt('a stream is larger than the file');
    const sectors: number[] = [];
    let sector = start;
    while (sector !== END_OF_CHAIN) {
      if (sector === FREE_SECTOR && size === 0) break;
      if (sector > MAX_REGULAR_SECTOR || sector >= this.fat.length) corrupt('a sector chain is broken');
      if (sectors.length > this.sectorCount) corrupt('a sector chain loops');
      if (size !== undefined && sectors.length * this.sectorSize >= size) break;
      sectors.push(sector);
      sector = this.fat[sector] as number;
    }
    const total = size ?? sectors.length * this.sectorSize;
    if (sectors.length * this.sectorSize < total) corrupt('a stream is shorter than its directory entry says');
    const out = new Uint8Array(total);
    let at = 0;
    for (const each of sectors) {
      const offset = this.sectorOffset(each);
      const chunk = this.bytes.subarray(offset, Math.min(offset + this.sectorSize, this.bytes.length, offset + total - at));
      out.set(chunk, at);
      at += chunk.length;
      if (at >= total) break;
    }
    return out;
  }

  private readMini(start: number, size: number): Uint8Array {
    if (this.miniStream === undefined || this.miniFat === undefined) {
      const root = this.entries[0] as CfbEntry;
      this.miniStream = this.readChain(root.start, root.size);
      const miniFatBytes = this.readChain(this.firstMiniFatSector, undefined);
      this.miniFat = new Uint32Array(miniFatBytes.length / 4);
      const view = new DataView(miniFatBytes.buffer, miniFatBytes.byteOffset, miniFatBytes.byteLength);
      for (let index = 0; index < this.miniFat.length; index++) this.miniFat[index] = view.getUint32(index * 4, true);
    }
    const miniStream = this.miniStream;
    const miniFat = this.miniFat;
    const out = new Uint8Array(size);
    let at = 0;
    let sector = start;
    let steps = 0;
    while (at < size) {
      if (sector >= miniFat.length || steps++ > miniFat.length) corrupt('a mini sector chain is broken');
      const offset = sector * 64;
      if (offset + Math.min(64, size - at) > miniStream.length) corrupt('a mini sector lies outside the mini stream');
      out.set(miniStream.subarray(offset, offset + Math.min(64, size - at)), at);
      at += 64;
      sector = miniFat[sector] as number;
    }
    return out;
  }

  /** A stream by name (case-insensitive), or undefined. */
  find(name: string): CfbEntry | undefined {
    const wanted = name.toLowerCase();
    return this.entries.find((entry) => entry.type === 2 && entry.name.toLowerCase() === wanted);
  }

  read(entry: CfbEntry): Uint8Array {
    if (entry.size > this.bytes.length) corrupt(`the stream ${JSON.stringify(entry.name)} is larger than the file`);
    return entry.size < this.miniCutoff ? this.readMini(entry.start, entry.size) : this.readChain(entry.start, entry.size);
  }
}
