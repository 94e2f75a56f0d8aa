// The built-in point icons (`marker-symbol`): the Maki set (@mapbox/maki, CC0), drawn white on
// the feature's coloured pin by the static renderer and the browser map alike.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const MAKI_DIR = path.join(path.dirname(require.resolve('@mapbox/maki/package.json')), 'icons');
const MAKI_NAMES: ReadonlySet<string> = new Set(
  fs.readdirSync(MAKI_DIR).filter((file) => file.endsWith('.svg')).map((file) => file.slice(0, -4)),
);

/** The Maki icon a `marker-symbol` names (older `name-15` forms too), or undefined. */
export function makiName(symbol: string | undefined): string | undefined {
  if (!symbol) return undefined;
  const name = symbol.toLowerCase().replace(/-(11|15)$/, '');
  return MAKI_NAMES.has(name) ? name : undefined;
}

/** Every built-in icon's name, in order (the editor's icon choice). */
export const makiNames = (): string[] => [...MAKI_NAMES].sort();

const svgs = new Map<string, Buffer>();

/** A Maki icon's SVG in `fill` (#rrggbb) at `sizePx` (rasterised at the size it is shown: crisp). `name` must be a makiName. */
export function makiSvg(name: string, sizePx: number, fill: string): Buffer {
  const key = `${name}@${sizePx}${fill}`;
  let svg = svgs.get(key);
  if (!svg) {
    if (!MAKI_NAMES.has(name)) throw new Error(`No Maki icon ${name}`);
    if (!/^#[0-9a-f]{6}$/i.test(fill)) throw new Error(`Not a colour: ${fill}`);
    const text = fs
      .readFileSync(path.join(MAKI_DIR, `${name}.svg`), 'utf8')
      .replace(/<svg\b([^>]*?)\swidth="[^"]*"/, '<svg$1')
      .replace(/<svg\b([^>]*?)\sheight="[^"]*"/, '<svg$1')
      .replace(/<svg\b/, `<svg width="${sizePx}" height="${sizePx}" fill="${fill}"`);
    svg = Buffer.from(text);
    svgs.set(key, svg);
  }
  return svg;
}

/** A Maki icon drawn white (on a pin or a coloured circle). */
export const whiteMakiSvg = (name: string, sizePx: number): Buffer => makiSvg(name, sizePx, '#ffffff');
