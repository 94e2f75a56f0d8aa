// The web font of the built-in basemaps' labels in the browser: Noto Sans from
// @fontsource/noto-sans (SIL Open Font License), as the static renderer uses it. MapLibre GL JS
// (5.11 and later) draws the labels with a CSS font when the style has no `glyphs`, so the
// service serves a small stylesheet of @font-face rules (GET /basemaps/fonts/noto-sans.css) and
// the woff2 files it names, nothing else from the package. The browser fetches a file only when
// a label needs a character of its unicode-range.
//
// Subsets: Latin, Latin Extended, Cyrillic and Greek, regular (400) and bold (700). Every country
// and capital name of the data needs only the first two (the ā of Matā'utu is Latin Extended; a
// unit test checks every name); Cyrillic and Greek are for the labels of a map's own items.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { versionTag } from './pinnedVersions.js';

export const FONT_FAMILY = 'Noto Sans';
export const FONT_CSS_NAME = 'noto-sans.css';
export const FONT_SUBSETS = ['latin', 'latin-ext', 'cyrillic', 'greek'] as const;
const WEIGHTS = [400, 700] as const;

/** Names the files' content in their ETags: bump FONTS_SCHEMA when the stylesheet changes. */
const FONTS_SCHEMA = 'fonts-1';
export const BASEMAP_FONTS_VERSION = versionTag(FONTS_SCHEMA, ['@fontsource/noto-sans']);

const require = createRequire(import.meta.url);
const packageDir = path.dirname(require.resolve('@fontsource/noto-sans/package.json'));

const fileName = (subset: string, weight: number) => `noto-sans-${subset}-${weight}-normal.woff2`;

/** The served woff2 files by name: the allow-list, so no other name reaches the disk. */
const FILES: ReadonlyMap<string, string> = new Map(
  FONT_SUBSETS.flatMap((subset) => WEIGHTS.map((weight) => [fileName(subset, weight), path.join(packageDir, 'files', fileName(subset, weight))] as const)),
);

/** The path of an allow-listed font file, or undefined for any other name. */
export const basemapFontFile = (name: string): string | undefined => FILES.get(name);

/** Each subset's unicode-range, as fontsource publishes it. */
function unicodeRanges(): Record<string, string> {
  return JSON.parse(fs.readFileSync(path.join(packageDir, 'unicode.json'), 'utf8')) as Record<string, string>;
}

let css: string | undefined;

/** The stylesheet: one @font-face per file, URLs relative to the stylesheet's own. */
export function basemapFontCss(): string {
  if (css) return css;
  const ranges = unicodeRanges();
  const rules = FONT_SUBSETS.flatMap((subset) =>
    WEIGHTS.map((weight) =>
      [
        '@font-face {',
        `  font-family: '${FONT_FAMILY}';`,
        '  font-style: normal;',
        '  font-display: swap;',
        `  font-weight: ${weight};`,
        `  src: url(${fileName(subset, weight)}) format('woff2');`,
        `  unicode-range: ${ranges[subset]};`,
        '}',
      ].join('\n'),
    ),
  );
  css = `/* ${FONT_FAMILY} (SIL Open Font License 1.1), from @fontsource/noto-sans: the labels of the built-in basemaps. */\n${rules.join('\n\n')}\n`;
  return css;
}
