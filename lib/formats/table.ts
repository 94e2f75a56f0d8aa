// Table imports (CSV, XLSX, XLS, ODS): turns rows of cells into a map document. Every table
// reader hands its rows, in order, to one TableBuilder, so all table formats behave the same.
//
// The first row that is not empty is the header. Columns are matched case-insensitively after
// trimming (a byte order mark is dropped): the spec's lat/lon columns are required, the optional
// ones become the documented properties, and every other column is kept as a string property.

import { AppError } from '../errors.js';
import type { MapDocument, MapGroup } from '../geojson/model.js';
import { MAX_FEATURES } from '../geojson/model.js';
import { featureTooLarge, MAX_FEATURE_BYTES } from '../geojson/sizeLimits.js';
import { splitGroupPath } from './groupPath.js';
import { numberText } from './featureRows.js';
import { checkCellLength, MAX_GROUP_DEPTH, MAX_TABLE_GROUPS } from './tableLimits.js';
import { SkipList } from './skipped.js';
import { PROTOTYPE_KEYS } from './xml/properties.js';
import { FeatureList, type FeatureSink, type ParseOptions, type ParsedFile } from './types.js';
import { coordinate, normaliseColor, quote, ServiceImageUrls, textOfCell, visibility, type TableCell } from './tableCells.js';

export type { TableCell } from './tableCells.js';

type Role =
  | 'lat'
  | 'lon'
  | 'title'
  | 'description'
  | 'group'
  | 'url'
  | 'color'
  | 'visible'
  | 'media_url'
  | 'icon'
  | 'service_image_url';

const ROLE_BY_NAME = new Map<string, Role>([
  ['lat', 'lat'],
  ['latitude', 'lat'],
  ['lon', 'lon'],
  ['long', 'lon'],
  ['lng', 'lon'],
  ['longitude', 'lon'],
  ['title', 'title'],
  ['name', 'title'],
  ['description', 'description'],
  ['desc', 'description'],
  ['group', 'group'],
  ['url', 'url'],
  ['color', 'color'],
  ['visible', 'visible'],
  ['media_url', 'media_url'],
  ['icon', 'icon'],
  ['service_image_url', 'service_image_url'],
]);

/**
 * Property names an extra column may not write as they are: the ones this import writes or the
 * map interprets (an extra "marker_id" or "image" column must not pose as an uploaded marker or
 * image). Such a column is kept under a suffixed name ("title_2", "marker_id_2").
 */
const RESERVED_PROPERTIES = [
  'title',
  'description',
  'url',
  'group',
  'color',
  'visible',
  'media_url',
  'marker-symbol',
  'marker_id',
  'image',
];

const LAT_NAMES = 'lat, latitude';
const LON_NAMES = 'lon, long, lng, longitude';

// ---------------------------------------------------------------- the builder

interface ExtraColumn {
  index: number;
  key: string;
}

interface ColumnPlan {
  lat: number;
  lon: number;
  title: number;
  description: number;
  group: number;
  url: number;
  color: number;
  visible: number;
  media_url: number;
  icon: number;
  service_image_url: number;
  extras: ExtraColumn[];
}

/** The header name of a column as matched against the spec's names (trim() drops a BOM too). */
function matchName(raw: TableCell): string {
  return textOfCell(raw).toLowerCase();
}

function planColumns(header: ArrayLike<TableCell>): ColumnPlan {
  const plan: ColumnPlan = {
    lat: -1,
    lon: -1,
    title: -1,
    description: -1,
    group: -1,
    url: -1,
    color: -1,
    visible: -1,
    media_url: -1,
    icon: -1,
    service_image_url: -1,
    extras: [],
  };
  const extras: { index: number; name: string }[] = [];
  for (let index = 0; index < header.length; index++) {
    const name = matchName(header[index]);
    const role = ROLE_BY_NAME.get(name);
    if (role !== undefined && plan[role] === -1) {
      plan[role] = index;
      continue;
    }
    // Another column (or a second column for a role: the first one wins the role).
    const original = textOfCell(header[index]); // trim() also drops a byte order mark
    if (PROTOTYPE_KEYS.has(original)) continue;
    extras.push({ index, name: original === '' ? `column_${index + 1}` : original });
  }
  // Duplicate names: the first keeps the name, later ones get _2, _3, … (one no column has).
  const headerNames = new Set(extras.map((extra) => extra.name));
  const taken = new Set<string>(RESERVED_PROPERTIES);
  for (const { index, name } of extras) {
    let key = name;
    if (taken.has(key)) {
      let n = 2;
      while (taken.has(`${name}_${n}`) || headerNames.has(`${name}_${n}`)) n++;
      key = `${name}_${n}`;
    }
    taken.add(key);
    plan.extras.push({ index, key });
  }
  return plan;
}

