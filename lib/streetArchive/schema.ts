// Whether an archive holds what the built-in styles draw: Mapbox vector tiles in the
// OpenMapTiles schema (openmaptiles.org/schema), told by the `vector_layers` of its metadata.
// Builds of the schema (tilemaker's OpenMapTiles profile, planetiler's, OpenMapTiles' own) all
// have the layers below; another schema (Protomaps' `roads`, `places`, `earth` …, or Shortbread's)
// lacks most of them. The optional layers of the schema (aeroway, aerodrome_label,
// mountain_peak) are drawn when they are there.
import { Compression, TileType } from 'pmtiles';

/** The OpenMapTiles layers every archive must list. */
export const OPENMAPTILES_LAYERS = [
  'water',
  'waterway',
  'landcover',
  'landuse',
  'park',
  'boundary',
  'transportation',
  'transportation_name',
  'building',
  'housenumber',
  'place',
  'water_name',
  'poi',
] as const;

/** One layer as the metadata declares it (TileJSON's vector_layers). */
export interface VectorLayer {
  id: string;
  minzoom?: number;
  maxzoom?: number;
  fields?: Record<string, string>;
}

/**
 * The metadata's vector_layers: at its top level (planetiler, go-pmtiles), or inside the `json`
 * text an MBTiles file carries and converters copy as it is (tilemaker → pmtiles-convert).
 */
export function vectorLayersOf(metadata: unknown): VectorLayer[] | undefined {
  const record = (metadata ?? {}) as { vector_layers?: unknown; json?: unknown };
  let layers = record.vector_layers;
  if (layers === undefined && typeof record.json === 'string') {
    try {
      layers = (JSON.parse(record.json) as { vector_layers?: unknown }).vector_layers;
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(layers)) return undefined;
  return layers.filter((layer): layer is VectorLayer => typeof (layer as VectorLayer)?.id === 'string');
}

const TILE_TYPES: Record<number, string> = { [TileType.Png]: 'PNG', [TileType.Jpeg]: 'JPEG', [TileType.Webp]: 'WebP', [TileType.Avif]: 'AVIF', [TileType.Mlt]: 'MapLibre Tile (MLT)' };
const COMPRESSIONS: Record<number, string> = { [Compression.Unknown]: 'unknown', [Compression.Brotli]: 'brotli', [Compression.Zstd]: 'zstd' };

/** Why the archive cannot be drawn by the built-in styles, or undefined when it can. */
export function schemaProblem(tileType: TileType, tileCompression: Compression, layers: VectorLayer[] | undefined): string | undefined {
  if (tileType !== TileType.Mvt) return `holds ${TILE_TYPES[tileType] ?? 'unknown'} tiles, not Mapbox vector tiles (MVT) in the OpenMapTiles schema`;
  if (tileCompression !== Compression.Gzip && tileCompression !== Compression.None) {
    return `its tiles are compressed with ${COMPRESSIONS[tileCompression] ?? tileCompression}; the service reads gzip or uncompressed tiles`;
  }
  if (!layers) return 'its metadata lists no vector_layers, so its schema cannot be told (an OpenMapTiles archive lists its layers there)';
  const ids = new Set(layers.map((layer) => layer.id));
  const missing = OPENMAPTILES_LAYERS.filter((id) => !ids.has(id));
  if (missing.length > 0) {
    const has = [...ids].slice(0, 12).join(', ') || 'none';
    return `is not in the OpenMapTiles schema: it lacks the layers ${missing.join(', ')} (it has ${has})`;
  }
  return undefined;
}
