// The map document: a GeoJSON FeatureCollection with a `groups` list. Validation and
// normalisation of documents clients send, appending one document to another, and the image
// and marker ids a document references.

import {
  Problem,
  describe,
  failInvalid,
  isObjectRecord,
  joinPath,
  copyJsonData,
  setOwn,
  stringProblem,
  withLocation,
} from './json-data.js';
import { IntegerIds } from './integerIds.js';
import { copyGeometry, type Geometry } from './geometry.js';
import { overlayProblem } from './overlay.js';

export type {
  BBox,
  Geometry,
  GeometryCollection,
  GeometryType,
  LineString,
  MultiLineString,
  MultiPoint,
  MultiPolygon,
  Point,
  Polygon,
  Position,
} from './geometry.js';
export { GEOMETRY_TYPES, isGeometryType } from './geometry.js';

export type GroupId = number | string;

export interface MapGroup {
  id: GroupId;
  title: string;
  parent?: GroupId;
  [key: string]: unknown;
}

export interface MapFeature {
  type: 'Feature';
  id: number;
  geometry: Geometry;
  properties: Record<string, unknown>;
}

export interface MapDocument {
  type: 'FeatureCollection';
  features: MapFeature[];
  groups: MapGroup[];
  [key: string]: unknown;
}

/** A map document without its features (they are kept and moved apart from it when large). */
export interface DocumentHead {
  type?: 'FeatureCollection';
  groups: MapGroup[];
  [key: string]: unknown;
}

/** Most features one document may hold. */
export const MAX_FEATURES = 500_000;
/** Longest string group id. */
export const MAX_GROUP_ID_LENGTH = 200;

/** Top-level keys of a map document that are not free-form extras. */
export const RESERVED_TOP_LEVEL_KEYS: ReadonlySet<string> = new Set(['type', 'features', 'groups']);

export function emptyMapDocument(): MapDocument {
  return { type: 'FeatureCollection', features: [], groups: [] };
}

/** A non-negative safe integer: the only kind of feature id, and one kind of group id. */
function isIdNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function featureLabel(index: number, id: number): string {
  return id >= 0 ? `feature ${id} (index ${index})` : `feature index ${index}`;
}

export function parseFeatureId(raw: unknown, index: number): number {
  if (raw === undefined || raw === null) return -1;
  if (isIdNumber(raw)) return raw + 0; // -0 → 0
  if (typeof raw === 'string' && /^\s*\d+\s*$/.test(raw)) {
    failInvalid(
      `feature index ${index}: id ${describe(raw)} is a string; a feature id must be a number (write ${describe(Number(raw))} without quotes)`,
    );
  }
  failInvalid(`feature index ${index}: id ${describe(raw)} is not a non-negative integer`);
}

function parseGroupId(raw: unknown, index: number): GroupId | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (isIdNumber(raw)) return raw + 0; // -0 → 0
  if (typeof raw === 'string') {
    if (raw.length === 0) failInvalid(`groups[${index}]: id is an empty string`);
    if (raw.length > MAX_GROUP_ID_LENGTH) {
      failInvalid(`groups[${index}]: id is longer than ${MAX_GROUP_ID_LENGTH} characters`);
    }
    return raw;
  }
  failInvalid(
    `groups[${index}]: id ${describe(raw)} is neither a non-negative integer nor a non-empty string`,
  );
}

