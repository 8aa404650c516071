import { writeArrayBuffer } from 'geotiff';

/**
 * A small single-band float32 GeoTIFF for tests, in any CRS: top-left corner (x0, y0) and pixel size `res` in the
 * CRS's units, values from `fill` (a number or a function of column and row), GeoKeys as given (e.g.
 * { ProjectedCSTypeGeoKey: 3857, GTModelTypeGeoKey: 1 }), optional GDAL nodata value.
 */
export function geoTiff(o: {
  width: number;
  height: number;
  x0: number;
  y0: number;
  res: number;
  fill: number | ((col: number, row: number) => number);
  geoKeys: Record<string, number>;
  nodata?: number;
}): Buffer {
  const data = new Float32Array(o.width * o.height);
  for (let r = 0; r < o.height; r++) for (let c = 0; c < o.width; c++) data[r * o.width + c] = typeof o.fill === 'number' ? o.fill : o.fill(c, r);
  const ab = writeArrayBuffer(data, {
    width: o.width,
    height: o.height,
    BitsPerSample: [32],
    SampleFormat: [3],
    SamplesPerPixel: 1,
    ModelPixelScale: [o.res, o.res, 0],
    ModelTiepoint: [0, 0, 0, o.x0, o.y0, 0],
    ...o.geoKeys,
    ...(o.nodata !== undefined ? { GDAL_NODATA: String(o.nodata) } : {}),
  });
  return Buffer.from(ab);
}

/** Web Mercator (EPSG:3857) metres of a longitude/latitude (spherical, R = 6,378,137 m). */
export function webMercator(lng: number, lat: number): [number, number] {
  const R = 6378137;
  return [((lng * Math.PI) / 180) * R, R * Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 180 / 2))];
}

/** The sample types the typed writer below writes: TIFF BitsPerSample and SampleFormat (1 unsigned, 2 signed, 3 float). */
const SAMPLE_TYPES = {
  uint8: { bits: 8, format: 1, put: (b: Buffer, v: number, at: number) => b.writeUInt8(v, at) },
  int16: { bits: 16, format: 2, put: (b: Buffer, v: number, at: number) => b.writeInt16LE(v, at) },
  float32: { bits: 32, format: 3, put: (b: Buffer, v: number, at: number) => b.writeFloatLE(v, at) },
} as const;

/**
 * A GeoTIFF written byte by byte as GDAL writes one (TIFF 6.0 + GeoTIFF 1.0, little-endian, one uncompressed strip,
 * pixel-interleaved): any number of bands of uint8, int16 or float32, a geographic or projected EPSG code, GDAL_NODATA,
 * and the GDAL_METADATA tag (42112) with per-band SCALE and OFFSET items (`<Item name="SCALE" sample="0"
 * role="scale">`), which is where `gdal_translate -a_scale/-a_offset` and `gdal_edit.py` put them.
 */
export function typedGeoTiff(o: {
  width: number;
  height: number;
  x0: number;
  y0: number;
  res: number;
  type: keyof typeof SAMPLE_TYPES;
  bands: number;
  /** The raw (stored) value of band b (0-based) at column c, row r (rows from the north). */
  value: (c: number, r: number, b: number) => number;
  epsg: number;
  projected: boolean;
  nodata?: number;
  /** Per band (0-based): scale and offset written into GDAL_METADATA. */
  scaleOffset?: { scale?: number; offset?: number }[];
}): Buffer {
  const t = SAMPLE_TYPES[o.type];
  const bytesPer = t.bits / 8;
  const pixels = Buffer.alloc(o.width * o.height * o.bands * bytesPer);
  for (let r = 0; r < o.height; r++)
    for (let c = 0; c < o.width; c++) for (let b = 0; b < o.bands; b++) t.put(pixels, o.value(c, r, b), ((r * o.width + c) * o.bands + b) * bytesPer);
  const geoKeys = o.projected ? [1, 1, 0, 3, 1024, 0, 1, 1, 1025, 0, 1, 1, 3072, 0, 1, o.epsg] : [1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, o.epsg];
  const items = (o.scaleOffset ?? []).flatMap((so, b) => [
    ...(so.offset !== undefined ? [`<Item name="OFFSET" sample="${b}" role="offset">${so.offset}</Item>`] : []),
    ...(so.scale !== undefined ? [`<Item name="SCALE" sample="${b}" role="scale">${so.scale}</Item>`] : []),
  ]);
  type Tag = [number, 2 | 3 | 4 | 12, number[] | string];
  const tags: Tag[] = [
    [256, 4, [o.width]],
    [257, 4, [o.height]],
    [258, 3, Array.from({ length: o.bands }, () => t.bits)],
    [259, 3, [1]],
    [262, 3, [1]],
    [273, 4, [0]],
    [277, 3, [o.bands]],
    [278, 4, [o.height]],
    [279, 4, [pixels.length]],
    [284, 3, [1]],
    [339, 3, Array.from({ length: o.bands }, () => t.format)],
    [33550, 12, [o.res, o.res, 0]],
    [33922, 12, [0, 0, 0, o.x0, o.y0, 0]],
    [34735, 3, geoKeys],
    ...(items.length ? ([[42112, 2, `<GDALMetadata>\n  ${items.join('\n  ')}\n</GDALMetadata>\n`]] as Tag[]) : []),
    ...(o.nodata !== undefined ? ([[42113, 2, String(o.nodata)]] as Tag[]) : []),
  ];
  const size = { 2: 1, 3: 2, 4: 4, 12: 8 } as const;
  const valueBytes = ([, type, v]: Tag): Buffer => {
    if (typeof v === 'string') return Buffer.from(v + '\0', 'latin1');
    const b = Buffer.alloc(v.length * size[type]);
    v.forEach((x, k) => (type === 3 ? b.writeUInt16LE(x, k * 2) : type === 4 ? b.writeUInt32LE(x, k * 4) : b.writeDoubleLE(x, k * 8)));
    return b;
  };
  const ifdAt = 8;
  const ifdBytes = 2 + tags.length * 12 + 4;
  let at = ifdAt + ifdBytes;
  const extras: { at: number; bytes: Buffer }[] = [];
  const outOfLine = new Map<number, number>();
  for (const tag of tags) {
    const vb = valueBytes(tag);
    if (vb.length > 4) {
      outOfLine.set(tag[0], at);
      extras.push({ at, bytes: vb });
      at += vb.length + (vb.length % 2);
    }
  }
  tags.find((x) => x[0] === 273)![2] = [at];
  const out = Buffer.alloc(at + pixels.length);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(ifdAt, 4);
  out.writeUInt16LE(tags.length, ifdAt);
  let p = ifdAt + 2;
  for (const tag of tags) {
    const vb = valueBytes(tag);
    out.writeUInt16LE(tag[0], p);
    out.writeUInt16LE(tag[1], p + 2);
    out.writeUInt32LE(typeof tag[2] === 'string' ? vb.length : tag[2].length, p + 4);
    if (vb.length <= 4) vb.copy(out, p + 8);
    else out.writeUInt32LE(outOfLine.get(tag[0])!, p + 8);
    p += 12;
  }
  for (const e of extras) e.bytes.copy(out, e.at);
  pixels.copy(out, at);
  return out;
}
