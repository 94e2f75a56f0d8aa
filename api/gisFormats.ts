// What map/upload and map/append say about the GIS formats this service reads beyond the
// spec's file types (lib/formats/shapefile.ts, flatgeobuf.ts, geopackage.ts).

export const GIS_FORMATS_TEXT =
  'Beyond the spec\'s types, both take GIS files: `shapefile` (a zip archive of one or more .shp files with their .dbf, .prj and .cpg; ' +
  'several become one group each), `flatgeobuf` (.fgb) and `geopackage` (.gpkg; every feature table becomes a group of its own). ' +
  'Coordinates in any declared coordinate system are converted to WGS 84; a file in a system the service cannot convert is refused ' +
  'with `unknown_crs` naming it.';
