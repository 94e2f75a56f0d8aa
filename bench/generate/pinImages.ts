// The marker pictures staticmaps is given in the static-map comparison (bench/render.ts): the same
// Maki icons our renderer draws (node_modules/@mapbox/maki/icons/<name>.svg), rasterised once
// with sharp, white, 14 px, on a teardrop pin in the feature's colour with a white outline — the
// look of lib/render/pins.ts — as one PNG file per icon and colour.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { DEFAULT_FEATURE_COLOR } from '../../lib/featureStyle.js';
import { sharp } from '../../lib/media/sharp.js';
import { COLORS, ICONS, PIN, pinFile } from './mapContent.js';

const ICON_SIZE = 14;

const makiDir = path.join(path.dirname(createRequire(import.meta.url).resolve('@mapbox/maki/package.json')), 'icons');

function pinSvg(color: string): Buffer {
  // Two tangents from the tip to the circle make the teardrop (as pins.ts draws it).
  const r = PIN.width / 2 - 1.5;
  const cx = PIN.width / 2;
  const cy = r + 1.5;
  const tipY = PIN.height - 1;
  const angle = Math.asin(r / (tipY - cy));
  const left = [cx - r * Math.cos(angle), cy + r * Math.sin(angle)].map((v) => v.toFixed(3)).join(' ');
  const right = [cx + r * Math.cos(angle), cy + r * Math.sin(angle)].map((v) => v.toFixed(3)).join(' ');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PIN.width}" height="${PIN.height}">` +
      `<path d="M ${cx} ${tipY} L ${left} A ${r} ${r} 0 1 1 ${right} Z" fill="${color}" stroke="#ffffff" stroke-width="1.5"/></svg>`,
  );
}

/** The Maki icon white, at ICON_SIZE pixels. */
function iconSvg(name: string): Buffer {
  const svg = fs
    .readFileSync(path.join(makiDir, `${name}.svg`), 'utf8')
    .replace(/<svg\b([^>]*?)\swidth="[^"]*"/, '<svg$1')
    .replace(/<svg\b([^>]*?)\sheight="[^"]*"/, '<svg$1')
    .replace(/<svg\b/, `<svg width="${ICON_SIZE}" height="${ICON_SIZE}" fill="#ffffff"`);
  return Buffer.from(svg);
}

/** Writes every icon in every colour of the benchmark's content into `folder` (skipping files already there). */
export async function writePinImages(folder: string): Promise<void> {
  fs.mkdirSync(folder, { recursive: true });
  for (const icon of ICONS) {
    const iconPng = await sharp(iconSvg(icon)).png().toBuffer();
    for (const color of [...COLORS, DEFAULT_FEATURE_COLOR]) {
      const file = pinFile(folder, icon, color);
      if (fs.existsSync(file)) continue;
      const at = Math.round(PIN.width / 2 - ICON_SIZE / 2);
      await sharp(pinSvg(color))
        .composite([{ input: iconPng, left: at, top: at }])
        .png()
        .toFile(file);
    }
  }
}
