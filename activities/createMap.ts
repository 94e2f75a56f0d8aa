// Creates the map of an upload from the parsed document. Safe to retry: the request id makes a
// second run return the map the first one created.
import { findUserById } from '../db/users.js';
import { insertMap } from '../db/maps.js';
import { DEFAULT_BASEMAP } from '../lib/basemaps.js';
import { AppError } from '../lib/errors.js';
import { documentBytes, readDocumentHead, rowLineBytes } from '../lib/formats/documentFile.js';
import { emptyMapContent } from '../lib/formats/documentContent.js';
import { checkMapBytes } from '../lib/geojson/sizeLimits.js';
import type { CreateMapInput, MapSummaryData } from '../lib/jobContracts.js';
import { DEFAULT_MAP_TITLE, type MapContent } from '../lib/maps.js';
import { renderDescription } from '../lib/markdown/index.js';
import { shortNameBase } from '../lib/shortName.js';
import { summaryOf } from '../lib/mapSummary.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';
import { faultAfterLines, faultPoint } from './faultPoints.js';

export function makeCreateMap(deps: ActivityDeps) {
  return async function createMap(input: CreateMapInput): Promise<MapSummaryData> {
    return failingOnBadInput(() => createMapFromParsed(deps, input));
  };
}

/** The owner of a new map, who must still exist. */
export async function requireOwner(db: ActivityDeps['db'], ownerId: number): Promise<void> {
  if (!(await findUserById(db, ownerId))) throw new AppError('invalid_api_key', 'The account that sent this upload no longer exists.');
}

/** A new map's title and short name: the settings', else the name the file gives itself. */
export function mapNames(settings: CreateMapInput['settings'], fileName: string | undefined): { title: string; shortNameBase: string } {
  const title = settings.title?.trim() || fileName || DEFAULT_MAP_TITLE;
  return { title, shortNameBase: shortNameBase(settings.shortName, title) };
}

/** Creates the map of an upload from a parsed document file (parseFile's): what createMap does. */
export async function createMapFromParsed({ db, blobs }: ActivityDeps, input: CreateMapInput): Promise<MapSummaryData> {
  await requireOwner(db, input.ownerId);
  // The parsed feature rows stream into the database as the parser wrote them: never parsed
  // again or held whole in this process.
  const parsed = input.parsed;
  let content: MapContent;
  if (parsed) {
    const file = { key: parsed.parsedKey, rowBytes: parsed.rowBytes };
    const head = await readDocumentHead(blobs, file);
    checkMapBytes(documentBytes(head, parsed.featureBytes, parsed.features));
    content = {
      head: JSON.stringify(head),
      lines: () => faultAfterLines(rowLineBytes(blobs, file)),
      featureCount: parsed.features,
      featureBytes: parsed.featureBytes,
      nextFeatureId: parsed.maxFeatureId + 1,
      media: parsed.media,
    };
  } else {
    content = emptyMapContent();
  }
  const description = input.settings.description ?? '';
  const record = await insertMap(db, {
    ownerId: input.ownerId,
    ...mapNames(input.settings, input.parsed?.name),
    description,
    // Rendered once, in the renderer's thread within its budget, and kept for the map's page.
    descriptionHtml: (await renderDescription(description)).html,
    basemap: DEFAULT_BASEMAP,
    visibility: input.settings.visibility,
    content,
    requestId: input.requestId,
    deadline: input.deadline,
  });
  await faultPoint('after-commit');
  return summaryOf(record);
}