function isEmptyRow(cells: ArrayLike<TableCell>): boolean {
  for (let index = 0; index < cells.length; index++) {
    const cell = cells[index];
    if (cell === null || cell === undefined) continue;
    if (typeof cell === 'string') {
      if (cell.trim() !== '') return false;
      continue;
    }
    return false;
  }
  return true;
}

export class TableBuilder {
  private plan: ColumnPlan | null = null;
  private readonly sink: FeatureSink;
  private readonly list: FeatureList | undefined;
  private readonly groups: MapGroup[] = [];
  private readonly groupIdByPath = new Map<string, number>();
  private readonly groupIdByText = new Map<string, number | undefined>();
  private readonly skipped = new SkipList();
  private readonly images: ServiceImageUrls;
  private dataRows = 0;
  /** Characters taken from the row being read. */
  private rowChars = 0;

  constructor(options: ParseOptions) {
    this.images = new ServiceImageUrls(options.publicUrl);
    if (options.sink) this.sink = options.sink;
    else this.sink = this.list = new FeatureList();
  }

  /** Hands over one row. `rowNumber` is 1-based (the spreadsheet's row number). */
  addRow(rowNumber: number, cells: ArrayLike<TableCell>): void {
    if (isEmptyRow(cells)) return;
    const plan = this.plan;
    if (plan === null) {
      this.plan = this.header(cells, rowNumber);
      return;
    }
    this.dataRows++;
    this.row(plan, rowNumber, cells);
  }

  private header(cells: ArrayLike<TableCell>, rowNumber: number): ColumnPlan {
    // Column names become the property names of every item: held to the length of a cell.
    for (let column = 0; column < cells.length; column++) checkCellLength(textOfCell(cells[column]).length, rowNumber, column);
    const plan = planColumns(cells);
    if (plan.lat === -1 || plan.lon === -1) {
      const missing =
        plan.lat === -1 && plan.lon === -1
          ? `no latitude column (accepted names: ${LAT_NAMES}) and no longitude column (accepted names: ${LON_NAMES})`
          : plan.lat === -1
            ? `no latitude column (accepted names: ${LAT_NAMES})`
            : `no longitude column (accepted names: ${LON_NAMES})`;
      throw new AppError(
        'missing_coordinate_columns',
        `the first row of the table must name its columns, and it has ${missing}; names are matched ignoring case and surrounding spaces`,
      );
    }
    return plan;
  }

  private groupId(text: string, rowNumber: number): number | undefined {
    if (this.groupIdByText.has(text)) return this.groupIdByText.get(text);
    const id = this.groupIdOfPath(text, rowNumber);
    if (this.groupIdByText.size < 100_000) this.groupIdByText.set(text, id);
    return id;
  }

  /** The group a path (`Europe/France`; `Food\/Drink` is one title with a slash) names, made (with its parents) when new. */
  private groupIdOfPath(path: string, rowNumber: number): number | undefined {
    let parent: number | undefined;
    let depth = 0;
    for (const title of splitGroupPath(path)) {
      if (++depth > MAX_GROUP_DEPTH) {
        throw new AppError('sheet_too_large', `row ${rowNumber}: the group ${quote(path)} has more than ${MAX_GROUP_DEPTH} levels`);
      }
      // Keyed by the parent's id, not the whole path so far: a deep path costs each level once.
      const key = `${parent ?? 0}\u0000${title}`;
      let id = this.groupIdByPath.get(key);
      if (id === undefined) {
        if (this.groups.length >= MAX_TABLE_GROUPS) {
          throw new AppError('sheet_too_large', `row ${rowNumber}: the group column names more than ${MAX_TABLE_GROUPS} groups`);
        }
        id = this.groups.length + 1;
        const group: MapGroup = { id, title };
        if (parent !== undefined) group.parent = parent;
        this.groups.push(group);
        this.groupIdByPath.set(key, id);
      }
      parent = id;
    }
    return parent;
  }

