// What the service takes from a photo's EXIF: where (GPS) and when (DateTimeOriginal) it was
// taken. sharp hands over the raw EXIF block; exif-reader decodes it. Broken or implausible
// values are treated as absent: EXIF is written by countless devices and is often wrong.
import exifReader from 'exif-reader';
import type { Point } from '../geojson/geometry.js';

export interface ExifFacts {
  geometry: Point | null;
  /** Human readable local time of capture, e.g. "2024-06-01 14:03". */
  dateStr: string | null;
  /** ISO 8601 time of capture, e.g. "2024-06-01T14:03:27" or "2024-06-01T14:03:27+02:00". */
  dateIso: string | null;
}

const NONE: ExifFacts = { geometry: null, dateStr: null, dateIso: null };

export function readExifFacts(exif: Buffer | undefined): ExifFacts {
  if (!exif || exif.length === 0) return NONE;
  let tags: ReturnType<typeof exifReader>;
  try {
    tags = exifReader(exif);
  } catch {
    return NONE;
  }
  return { geometry: gpsPoint(tags.GPSInfo), ...captureDate(tags.Photo) };
}

/** Degrees from EXIF's [degrees, minutes, seconds] rationals; undefined unless all are sane. */
function degrees(value: unknown): number | undefined {
  const parts = typeof value === 'number' ? [value] : Array.isArray(value) ? value : undefined;
  if (!parts || parts.length === 0 || parts.length > 3) return undefined;
  let total = 0;
  for (const [i, part] of parts.entries()) {
    if (typeof part !== 'number' || !Number.isFinite(part) || part < 0) return undefined;
    total += part / 60 ** i;
  }
  return total;
}

/** -1 for S/W, 1 for N/E or a missing reference, undefined for anything else. */
function sign(ref: unknown, negative: string, positive: string): number | undefined {
  if (ref === undefined || ref === null) return 1;
  if (typeof ref !== 'string') return undefined;
  const letter = ref.trim().toUpperCase();
  if (letter === negative) return -1;
  if (letter === positive || letter === '') return 1;
  return undefined;
}

const round7 = (value: number): number => Math.round(value * 1e7) / 1e7;

function gpsPoint(gps: Record<string, unknown> | null | undefined): Point | null {
  if (!gps) return null;
  // 'V' (void): the receiver had no fix when the photo was taken.
  if (typeof gps.GPSStatus === 'string' && gps.GPSStatus.trim().toUpperCase() === 'V') return null;
  const lat = degrees(gps.GPSLatitude);
  const lon = degrees(gps.GPSLongitude);
  const latSign = sign(gps.GPSLatitudeRef, 'S', 'N');
  const lonSign = sign(gps.GPSLongitudeRef, 'W', 'E');
  if (lat === undefined || lon === undefined || latSign === undefined || lonSign === undefined) return null;
  if (lat > 90 || lon > 180) return null;
  // Several cameras write 0/0 when they have no position; a photo exactly there is unlikely.
  if (lat === 0 && lon === 0) return null;
  return { type: 'Point', coordinates: [round7(lonSign * lon), round7(latSign * lat)] };
}

const pad = (value: number): string => String(value).padStart(2, '0');

function captureDate(photo: Record<string, unknown> | null | undefined): Pick<ExifFacts, 'dateStr' | 'dateIso'> {
  const none = { dateStr: null, dateIso: null };
  if (!photo) return none;
  // exif-reader turns "YYYY:MM:DD HH:MM:SS" into a Date whose UTC fields are the camera's
  // local wall-clock time; the zone, when known, is in OffsetTimeOriginal.
  const [date, offset] =
    photo.DateTimeOriginal instanceof Date
      ? [photo.DateTimeOriginal, photo.OffsetTimeOriginal]
      : [photo.DateTimeDigitized, photo.OffsetTimeDigitized];
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) return none;
  const year = date.getUTCFullYear();
  // "0000:00:00 00:00:00" (a common placeholder) comes out as 1899; nothing real is that old.
  if (year < 1900 || year > 9999) return none;
  const day = `${year}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const minutes = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
  const zone = typeof offset === 'string' && /^[+-]\d{2}:\d{2}$/.test(offset.trim()) ? offset.trim() : '';
  return {
    dateStr: `${day} ${minutes}`,
    dateIso: `${day}T${minutes}:${pad(date.getUTCSeconds())}${zone}`,
  };
}
