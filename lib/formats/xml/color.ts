// Colours of the XML formats → the map's `#rrggbb` (lower case).

const HEX6 = /^[0-9a-fA-F]{6}$/;
const HEX8 = /^[0-9a-fA-F]{8}$/;

/**
 * A KML colour (`aabbggrr`: alpha, blue, green, red) → `#rrggbb`. A 6-digit value is read as
 * `bbggrr`. A leading `#` or `0x` and surrounding white space are tolerated; anything else →
 * undefined.
 */
export function kmlColorToHex(raw: string): string | undefined {
  let text = raw.trim();
  if (text.startsWith('#')) text = text.slice(1);
  else if (text.startsWith('0x') || text.startsWith('0X')) text = text.slice(2);
  let bgr: string;
  if (HEX8.test(text)) bgr = text.slice(2);
  else if (HEX6.test(text)) bgr = text;
  else return undefined;
  return `#${bgr.slice(4, 6)}${bgr.slice(2, 4)}${bgr.slice(0, 2)}`.toLowerCase();
}

/** Garmin's DisplayColor names (GPX extensions gpxx:DisplayColor) → `#rrggbb`. */
const GARMIN_COLORS: ReadonlyMap<string, string> = new Map([
  ['black', '#000000'],
  ['darkred', '#8b0000'],
  ['darkgreen', '#006400'],
  ['darkyellow', '#b5b820'],
  ['darkblue', '#00008b'],
  ['darkmagenta', '#8b008b'],
  ['darkcyan', '#008b8b'],
  ['lightgray', '#d3d3d3'],
  ['darkgray', '#a9a9a9'],
  ['red', '#ff0000'],
  ['green', '#00ff00'],
  ['yellow', '#ffff00'],
  ['blue', '#0000ff'],
  ['magenta', '#ff00ff'],
  ['cyan', '#00ffff'],
  ['white', '#ffffff'],
]);

/** A Garmin colour name (case-insensitive) → `#rrggbb`; unknown names and `Transparent` → undefined. */
export function garminColorToHex(raw: string): string | undefined {
  return GARMIN_COLORS.get(raw.trim().toLowerCase());
}
