// Safe deep copy of arbitrary JSON data inside a map document (feature properties, extra group
// keys, extra top-level keys), plus the small helpers every validation message uses.
//
// The copy is iterative (explicit stack), so absurdly deep input cannot overflow the call stack;
// it stops at MAX_VALUE_DEPTH anyway. Keys such as `__proto__` are copied as plain data.

import { AppError } from '../errors.js';

/** How deeply values may nest (the value handed to copyJsonData is level 1). */
export const MAX_VALUE_DEPTH = 32;

/** Longest piece of a client's value echoed in a message. */
const ECHO_LIMIT = 40;

/**
 * A problem found below some location; the caller knows the location (for example
 * "feature 3 (index 2)") and turns it into an AppError with failInvalid.
 */
export class Problem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Problem';
  }
}

export function failInvalid(message: string): never {
  throw new AppError('invalid_geojson', message);
}

/** Runs `work`; a Problem it throws becomes AppError('invalid_geojson', `${where()}: ${problem}`). */
export function withLocation<T>(where: () => string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof Problem) failInvalid(`${where()}: ${error.message}`);
    throw error;
  }
}

/** `text` cut to at most `max` UTF-16 units, with "…" when cut, never inside a surrogate pair (half a pair is not storable text). */
export function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

const truncate = (text: string): string => shorten(text, ECHO_LIMIT);

/** A short, safe rendering of a client's value for a message (never the whole value). */
export function describe(value: unknown): string {
  switch (typeof value) {
    case 'string':
      // JSON.stringify escapes control characters and lone surrogates.
      return JSON.stringify(truncate(value));
    case 'number':
    case 'boolean':
    case 'bigint':
      return truncate(String(value));
    case 'undefined':
      return 'nothing';
    case 'object':
      if (value === null) return 'null';
      return Array.isArray(value) ? 'a list' : 'an object';
    default:
      return `a ${typeof value}`;
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

/** Marks omitted segments in a shortened path. */
export const PATH_GAP: unique symbol = Symbol('path gap');
export type PathSegment = string | number | typeof PATH_GAP;

/** Appends path segments to a base path: `properties` + ['a', 0, 'b c'] → `properties.a[0]["b c"]`. */
export function joinPath(base: string, segments: readonly PathSegment[]): string {
  let path = base;
  let afterGap = false;
  for (const segment of segments) {
    if (segment === PATH_GAP) {
      path += '…';
      afterGap = true;
      continue;
    }
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (segment.length <= ECHO_LIMIT && IDENTIFIER.test(segment)) {
      path += path === '' || afterGap ? segment : `.${segment}`;
    } else path += `[${describe(segment)}]`;
    afterGap = false;
  }
  return path;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text without its lone surrogates (halves of a pair that is not there; not storable text). */
export const withoutLoneSurrogates = (text: string): string => (isWellFormed(text) ? text : text.replace(LONE_SURROGATE, ''));

/** Whether the text has no lone surrogates (String.prototype.isWellFormed, which Node 20 has and the TS lib lacks). */
export const isWellFormed = (text: string): boolean =>
  (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** null when the string may be stored, otherwise the problem ("contains …"). */
export function stringProblem(text: string): string | null {
  if (text.indexOf('\u0000') !== -1) return 'contains a NUL character (U+0000)';
  if (!isWellFormed(text)) return 'contains a lone surrogate (text that is not well-formed Unicode)';
  return null;
}

/**
 * Sets an own, enumerable data property. Plain assignment to `__proto__` would change the
 * prototype instead, so that key goes through defineProperty. (Every other key of
 * Object.prototype is a writable data property, so assignment creates an own property.)
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** A non-null, non-array object (any prototype). */
export function isObjectRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPlainContainer(value: object): boolean {
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function scalarProblem(value: unknown): string | null {
  switch (typeof value) {
    case 'string':
      return stringProblem(value);
    case 'number':
      return Number.isFinite(value) ? null : `is not a finite number (${String(value)})`;
    case 'boolean':
      return null;
    case 'object':
      return null; // null; containers never get here
    default:
      return `is not JSON data (${typeof value})`;
  }
}

type Container = Record<string, unknown> | unknown[];

interface Frame {
  source: Container;
  copy: Container;
  depth: number;
  parent: Frame | undefined;
  key: string | number;
}

/** The path of `key` inside `frame`, shortened when very deep. */
function pathOf(base: string, frame: Frame | undefined, key?: string | number): string {
  const segments: PathSegment[] = [];
  if (key !== undefined) segments.push(key);
  for (let f = frame; f?.parent !== undefined; f = f.parent) segments.push(f.key);
  segments.reverse();
  const shown: PathSegment[] = segments.length > 8 ? [...segments.slice(0, 3), PATH_GAP, ...segments.slice(-3)] : segments;
  const path = joinPath(base, shown);
  return path === '' ? 'the value' : path;
}

function copyChild(
  child: unknown,
  frame: Frame,
  key: string | number,
  stack: Frame[],
  base: string,
  maxDepth: number,
): unknown {
  if (typeof child !== 'object' || child === null) {
    const problem = scalarProblem(child);
    if (problem !== null) throw new Problem(`${pathOf(base, frame, key)} ${problem}`);
    return child;
  }
  if (frame.depth >= maxDepth) {
    throw new Problem(`${pathOf(base, frame, key)} is nested deeper than ${maxDepth} levels`);
  }
  if (!isPlainContainer(child)) throw new Problem(`${pathOf(base, frame, key)} is not plain JSON data`);
  const copy: Container = Array.isArray(child) ? [] : {};
  stack.push({ source: child as Container, copy, depth: frame.depth + 1, parent: frame, key });
  return copy;
}

/**
 * Validates and deep-copies JSON data: strings (values and keys) without U+0000 and well-formed,
 * numbers finite, only plain objects/arrays, at most `maxDepth` levels of nesting. Object
 * properties whose value is undefined are dropped, undefined array items become null (as
 * JSON.stringify does). Returns fresh ordinary objects/arrays. Throws Problem whose message
 * starts with the path below `base`.
 */
export function copyJsonData(value: unknown, base: string, maxDepth: number = MAX_VALUE_DEPTH): unknown {
  if (typeof value !== 'object' || value === null) {
    const problem = scalarProblem(value);
    if (problem !== null) throw new Problem(`${pathOf(base, undefined)} ${problem}`);
    return value;
  }
  if (!isPlainContainer(value)) throw new Problem(`${pathOf(base, undefined)} is not plain JSON data`);
  if (maxDepth < 1) throw new Problem(`${pathOf(base, undefined)} is nested deeper than ${maxDepth} levels`);

  const rootCopy: Container = Array.isArray(value) ? [] : {};
  const stack: Frame[] = [
    { source: value as Container, copy: rootCopy, depth: 1, parent: undefined, key: '' },
  ];

  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    const { source, copy } = frame;
    if (Array.isArray(source)) {
      const out = copy as unknown[];
      for (let i = 0; i < source.length; i++) {
        const item: unknown = source[i];
        out.push(item === undefined ? null : copyChild(item, frame, i, stack, base, maxDepth));
      }
    } else {
      const out = copy as Record<string, unknown>;
      for (const key of Object.keys(source)) {
        const keyProblem = stringProblem(key);
        if (keyProblem !== null) {
          throw new Problem(`a key ${describe(key)} in ${pathOf(base, frame)} ${keyProblem}`);
        }
        const item = source[key];
        if (item === undefined) continue;
        setOwn(out, key, copyChild(item, frame, key, stack, base, maxDepth));
      }
    }
  }
  return rootCopy;
}
