// Text labels (lib/textLabels.ts) in KML, both ways. Written: a Placemark whose Style hides the
// icon (IconStyle scale 0) and colours and sizes its name (LabelStyle color, and scale =
// text_size / 16), so Google Earth shows the text alone. Read: a point placemark whose style has
// IconStyle scale 0 is a text label, its colour from LabelStyle (else IconStyle) and its size from
// the LabelStyle scale.
import { textLabelColor, textSize, TEXT_SIZE, MIN_TEXT_SIZE, MAX_TEXT_SIZE } from '../textLabels.js';

/** #rrggbb as KML's aabbggrr, opaque. */
const kmlColor = (hex: string): string => `ff${hex.slice(5, 7)}${hex.slice(3, 5)}${hex.slice(1, 3)}`.toLowerCase();

/** The inline Style of a text label's Placemark. */
export function textLabelStyleKml(properties: Record<string, unknown>): string {
  const scale = Math.round((textSize(properties) / TEXT_SIZE) * 100) / 100;
  return `<Style><IconStyle><scale>0</scale></IconStyle><LabelStyle><color>${kmlColor(textLabelColor(properties))}</color><scale>${scale}</scale></LabelStyle></Style>`;
}

/** What a point's resolved KML style says of it as a text label. */
export interface LabelStyleData {
  iconScale?: number;
  iconColor?: string;
  labelColor?: string;
  labelScale?: number;
}

/** Marks a point placemark as a text label when its icon is hidden (IconStyle scale 0); true if it did. */
export function applyTextLabelStyle(properties: Record<string, unknown>, style: LabelStyleData): boolean {
  if (style.iconScale !== 0) return false;
  properties.text_label = true;
  const color = style.labelColor ?? style.iconColor;
  if (color !== undefined) properties.color = color;
  if (style.labelScale !== undefined && style.labelScale > 0 && style.labelScale !== 1) {
    properties.text_size = Math.round(Math.max(MIN_TEXT_SIZE, Math.min(MAX_TEXT_SIZE, style.labelScale * TEXT_SIZE)));
  }
  return true;
}