function parseGroups(raw: unknown): MapGroup[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) failInvalid('"groups" must be a list of groups');

  const groups: MapGroup[] = [];
  const indexById = new Map<GroupId, number>();
  const parents: unknown[] = [];
  const withoutId: number[] = [];
  let maxNumericId = 0;

  for (let index = 0; index < raw.length; index++) {
    const input: unknown = raw[index];
    if (!isObjectRecord(input)) failInvalid(`groups[${index}] is not an object`);
    const copy = withLocation(
      () => `groups[${index}]`,
      () => copyJsonData(input, '') as Record<string, unknown>,
    );
    const title = copy.title;
    if (title === undefined) failInvalid(`groups[${index}] has no "title"`);
    if (typeof title !== 'string') failInvalid(`groups[${index}]: "title" must be a string, not ${describe(title)}`);

    const id = parseGroupId(copy.id, index);
    if (id === undefined) {
      withoutId.push(index);
    } else {
      const previous = indexById.get(id);
      if (previous !== undefined) {
        failInvalid(`groups[${index}]: id ${describe(id)} is already used by groups[${previous}]`);
      }
      indexById.set(id, index);
      if (typeof id === 'number' && id > maxNumericId) maxNumericId = id;
    }

    const group: MapGroup = { id: id ?? -1, title };
    for (const key of Object.keys(copy)) {
      if (key !== 'id' && key !== 'title' && key !== 'parent') setOwn(group, key, copy[key]);
    }
    groups.push(group);
    parents.push(copy.parent);
  }

  const ids = new IntegerIds(maxNumericId, (id) => indexById.has(id));
  for (const index of withoutId) {
    const id = ids.take();
    (groups[index] as MapGroup).id = id;
    indexById.set(id, index);
  }

  // Parents: must name another group of the document…
  const parentIndex: number[] = [];
  for (let index = 0; index < groups.length; index++) {
    const parent = parents[index];
    const group = groups[index] as MapGroup;
    if (parent === undefined || parent === null) {
      parentIndex.push(-1);
      continue;
    }
    if (parent === group.id) failInvalid(`groups[${index}]: a group cannot be its own parent`);
    const target = indexById.get(parent as GroupId);
    if (target === undefined) {
      failInvalid(`groups[${index}]: parent ${describe(parent)} is not a group of this document`);
    }
    group.parent = (typeof parent === 'number' ? parent + 0 : parent) as GroupId;
    parentIndex.push(target);
  }

  // …and the parent chains must end (no cycle).
  const state = new Uint8Array(groups.length); // 0 unvisited, 1 on the current chain, 2 checked
  const chain: number[] = [];
  for (let start = 0; start < groups.length; start++) {
    chain.length = 0;
    let at = start;
    while (at >= 0 && state[at] === 0) {
      state[at] = 1;
      chain.push(at);
      at = parentIndex[at] as number;
    }
    if (at >= 0 && state[at] === 1) {
      failInvalid(
        `groups[${at}]: the parents form a cycle (group ${describe((groups[at] as MapGroup).id)} is its own ancestor)`,
      );
    }
    for (const index of chain) state[index] = 2;
  }
  return groups;
}

/**
 * Validates one feature of a document (whose groups are `groupIds`); `id` is its parsed id
 * (parseFeatureId; -1 when it has none yet). Returns a normalised copy.
 */
export function parseFeatureAt(input: unknown, index: number, id: number, groupIds: ReadonlySet<GroupId>): MapFeature {
  if (!isObjectRecord(input)) failInvalid(`feature index ${index} is not an object`);
  return featureFrom({ type: input.type, geometry: () => copyGeometry(input.geometry), properties: input.properties }, index, id, groupIds);
}

/**
 * A feature from its parts, checked as parseFeatureAt checks them: `geometry` makes (and
 * checks) the geometry, throwing Problem, so a reader of large files can build it its own way.
 */
export function featureFrom(
  parts: { type: unknown; geometry: () => Geometry; properties: unknown },
  index: number,
  id: number,
  groupIds: ReadonlySet<GroupId>,
): MapFeature {
  if (parts.type !== 'Feature') failInvalid(`feature index ${index}: "type" must be "Feature"`);
  let geometry: Geometry;
  let properties: Record<string, unknown>;
  try {
    geometry = parts.geometry();
    const rawProperties = parts.properties;
    if (rawProperties === undefined || rawProperties === null) {
      properties = {};
    } else if (!isObjectRecord(rawProperties)) {
      throw new Problem(`properties must be an object, not ${describe(rawProperties)}`);
    } else {
      properties = copyJsonData(rawProperties, 'properties') as Record<string, unknown>;
    }
    const overlay = overlayProblem(geometry, properties);
    if (overlay !== null) throw new Problem(overlay);
  } catch (error) {
    if (error instanceof Problem) failInvalid(`${featureLabel(index, id)}: ${error.message}`);
    throw error;
  }

  const group = properties.group;
  if (group !== undefined && group !== null && !groupIds.has(group as GroupId)) {
    failInvalid(
      `${id >= 0 ? `feature ${id}` : `feature index ${index}`} names group ${describe(group)}, which the document does not define`,
    );
  }
  return { type: 'Feature', id, geometry, properties };
}

/**
 * The feature ids of a document, given in order (raw values as in the file): refuses
 * duplicates and ids that are not ids; hands out ids for the features without one.
 */
export class FeatureIds {
  private readonly indexById = new Map<number, number>();
  private maxId = 0;
  private fresh: IntegerIds | undefined;