  private row(plan: ColumnPlan, rowNumber: number, cells: ArrayLike<TableCell>): void {
    const lat = coordinate(cells[plan.lat], 'latitude', 90);
    const lon = coordinate(cells[plan.lon], 'longitude', 180);
    if (typeof lat === 'string' || typeof lon === 'string') {
      const reasons = [lat, lon].filter((reason) => typeof reason === 'string');
      this.skipped.add(`row ${rowNumber} skipped: ${reasons.join('; ')}`, rowNumber);
      return;
    }
    if (this.sink.count >= MAX_FEATURES) {
      throw new AppError('sheet_too_large', `the table has more than ${MAX_FEATURES} rows with coordinates`);
    }

    const properties: Record<string, unknown> = {};
    this.rowChars = 0;
    let text: string;
    if (plan.title >= 0 && (text = this.take(cells, rowNumber, plan.title, '')) !== '') properties.title = text;
    if (plan.description >= 0 && (text = this.take(cells, rowNumber, plan.description, '')) !== '') properties.description = text;
    if (plan.url >= 0 && (text = this.take(cells, rowNumber, plan.url, '')) !== '') properties.url = text;
    if (plan.group >= 0 && (text = this.take(cells, rowNumber, plan.group, '')) !== '') {
      const group = this.groupId(text, rowNumber);
      if (group !== undefined) properties.group = group;
    }
    if (plan.color >= 0 && (text = this.take(cells, rowNumber, plan.color, '')) !== '') {
      const color = normaliseColor(text);
      if (color !== null) properties.color = color;
      else this.note(rowNumber, `color ${quote(text)} is not a #rrggbb colour; the item was imported without it`);
    }
    if (plan.visible >= 0) {
      const visible = visibility(cells[plan.visible]);
      if (visible === false) properties.visible = false;
      else if (visible === null) {
        this.note(
          rowNumber,
          `visible ${quote(this.take(cells, rowNumber, plan.visible, ''))} is not true/false, 1/0 or yes/no; the item was imported as visible`,
        );
      }
    }
    if (plan.media_url >= 0 && (text = this.take(cells, rowNumber, plan.media_url, '')) !== '') properties.media_url = text;
    if (plan.icon >= 0 && (text = this.take(cells, rowNumber, plan.icon, '')) !== '') properties['marker-symbol'] = text;
    if (plan.service_image_url >= 0 && (text = this.take(cells, rowNumber, plan.service_image_url, '')) !== '') {
      const id = this.images.imageId(text);
      if (id !== null) properties.image = { id };
      else {
        this.note(
          rowNumber,
          `service_image_url ${quote(text)} is not an image URL of this service; the item was imported without an image`,
        );
      }
    }
    for (const extra of plan.extras) {
      if ((text = this.take(cells, rowNumber, extra.index, extra.key)) !== '') properties[extra.key] = text;
    }

    // Built as pointFeatureText says; the coordinates' texts come from the cells where they can.
    const point = { lon: numberText(cells[plan.lon], lon), lat: numberText(cells[plan.lat], lat) };
    this.sink.add({ type: 'Feature', id: this.sink.count + 1, geometry: { type: 'Point', coordinates: [lon, lat] }, properties }, point);
  }

  /**
   * The text of a cell of the row being read. Cells are counted as they are taken: a row may
   * repeat one long shared string in every column, and the item must not be built when it would
   * be over the budget of one item.
   */
  private take(cells: ArrayLike<TableCell>, rowNumber: number, column: number, key: string): string {
    const text = textOfCell(cells[column]);
    checkCellLength(text.length, rowNumber, column);
    this.rowChars += text.length + key.length;
    if (this.rowChars > MAX_FEATURE_BYTES) throw featureTooLarge(`Row ${rowNumber}`);
    return text;
  }

  /** Something the whole file's import changed, reported with the items it skipped. */
  notice(reason: string, line?: number): void {
    this.skipped.add(reason, line);
  }

  /** A value of an imported row that was dropped. */
  private note(rowNumber: number, reason: string): void {
    this.skipped.add(`row ${rowNumber}: ${reason}`, rowNumber);
  }

  finish(): ParsedFile {
    if (this.plan === null) throw new AppError('empty_table', 'the table is empty: it has no header row');
    if (this.dataRows === 0) throw new AppError('empty_table', 'the table has a header row and no data rows');
    const document: MapDocument = { type: 'FeatureCollection', features: this.list?.features ?? [], groups: this.groups };
    return { document, skipped: this.skipped.result(), media: [] };
  }
}
