// The colours of the built-in basemaps, shared by the static renderer and the browser's map
// style so a map looks the same in its image and on its page.
export type PaletteName = 'classic' | 'light' | 'dark';

export interface Palette {
  water: string;
  land: string;
  /** Country borders on land. */
  border: string;
  /** The coastline drawn over land's edge. */
  coast: string;
  countryLabel: string;
  capitalLabel: string;
  capitalDot: string;
  /** The outline drawn around label text so it reads over any colour. */
  labelHalo: string;
  /** Attribution text and its box. */
  attribution: string;
  attributionBox: string;
}

export const PALETTES: Record<PaletteName, Palette> = {
  classic: {
    water: '#aad3df',
    land: '#f2efe9',
    border: '#9e9cab',
    coast: '#8fb8c9',
    countryLabel: '#5a4f6b',
    capitalLabel: '#333333',
    capitalDot: '#555555',
    labelHalo: '#ffffff',
    attribution: '#333333',
    attributionBox: 'rgba(255,255,255,0.75)',
  },
  light: {
    water: '#d4dadc',
    land: '#fafaf8',
    border: '#c4c4c4',
    coast: '#c0c9cc',
    countryLabel: '#8a8a8a',
    capitalLabel: '#6b6b6b',
    capitalDot: '#8a8a8a',
    labelHalo: '#ffffff',
    attribution: '#555555',
    attributionBox: 'rgba(255,255,255,0.75)',
  },
  dark: {
    water: '#1b2631',
    land: '#343a40',
    border: '#5c636a',
    coast: '#27323d',
    countryLabel: '#b8bec4',
    capitalLabel: '#d6d9dc',
    capitalDot: '#9aa1a8',
    labelHalo: '#1b1f23',
    attribution: '#d6d9dc',
    attributionBox: 'rgba(0,0,0,0.55)',
  },
};
