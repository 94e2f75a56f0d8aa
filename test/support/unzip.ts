// Unzips a small test archive (stored or deflated entries) into a name → bytes record.
import zlib from 'node:zlib';

export function unzipSync(zip: Uint8Array): Record<string, Uint8Array> {
  const buffer = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  const files: Record<string, Uint8Array> = {};
  let at = 0;
  while (buffer.readUInt32LE(at) === 0x04034b50) {
    const method = buffer.readUInt16LE(at + 8);
    const compressed = buffer.readUInt32LE(at + 18);
    const nameLength = buffer.readUInt16LE(at + 26);
    const extraLength = buffer.readUInt16LE(at + 28);
    const name = buffer.toString('utf8', at + 30, at + 30 + nameLength);
    const start = at + 30 + nameLength + extraLength;
    const data = buffer.subarray(start, start + compressed);
    files[name] = new Uint8Array(method === 0 ? data : zlib.inflateRawSync(data));
    at = start + compressed;
  }
  return files;
}
