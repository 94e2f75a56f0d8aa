// Creates the map of an upload from the parsed document. Safe to retry: the request id makes a
// second run return the map the first one created.
import { findUserById } from '../db/users.js';
import { insertMap } from '../db/maps.js';
import { DEFAULT_BASEMAP } from '../lib/basemaps.js';
import { AppError } from '../lib/errors.js';
import { documentBytes, documentText, featureBytes, featuresArrayText, readDocumentHead } from '../lib/formats/documentFile.js';
import { checkMapBytes } from '../lib/geojson/sizeLimits.js';
import { emptyMapDocument } from '../lib/geojson/model.js';
import type { CreateMapInput, MapSummaryData } from '../lib/jobContracts.js';
import { shortNameBase } from '../lib/shortName.js';
import { summaryOf } from '../lib/mapSummary.js';
import type { ActivityDeps } from './deps.js';
import { failingOnBadInput } from './failures.js';

export const DEFAULT_MAP_TITLE = 'Untitled map';

export function makeCreateMap({ db, blobs }: ActivityDeps) {
  return async function createMap(input: CreateMapInput): Promise<MapSummaryData> {
    return failingOnBadInput(async () => {
      const owner = await findUserById(db, input.ownerId);
      if (!owner) throw new AppError('invalid_api_key', 'The account that sent this upload no longer exists.');
      // The parsed document streams into the database as the text it is stored as: never
      // parsed again or held whole in this process.
      const parsed = input.parsed;
      const file = parsed ? { key: parsed.parsedKey, featuresBytes: parsed.featuresBytes } : undefined;
      const { features: _none, ...emptyHead } = emptyMapDocument();
      const head = file ? await readDocumentHead(blobs, file) : emptyHead;
      const geojson = () => documentText(head, file ? featuresArrayText(featureBytes(blobs, file)) : ['[]']);
      const contentBytes = documentBytes(head, file?.featuresBytes ?? 0);
      checkMapBytes(contentBytes);
      const title = input.settings.title?.trim() || input.parsed?.name || DEFAULT_MAP_TITLE;
      const record = await insertMap(db, {
        ownerId: input.ownerId,
        shortNameBase: shortNameBase(input.settings.shortName, title),
        title,
        description: input.settings.description ?? '',
        basemap: DEFAULT_BASEMAP,
        visibility: input.settings.visibility,
        geojson,
        contentBytes,
        media: input.parsed?.media ?? { images: [], markers: [] },
        featureCount: input.parsed?.features ?? 0,
        requestId: input.requestId,
        deadline: input.deadline,
      });
      return summaryOf(record);
    });
  };
}
