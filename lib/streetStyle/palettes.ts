// The street map's colours in each built-in basemap's palette (lib/basemapPalettes.ts keeps the
// Natural Earth ones: water, land, borders, country labels). Shared by every drawing of the style
// description (./description.ts): the browser's MapLibre style and the static renderer.
import type { PaletteName } from '../basemapPalettes.js';

export interface StreetPalette {
  wood: string;
  grass: string;
  sand: string;
  wetland: string;
  residential: string;
  industrial: string;
  commercial: string;
  /** Schools, universities, hospitals. */
  institution: string;
  cemetery: string;
  pitch: string;
  water: string;
  waterway: string;
  building: string;
  buildingOutline: string;
  motorway: string;
  primary: string;
  secondary: string;
  minor: string;
  /** The edge drawn under every road, and the one of a tunnel (dashed). */
  casing: string;
  path: string;
  rail: string;
  boundary: string;
  placeLabel: string;
  roadLabel: string;
  waterLabel: string;
  poiLabel: string;
  poiDot: string;
  houseNumber: string;
  /** The outline drawn around label text. */
  labelHalo: string;
}

export const STREET_PALETTES: Record<PaletteName, StreetPalette> = {
  classic: {
    wood: '#add19e',
    grass: '#cdebb0',
    sand: '#f5e9c6',
    wetland: '#d6e8d8',
    residential: '#e8e2dc',
    industrial: '#ebdbe8',
    commercial: '#f2dad9',
    institution: '#f0f0d8',
    cemetery: '#aacbaf',
    pitch: '#aae0cb',
    water: '#aad3df',
    waterway: '#aad3df',
    building: '#d9d0c9',
    buildingOutline: '#c4b6ab',
    motorway: '#e892a2',
    primary: '#fcd6a4',
    secondary: '#f7fabf',
    minor: '#ffffff',
    casing: '#b5aca4',
    path: '#fa8072',
    rail: '#8a8a8a',
    boundary: '#9e9cab',
    placeLabel: '#333333',
    roadLabel: '#4a4a4a',
    waterLabel: '#2d6a8f',
    poiLabel: '#6b4f3a',
    poiDot: '#9b6b4a',
    houseNumber: '#6e6e6e',
    labelHalo: '#ffffff',
  },
  light: {
    wood: '#e2e8de',
    grass: '#e8ede4',
    sand: '#f3f1ea',
    wetland: '#e6ece8',
    residential: '#f1f1ee',
    industrial: '#eeeef0',
    commercial: '#f1eeee',
    institution: '#f0f0ea',
    cemetery: '#e0e6df',
    pitch: '#e3ebe6',
    water: '#d4dadc',
    waterway: '#d4dadc',
    building: '#e4e4e1',
    buildingOutline: '#d3d3cf',
    motorway: '#ffffff',
    primary: '#ffffff',
    secondary: '#ffffff',
    minor: '#ffffff',
    casing: '#d2d2d2',
    path: '#bdbdbd',
    rail: '#c2c2c2',
    boundary: '#c4c4c4',
    placeLabel: '#555555',
    roadLabel: '#6b6b6b',
    waterLabel: '#7a8a90',
    poiLabel: '#777777',
    poiDot: '#a0a0a0',
    houseNumber: '#8a8a8a',
    labelHalo: '#ffffff',
  },
  dark: {
    wood: '#2e3a32',
    grass: '#33403a',
    sand: '#403e37',
    wetland: '#2f3a38',
    residential: '#383d43',
    industrial: '#3a3c44',
    commercial: '#3d3a40',
    institution: '#3b3d3a',
    cemetery: '#34403a',
    pitch: '#2f3d39',
    water: '#1b2631',
    waterway: '#1b2631',
    building: '#2a2f35',
    buildingOutline: '#22262b',
    motorway: '#8a7550',
    primary: '#6a6453',
    secondary: '#575b60',
    minor: '#4a5057',
    casing: '#24282c',
    path: '#66707a',
    rail: '#6a7178',
    boundary: '#5c636a',
    placeLabel: '#dfe2e5',
    roadLabel: '#c3c8cd',
    waterLabel: '#86a8c4',
    poiLabel: '#c9b8a6',
    poiDot: '#a08a74',
    houseNumber: '#9aa1a8',
    labelHalo: '#1b1f23',
  },
};
