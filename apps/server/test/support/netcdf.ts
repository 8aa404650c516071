/**
 * A NetCDF classic-format (CDF-1) writer for tests, after Unidata's "NetCDF Classic Format Specification": big-endian,
 * a header of dimensions, global attributes and variables (each with its attributes, type, size and offset), then each
 * variable's values, padded to 4 bytes. Enough for CF grids: coordinate variables and data variables, no record
 * dimension.
 */
type NcType = 'byte' | 'short' | 'int' | 'float' | 'double';
const TYPE = { byte: [1, 1], short: [3, 2], int: [4, 4], float: [5, 4], double: [6, 8] } as const;
const NC_CHAR = 2,
  NC_DIMENSION = 0x0a,
  NC_VARIABLE = 0x0b,
  NC_ATTRIBUTE = 0x0c;

const PACKING = new Set(['scale_factor', 'add_offset']);

export interface NcVar {
  name: string;
  dims: string[];
  type: NcType;
  values: ArrayLike<number>;
  /** Text attributes are strings; numeric ones are written as the variable's type (as CF wants _FillValue), scale_factor and add_offset as double. */
  attrs?: Record<string, string | number>;
}

export function netcdfClassic(o: { dims: Record<string, number>; vars: NcVar[]; globalAttrs?: Record<string, string> }): Buffer {
  const parts: Buffer[] = [];
  const int = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeInt32BE(n);
    return b;
  };
  const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
  const name = (s: string) => Buffer.concat([int(Buffer.byteLength(s)), pad(Buffer.from(s, 'utf8'))]);
  const values = (type: NcType, vs: ArrayLike<number>) => {
    const b = Buffer.alloc(vs.length * TYPE[type][1]);
    for (let i = 0; i < vs.length; i++) {
      const v = vs[i]!;
      if (type === 'byte') b.writeInt8(v, i);
      else if (type === 'short') b.writeInt16BE(v, i * 2);
      else if (type === 'int') b.writeInt32BE(v, i * 4);
      else if (type === 'float') b.writeFloatBE(v, i * 4);
      else b.writeDoubleBE(v, i * 8);
    }
    return pad(b);
  };
  const attrList = (attrs: Record<string, string | number> | undefined, numType: NcType) => {
    const entries = Object.entries(attrs ?? {});
    if (!entries.length) return Buffer.concat([int(0), int(0)]);
    return Buffer.concat([
      int(NC_ATTRIBUTE),
      int(entries.length),
      ...entries.map(([k, v]) =>
        typeof v === 'string'
          ? Buffer.concat([name(k), int(NC_CHAR), int(Buffer.byteLength(v)), pad(Buffer.from(v, 'utf8'))])
          : // CF: scale_factor and add_offset have the type of the unpacked data (here double); the others the variable's
            Buffer.concat([name(k), int(TYPE[PACKING.has(k) ? 'double' : numType][0]), int(1), values(PACKING.has(k) ? 'double' : numType, [v])]),
      ),
    ]);
  };
  const dimNames = Object.keys(o.dims);
  const dimList = Buffer.concat([int(NC_DIMENSION), int(dimNames.length), ...dimNames.map((d) => Buffer.concat([name(d), int(o.dims[d]!)]))]);
  const data = o.vars.map((v) => values(v.type, v.values));
  // the header's size does not depend on the offsets (4 bytes each in CDF-1): lay it out once with zeros, then again
  const header = (offsets: number[]) =>
    Buffer.concat([
      Buffer.from('CDF\x01', 'latin1'),
      int(0),
      dimList,
      attrList(o.globalAttrs, 'float'),
      int(NC_VARIABLE),
      int(o.vars.length),
      ...o.vars.map((v, i) =>
        Buffer.concat([
          name(v.name),
          int(v.dims.length),
          ...v.dims.map((d) => int(dimNames.indexOf(d))),
          attrList(v.attrs, v.type),
          int(TYPE[v.type][0]),
          int(data[i]!.length),
          int(offsets[i] ?? 0),
        ]),
      ),
    ]);
  const size = header([]).length;
  const offsets: number[] = [];
  let at = size;
  for (const d of data) {
    offsets.push(at);
    at += d.length;
  }
  parts.push(header(offsets), ...data);
  return Buffer.concat(parts);
}
