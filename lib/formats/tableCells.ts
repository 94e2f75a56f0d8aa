// The values of table cells: their text, coordinates, colours, visibility and image URLs of
// this service, read the same way whichever table format delivered them (./table.ts).

import { shorten, withoutLoneSurrogates } from '../geojson/json-data.js';

/** One cell as the readers deliver it: dates arrive as ISO strings, empty cells as null/undefined. */
export type TableCell = string | number | boolean | null | undefined;

// ---------------------------------------------------------------- text helpers

/** Removes NUL characters and lone surrogates (PostgreSQL's jsonb cannot store them). */
export function cleanText(text: string): string {
  return withoutLoneSurrogates(text.indexOf('\u0000') === -1 ? text : text.replaceAll('\u0000', ''));
}

/**
 * Text a spreadsheet would run as a formula (CWE-1236): it starts with =, +, -, @, tab or carriage
 * return, or the full-width =, +, - and @ some spreadsheets also take. The downloads (CSV and
 * XLSX, export/table.ts) write such a cell with one more apostrophe in front, and the table import
 * takes one off again. Apostrophes already in front count: a title that really starts with `'=`
 * is written `''=` and comes back as it was.
 */
const FORMULA_START = /^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** The text as a download writes it: with a leading apostrophe when it looks like a formula. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** The text a download neutralised, as it was (one apostrophe off); other text as it is. */
function restoreFormula(text: string): string {
  return text.charCodeAt(0) === 0x27 && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

/** The text of a cell, trimmed and cleaned (a neutralised formula restored); '' for an empty cell. */
export function textOfCell(cell: TableCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'string') {
    const trimmed = cell.trim();
    if (trimmed === '') return '';
    return cleanText(restoreFormula(trimmed));
  }
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  return cell ? 'TRUE' : 'FALSE';
}

export function quote(text: string): string {
  return JSON.stringify(cleanText(shorten(text, 40)));
}

// ---------------------------------------------------------------- values

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;

/** A coordinate from a cell: a number, or a problem. */
export function coordinate(cell: TableCell, name: 'latitude' | 'longitude', limit: number): number | string {
  let value: number;
  if (typeof cell === 'number') {
    value = cell;
    if (!Number.isFinite(value)) return `${name} ${String(value)} is not a finite number`;
  } else {
    const text = textOfCell(cell);
    if (text === '') return `${name} is empty`;
    if (typeof cell === 'boolean') return `${name} ${text} is not a number`;
    if (DECIMAL.test(text)) value = Number(text);
    else if (DECIMAL_COMMA.test(text)) value = Number(text.replace(',', '.'));
    else return `${name} ${quote(text)} is not a number`;
    if (!Number.isFinite(value)) return `${name} ${quote(text)} is not a finite number`;
  }
  if (value < -limit || value > limit) return `${name} ${value} is out of range (-${limit} to ${limit})`;
  return value + 0; // -0 → 0
}

const HEX6 = /^#?([0-9a-fA-F]{6})$/;
const HEX3 = /^#([0-9a-fA-F])([0-9a-fA-F])([0-9a-fA-F])$/;

/** `#rrggbb` (lower case) from `#rrggbb`, `rrggbb` or `#rgb` in any case; null otherwise. */
export function normaliseColor(text: string): string | null {
  const six = HEX6.exec(text);
  if (six) return `#${(six[1] as string).toLowerCase()}`;
  const three = HEX3.exec(text);
  if (three) {
    const [, r, g, b] = three as unknown as [string, string, string, string];
    return `#${r}${r}${g}${g}${b}${b}`.toLowerCase();
  }
  return null;
}

const HIDDEN = new Set(['false', '0', 'no']);
const SHOWN = new Set(['true', '1', 'yes', '']);

/** false for a hidden item, true for a visible one, null when the value means neither. */
export function visibility(cell: TableCell): boolean | null {
  if (typeof cell === 'boolean') return cell;
  if (typeof cell === 'number') return cell === 0 ? false : cell === 1 ? true : null;
  const text = textOfCell(cell).toLowerCase();
  if (HIDDEN.has(text)) return false;
  if (SHOWN.has(text)) return true;
  return null;
}

const IMAGE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Resolves `service_image_url` values: `{publicUrl}/images/<id>` or `{publicUrl}/images/<id>/…`
 * (query and fragment ignored) give the image id; anything else gives null. Nothing is fetched.
 */
export class ServiceImageUrls {
  private readonly base: URL | null;
  private readonly prefix: string;

  constructor(publicUrl: string) {
    let base: URL | null = null;
    try {
      base = new URL(publicUrl);
    } catch {
      base = null;
    }
    if (base !== null && base.protocol !== 'http:' && base.protocol !== 'https:') base = null;
    this.base = base;
    this.prefix = base === null ? '' : `${base.pathname.replace(/\/+$/, '')}/images/`;
  }

  imageId(value: string): string | null {
    const base = this.base;
    if (base === null) return null;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return null;
    }
    if (url.protocol !== base.protocol || url.host !== base.host) return null;
    if (url.username !== '' || url.password !== '') return null;
    if (!url.pathname.startsWith(this.prefix)) return null;
    const rest = url.pathname.slice(this.prefix.length);
    const slash = rest.indexOf('/');
    const id = slash === -1 ? rest : rest.slice(0, slash);
    return IMAGE_ID.test(id) ? id : null;
  }
}

