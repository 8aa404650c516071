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
