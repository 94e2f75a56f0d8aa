// The keyboard focus ring is visible (issue 26, defect 6: #7aa7e8 was 2.2–2.5:1): every outline a
// :focus-visible rule of the site's stylesheet draws has at least 3:1 contrast (WCAG 2.1, 1.4.11)
// against white and against the page's background, where the site's controls sit.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = fs.readFileSync(new URL('../../web/styles/site.css', import.meta.url), 'utf8');

/** WCAG's relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
};

describe('the focus ring', () => {
  const page = /body \{[^}]*background: (#[0-9a-f]{6})/.exec(css)?.[1];
  // The rules that draw an outline (others use :focus-visible to show things, as the keyboard crosshair).
  const rings = [...css.matchAll(/[^{}]*:focus-visible[^{]*\{([^}]*)\}/g)]
    .filter((rule) => /outline\s*:/.test(rule[1]!))
    .map((rule) => /outline: \d+px solid (#[0-9a-f]{6})/.exec(rule[1]!)?.[1]);

  it('is drawn by every :focus-visible rule in a colour of at least 3:1 against white and the page', () => {
    expect(page).toBe('#f4f6f8');
    expect(rings.length).toBeGreaterThanOrEqual(3);
    for (const ring of rings) {
      expect(ring).toBeDefined();
      expect(contrast(ring!, '#ffffff')).toBeGreaterThanOrEqual(3);
      expect(contrast(ring!, page!)).toBeGreaterThanOrEqual(3);
    }
  });
});
