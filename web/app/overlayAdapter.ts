// Image overlays on the browser's map (lib/geojson/overlay.ts): each visible overlay is a
// MapLibre image source (its image's 2048-pixel file laid into its four corners) with a raster
// layer at its opacity, under every layer of the map's items. The item itself stays in the
// items' source, drawn invisible, so a click on the image opens it as any area's click does.
import type { ImageSource, Map as MapLibreMap } from 'maplibre-gl';
import { isOverlay, overlayCorners, overlayOpacity } from '../../lib/geojson/overlay.js';
import type { Geometry } from '../../lib/geojson/geometry.js';
import { MEDIA_ID } from '../../lib/mediaId.js';
import type { MapFeature } from './mapFeature.js';

type Corner = [number, number];

/** What the map draws an overlay with. */
export interface OverlayDrawing {
  url: string;
  /** MapLibre's order: upper-left, upper-right, lower-right, lower-left. */
  coordinates: [Corner, Corner, Corner, Corner];
  opacity: number;
}

/** How an item is drawn as an overlay; undefined when it is not one (or not a complete one). */
export function overlayDrawing(feature: MapFeature): OverlayDrawing | undefined {
  const properties = feature.properties;
  if (!properties || !isOverlay(properties) || !feature.geometry) return undefined;
  const image = properties.image as { id?: unknown } | undefined;
  if (typeof image?.id !== 'string' || !MEDIA_ID.test(image.id)) return undefined;
  const corners = overlayCorners(feature.geometry as Geometry);
  if (!corners) return undefined;
  const [lowerLeft, lowerRight, upperRight, upperLeft] = corners.map(([lon, lat]) => [lon, lat] as Corner) as [Corner, Corner, Corner, Corner];
  return { url: `/images/${image.id}/s2048`, coordinates: [upperLeft, upperRight, lowerRight, lowerLeft], opacity: overlayOpacity(properties) };
}

/** The overlays of a map: `show` puts exactly the given ones on it (by key), in order, below `beforeLayer`. */
export function createOverlays(map: MapLibreMap, beforeLayer: string) {
  const onMap = new Map<string, { id: string; drawing: OverlayDrawing }>();
  let made = 0;
  const remove = (key: string) => {
    const layer = onMap.get(key)!;
    map.removeLayer(layer.id);
    map.removeSource(layer.id);
    onMap.delete(key);
  };
  const add = (key: string, drawing: OverlayDrawing) => {
    const id = `overlay-${++made}`;
    map.addSource(id, { type: 'image', url: drawing.url, coordinates: drawing.coordinates });
    map.addLayer({ id, type: 'raster', source: id, paint: { 'raster-opacity': drawing.opacity, 'raster-fade-duration': 0 } }, beforeLayer);
    onMap.set(key, { id, drawing });
  };
  return {
    show(wanted: ReadonlyMap<string, OverlayDrawing>) {
      for (const key of [...onMap.keys()]) if (!wanted.has(key)) remove(key);
      for (const [key, drawing] of wanted) {
        const shown = onMap.get(key);
        if (shown && shown.drawing.url !== drawing.url) remove(key);
        const current = onMap.get(key);
        if (!current) {
          add(key, drawing);
          continue;
        }
        if (JSON.stringify(current.drawing.coordinates) !== JSON.stringify(drawing.coordinates)) (map.getSource(current.id) as ImageSource).setCoordinates(drawing.coordinates);
        if (current.drawing.opacity !== drawing.opacity) map.setPaintProperty(current.id, 'raster-opacity', drawing.opacity);
        current.drawing = drawing;
      }
    },
  };
}
