/** A minimal zip writer for hand-made (and hostile) .xlsx files: deflated entries, with optional lying sizes. */
import { crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** Deflated bytes and the true uncompressed size and CRC. */
  deflated: Buffer;
  size: number;
  crc: number;
  /** Uncompressed size written in the headers when it should lie. */
  declaredSize?: number;
}

export function entry(name: string, data: string | Buffer): ZipEntry {
  const b = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return { name, deflated: deflateRawSync(b), size: b.length, crc: crc32(b) };
}

/** An entry of `repeat` copies of `chunk` after `head` and before `tail`, deflated as a stream (small memory). */
export async function bigEntry(name: string, head: string, chunk: string, repeat: number, tail: string): Promise<ZipEntry> {
  const z = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  z.on('data', (d: Buffer) => out.push(d));
  const done = new Promise((r) => z.on('end', r));
  const c = Buffer.from(chunk);
  let crc = crc32(head);
  let size = Buffer.byteLength(head);
  z.write(head);
  for (let i = 0; i < repeat; i++) {
    crc = crc32(c, crc);
    size += c.length;
    if (!z.write(c)) await new Promise((r) => z.once('drain', r));
  }
  crc = crc32(tail, crc);
  size += Buffer.byteLength(tail);
  z.end(tail);
  await done;
  return { name, deflated: Buffer.concat(out), size, crc };
}

export function zip(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const size = e.declaredSize ?? e.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.deflated.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(e.crc >>> 0, 16);
    central.writeUInt32LE(e.deflated.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.deflated);
    centrals.push(central, name);
    offset += 30 + name.length + e.deflated.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const CT =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
const WB =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Assets" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WB_RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';
export const SHEET_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
export const SHEET_TAIL = '</sheetData></worksheet>';

/** An .xlsx whose first sheet is `sheet` (a ready entry named xl/worksheets/sheet1.xml). */
export function xlsxWith(sheet: ZipEntry): Buffer {
  return zip([entry('[Content_Types].xml', CT), entry('_rels/.rels', RELS), entry('xl/workbook.xml', WB), entry('xl/_rels/workbook.xml.rels', WB_RELS), sheet]);
}