  /** Registers the next feature's raw id; returns it parsed (-1: none). */
  add(raw: unknown, index: number): number {
    const id = parseFeatureId(raw, index);
    if (id < 0) return id;
    const previous = this.indexById.get(id);
    if (previous !== undefined) {
      failInvalid(`${featureLabel(index, id)}: id ${id} is already used by feature index ${previous}`);
    }
    this.indexById.set(id, index);
    if (id > this.maxId) this.maxId = id;
    return id;
  }

  /** An id for a feature without one (call once every feature's id has been added). */
  take(): number {
    this.fresh ??= new IntegerIds(this.maxId, (candidate) => this.indexById.has(candidate));
    return this.fresh.take();
  }
}

function parseFeatures(raw: unknown[], groupIds: ReadonlySet<GroupId>): MapFeature[] {
  const ids = new FeatureIds();
  const features: MapFeature[] = [];
  for (let index = 0; index < raw.length; index++) {
    const input: unknown = raw[index];
    if (!isObjectRecord(input)) failInvalid(`feature index ${index} is not an object`);
    if (input.type !== 'Feature') failInvalid(`feature index ${index}: "type" must be "Feature"`);
    features.push(parseFeatureAt(input, index, ids.add(input.id, index), groupIds));
  }
  for (const feature of features) if (feature.id < 0) feature.id = ids.take();
  return features;
}

/**
 * Validates the top level of a map document except its features (its groups and other keys)
 * and returns a normalised copy, and the group ids its features may name.
 */
export function parseDocumentHead(input: Record<string, unknown>): { head: DocumentHead; groupIds: Set<GroupId> } {
  const groups = parseGroups(input.groups);
  const groupIds = new Set<GroupId>();
  for (const group of groups) groupIds.add(group.id);
  const head: DocumentHead = { type: 'FeatureCollection', groups };
  for (const key of Object.keys(input)) {
    if (RESERVED_TOP_LEVEL_KEYS.has(key)) continue;
    const value = input[key];
    if (value === undefined) continue;
    const keyProblem = stringProblem(key);
    if (keyProblem !== null) failInvalid(`top level: the key ${describe(key)} ${keyProblem}`);
    const copy = withLocation(
      () => 'top level',
      () => copyJsonData(value, joinPath('', [key])),
    );
    setOwn(head, key, copy);
  }
  return { head, groupIds };
}

/**
 * Validates a map document as clients send it (map/update's geojson, a GeoJSON upload) and
 * returns a normalised deep copy. Throws AppError('invalid_geojson', message naming the first
 * problem).
 *
 * Normalisation: missing `groups` → []; feature `properties` missing/null → {}; missing feature
 * ids → max id + 1, + 2, …; missing group ids → unique integers; a null feature id, group id or
 * group parent counts as missing; foreign members of features and geometries are dropped (a
 * geometry keeps a valid `bbox`); object members whose value is undefined are dropped.
 */
export function parseMapDocument(input: unknown): MapDocument {
  if (!isObjectRecord(input) || input.type !== 'FeatureCollection' || !Array.isArray(input.features)) {
    failInvalid('the top level must be a FeatureCollection with a "features" list');
  }
  const rawFeatures: unknown[] = input.features;
  if (rawFeatures.length > MAX_FEATURES) {
    failInvalid(`the document has ${rawFeatures.length} features; at most ${MAX_FEATURES} are allowed`);
  }

  const { head, groupIds } = parseDocumentHead(input);
  const document: MapDocument = { type: 'FeatureCollection', features: parseFeatures(rawFeatures, groupIds), groups: head.groups };
  for (const key of Object.keys(head)) if (!RESERVED_TOP_LEVEL_KEYS.has(key)) setOwn(document, key, head[key]);
  return document;
}


/** Adds the image id (`properties.image.id`) and marker id (`properties.marker_id`) a feature references. */
export function collectMediaReferences(feature: MapFeature, images: Set<string>, markers: Set<string>): void {
  const properties = feature.properties;
  const image = properties.image;
  if (isObjectRecord(image) && typeof image.id === 'string' && image.id !== '') images.add(image.id);
  const marker = properties.marker_id;
  if (typeof marker === 'string' && marker !== '') markers.add(marker);
}

/** Ids of images (`properties.image.id`) and markers (`properties.marker_id`) the document references, deduplicated, sorted. */
export function mediaReferences(doc: MapDocument): { images: string[]; markers: string[] } {
  const images = new Set<string>();
  const markers = new Set<string>();
  for (const feature of doc.features) collectMediaReferences(feature, images, markers);
  return { images: [...images].sort(), markers: [...markers].sort() };
}
