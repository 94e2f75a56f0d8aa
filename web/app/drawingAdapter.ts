// Drawing and editing shapes on the map with terra-draw (DESIGN.md: behind the map adapter; only
// mapAdapter.ts uses this module). terra-draw holds only what is being drawn or edited right now:
// a new shape until it is finished, or the one feature taken out of the map's layer for editing
// (moving a point, dragging, inserting and deleting vertices): the other 100,000 features stay in
// MapLibre's source untouched.
import { TerraDraw, TerraDrawLineStringMode, TerraDrawPointMode, TerraDrawPolygonMode, TerraDrawSelectMode, type GeoJSONStoreFeatures } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';

export type DrawTool = 'select' | 'point' | 'linestring' | 'polygon';
export type EditableGeometry = { type: 'Point' | 'LineString' | 'Polygon'; coordinates: unknown };

export interface Drawing {
  setTool(tool: DrawTool): void;
  /** Puts a feature's geometry into the drawing for editing, selected. */
  edit(id: number, geometry: EditableGeometry): void;
  /** Ends the edit of the feature (if any): its geometry as edited, and it leaves the drawing. */
  finishEdit(): { id: number; geometry: EditableGeometry } | undefined;
  /** Drops the feature being edited without keeping its changes. */
  cancelEdit(): void;
  /** The id being edited, if any. */
  editing(): number | undefined;
}

const EDITABLE_FLAGS = { feature: { draggable: true, coordinates: { midpoints: true, draggable: true, deletable: true } } };
const SNAPPING = { toCoordinate: true, toLine: true };
const MODE_OF: Record<EditableGeometry['type'], DrawTool> = { Point: 'point', LineString: 'linestring', Polygon: 'polygon' };

export function isEditable(geometry: { type: string } | null | undefined): geometry is EditableGeometry {
  return !!geometry && geometry.type in MODE_OF;
}

/**
 * terra-draw on `map` (a MapLibre map). `onDrawn` gets each new shape when it is finished (it then
 * leaves the drawing: the caller adds it to the map's layer). New shapes get ids -1, -2, …,
 * counting down, so they never meet a saved feature's id.
 */
export function createDrawing(map: unknown, onDrawn: (id: number, geometry: EditableGeometry) => void): Drawing {
  let nextId = -1;
  const draw = new TerraDraw({
    adapter: new TerraDrawMapLibreGLAdapter({ map, prefixId: 'drawing' }),
    idStrategy: { isValidId: (id: string | number) => typeof id === 'number' && Number.isInteger(id), getId: () => nextId-- },
    modes: [
      new TerraDrawSelectMode({ flags: { point: { feature: { draggable: true } }, linestring: EDITABLE_FLAGS, polygon: EDITABLE_FLAGS } }),
      new TerraDrawPointMode(),
      new TerraDrawLineStringMode({ snapping: SNAPPING }),
      new TerraDrawPolygonMode({ snapping: SNAPPING }),
    ],
  });
  draw.start();
  let edited: number | undefined;

  draw.on('finish', (id, context) => {
    if (context.action !== 'draw' || typeof id !== 'number') return;
    const feature = draw.getSnapshotFeature(id);
    if (!feature || !isEditable(feature.geometry)) return;
    const geometry = feature.geometry as EditableGeometry;
    draw.removeFeatures([id]);
    onDrawn(id, geometry);
  });

  const geometryOf = (id: number): EditableGeometry | undefined => {
    const feature = draw.getSnapshotFeature(id);
    return feature && isEditable(feature.geometry) ? (feature.geometry as EditableGeometry) : undefined;
  };

  return {
    setTool(tool) {
      draw.setMode(tool);
    },
    edit(id, geometry) {
      const feature: GeoJSONStoreFeatures = { type: 'Feature', id, geometry: geometry as GeoJSONStoreFeatures['geometry'], properties: { mode: MODE_OF[geometry.type] } };
      const [validation] = draw.addFeatures([feature]);
      if (!validation?.valid) return;
      edited = id;
      draw.setMode('select');
      draw.selectFeature(id);
    },
    finishEdit() {
      if (edited === undefined) return undefined;
      const id = edited;
      edited = undefined;
      const geometry = geometryOf(id);
      if (draw.hasFeature(id)) {
        draw.deselectFeature(id); // its vertex and midpoint handles go with the selection
        draw.removeFeatures([id]);
      }
      return geometry ? { id, geometry } : undefined;
    },
    cancelEdit() {
      if (edited !== undefined && draw.hasFeature(edited)) {
        draw.deselectFeature(edited);
        draw.removeFeatures([edited]);
      }
      edited = undefined;
    },
    editing: () => edited,
  };
}
