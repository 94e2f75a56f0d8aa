// @mapbox/polylabel ships no types: the pole of inaccessibility of a polygon (outer ring first).
declare module '@mapbox/polylabel' {
  export default function polylabel(polygon: number[][][], precision?: number, debug?: boolean): [number, number] & { distance: number };
}
