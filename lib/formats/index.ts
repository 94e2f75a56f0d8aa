// The parser of each import format (see types.ts for the contract); the parse activity runs
// them in a parser thread. `kml` also takes KMZ files, `excel` XLSX, XLS and ODS, `shapefile` a
// zip archive of shapefiles (or a bare .shp); `flatgeobuf` and `geopackage` one file each.
import type { ImportFileType } from '../jobContracts.js';
import { parseCsv } from './csv.js';
import { parseExcel } from './excel.js';
import { parseGeoJsonFile } from './geojson.js';
import { parseGpx } from './gpx.js';
import { parseFlatGeobuf } from './flatgeobuf.js';
import { parseGeoPackage } from './geopackage.js';
import { parseKml } from './kml.js';
import { parseShapefile } from './shapefile.js';
import type { FormatParser } from './types.js';

export const PARSERS: Record<ImportFileType, FormatParser> = {
  geojson: (input, options) => {
    const document = parseGeoJsonFile(input, options.sink);
    // ogr2ogr and QGIS write the layer's name as a top-level "name".
    return { document, skipped: [], media: [], name: typeof document.name === 'string' ? document.name : undefined };
  },
  kml: parseKml,
  gpx: parseGpx,
  csv: parseCsv,
  excel: parseExcel,
  shapefile: parseShapefile,
  flatgeobuf: parseFlatGeobuf,
  geopackage: parseGeoPackage,
};
