// The ZIP writer of the importer benchmark's Inspect logs: members streamed to the file, zstd
// at level 3 as inspect_ai writes them.
import fs from "node:fs";
import zlib from "node:zlib";
import { zstdCompress } from "../../lib/zstd";

export interface Member {
  name: string;
  data: Buffer;
}

/** Writes a ZIP of `members` to `file`, each zstd (method 93). */
export function zipFile(file: string, members: Member[]): void {
  const crc32 = (zlib as unknown as { crc32: (b: Uint8Array) => number }).crc32;
  const method = 93;
  const fd = fs.openSync(file, "w");
  const central: Buffer[] = [];
  let offset = 0;
  members.forEach((m) => {
    const name = Buffer.from(m.name, "utf8");
    const packed = zstdCompress(m.data, 3);
    const crc = crc32(m.data) >>> 0;
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0);
    lh.writeUInt16LE(63, 4);
    lh.writeUInt16LE(0x0800, 6);
    lh.writeUInt16LE(method, 8);
    lh.writeUInt32LE(crc, 14);
    lh.writeUInt32LE(packed.length, 18);
    lh.writeUInt32LE(m.data.length, 22);
    lh.writeUInt16LE(name.length, 26);
    fs.writeSync(fd, Buffer.concat([lh, name, packed]));
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0);
    ch.writeUInt16LE(63, 4);
    ch.writeUInt16LE(63, 6);
    ch.writeUInt16LE(0x0800, 8);
    ch.writeUInt16LE(method, 10);
    ch.writeUInt32LE(crc, 16);
    ch.writeUInt32LE(packed.length, 20);
    ch.writeUInt32LE(m.data.length, 24);
    ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(offset, 42);
    central.push(ch, name);
    offset += 30 + name.length + packed.length;
  });
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  fs.writeSync(fd, Buffer.concat([cd, end]));
  fs.closeSync(fd);
}
