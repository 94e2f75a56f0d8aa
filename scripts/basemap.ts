// `npm run basemap -- <command>`: street map archives for BASEMAP_TILES (scripts/basemap/build.ts).
//   build <extract.osm.pbf> [--output data/basemap.pmtiles] [--shapefiles DIR] [--profile DIR] [--store DIR]
//       an OpenStreetMap extract → a PMTiles archive in the OpenMapTiles schema, with tilemaker
//   fixture
//       builds (or finds) the tests' Helsinki archive and prints its path (.ci/run, benchmarks)
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BuildProblem, buildStreetArchive, ensureStreetFixture } from './basemap/build.js';

const USAGE = `Usage:
  npm run basemap -- build <extract.osm.pbf> [--output data/basemap.pmtiles] [--shapefiles DIR] [--profile DIR] [--store DIR]
  npm run basemap -- fixture`;

function main(): void {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { output: { type: 'string' }, shapefiles: { type: 'string' }, profile: { type: 'string' }, store: { type: 'string' } },
  });
  const [command, input, ...rest] = positionals;
  if (command === 'fixture' && !input) {
    // The path alone on stdout; progress on stderr.
    console.log(ensureStreetFixture((line) => console.error(line)));
    return;
  }
  if (command !== 'build' || !input || rest.length > 0) {
    console.error(USAGE);
    process.exit(2);
  }
  const output = values.output ?? path.join('data', 'basemap.pmtiles');
  const report = buildStreetArchive({ input, output, shapefiles: values.shapefiles, profile: values.profile, store: values.store, showProgress: true });
  const megabytes = (report.bytes / 1024 / 1024).toFixed(1);
  console.log(`\nWrote ${report.output} (${megabytes} MB) in ${Math.round(report.seconds)} s. Start the service with:\n  BASEMAP_TILES=${path.resolve(report.output)} npm start`);
  if (report.leftOut.length > 0) {
    console.log(`Left out for want of their shapefiles: ${report.leftOut.map((layer) => layer.split(' ')[0]).join(', ')} (README "Street maps" says where the files come from; --shapefiles DIR).`);
  }
}

try {
  main();
} catch (error) {
  console.error(error instanceof BuildProblem ? error.message : error);
  process.exit(1);
}
