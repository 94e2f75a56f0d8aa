// The one typeface of the static images: Noto Sans from @fontsource/noto-sans (OFL), regular
// and bold, registered once per process from the package's files. Each Unicode subset is its
// own file; they are registered as separate families, listed in FONT_FAMILY so a glyph the
// Latin file lacks comes from the next one (Łódź, Москва, Αθήνα).
import { createRequire } from 'node:module';
import path from 'node:path';
import { GlobalFonts, type SKRSContext2D } from '@napi-rs/canvas';

const SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext', 'vietnamese'] as const;
const familyOf = (subset: string) => (subset === 'latin' ? 'Noto Sans' : `Noto Sans ${subset}`);

/** The CSS font-family list every label uses. */
export const FONT_FAMILY = SUBSETS.map((subset) => `"${familyOf(subset)}"`).join(', ');

let registered = false;

export function registerFonts(): void {
  if (registered) return;
  const require = createRequire(import.meta.url);
  const files = path.join(path.dirname(require.resolve('@fontsource/noto-sans/package.json')), 'files');
  for (const subset of SUBSETS) {
    for (const weight of [400, 700]) {
      const file = path.join(files, `noto-sans-${subset}-${weight}-normal.woff2`);
      if (!GlobalFonts.registerFromPath(file, familyOf(subset))) throw new Error(`Could not load the font ${file}`);
    }
  }
  registered = true;
}

/** A canvas font string: `bold 12px "Noto Sans", …`. */
export const font = (sizePx: number, bold = false): string => `${bold ? 'bold ' : ''}${sizePx.toFixed(1)}px ${FONT_FAMILY}`;

/** Text with an outline in `halo` under it, so it reads over any background. */
export function drawHaloText(ctx: SKRSContext2D, text: string, x: number, y: number, color: string, halo: string, haloWidth = 3): void {
  ctx.strokeStyle = halo;
  ctx.lineWidth = haloWidth;
  ctx.lineJoin = 'round';
  ctx.strokeText(text, x, y);
  ctx.fillStyle = color;
  ctx.fillText(text, x, y);
}
