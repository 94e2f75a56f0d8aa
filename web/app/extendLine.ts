// Extending a line from one of its ends (the drawing adapter draws the extension as a new line
// that starts at that end): which end a click is on, and the line with the extension joined to
// it. Pure: positions are longitude/latitude, the projection to pixels is the caller's.

export type Position = [number, number];
export type LineEnd = 'start' | 'end';

/** The end of the line within `tolerance` pixels of the pointer (the nearer one), if any. */
export function endNear(coordinates: readonly Position[], pointer: Position, project: (position: Position) => Position, tolerance: number): LineEnd | undefined {
  if (coordinates.length < 2) return undefined;
  const distance = (position: Position) => {
    const [x, y] = project(position);
    return Math.hypot(pointer[0] - x, pointer[1] - y);
  };
  const start = distance(coordinates[0]!);
  const end = distance(coordinates[coordinates.length - 1]!);
  if (Math.min(start, end) > tolerance) return undefined;
  return end <= start ? 'end' : 'start';
}

/** The position a line's extension starts from. */
export function endPosition(coordinates: readonly Position[], end: LineEnd): Position {
  return (end === 'end' ? coordinates[coordinates.length - 1] : coordinates[0])!;
}

/**
 * The line with an extension joined at one end: `drawn` starts at that end (its first position
 * is the line's own and is not repeated); extended from the start, the drawn positions come
 * first, in reverse, so the line keeps its direction.
 */
export function joinExtension(coordinates: readonly Position[], end: LineEnd, drawn: readonly Position[]): Position[] {
  const added = drawn.slice(1);
  return end === 'end' ? [...coordinates, ...added] : [...added.reverse(), ...coordinates];
}
