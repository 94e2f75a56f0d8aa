import { updateMap } from '../../../db/maps.js';
import { AppError } from '../../../lib/errors.js';
import { canChangeSharing } from '../../../lib/access.js';
import { mediaReferences, parseMapDocument } from '../../../lib/geojson/model.js';
import { checkMapBytes } from '../../../lib/geojson/sizeLimits.js';
import { summaryOf } from '../../../lib/mapSummary.js';
import { shortNameBase } from '../../../lib/shortName.js';
import { callerOf, mapFor, parseArgs, type Handler } from '../../context.js';
import { mapUpdateArgs } from '../../schemas.js';
import { mapSummaryView } from '../../views.js';

/** map/update: changes only what is included; a geojson replaces the whole content. No version is saved. */
export const mapUpdate: Handler = async (ctx, { db, config }) => {
  const args = parseArgs(ctx, mapUpdateArgs);
  const { access } = await mapFor(db, args.map_id, callerOf(ctx).userId, 'edit');
  if (!canChangeSharing(access) && (args.visibility !== undefined || args.short_name !== undefined)) {
    throw new AppError(
      'permission_denied',
      'Only the owner may change the visibility or the short name of a map; editors change its content, title, description and basemap.',
    );
  }
  const document = args.geojson === undefined ? undefined : parseMapDocument(args.geojson);
  const text = document && JSON.stringify(document);
  const bytes = text === undefined ? 0 : Buffer.byteLength(text);
  checkMapBytes(bytes);
  const updated = await updateMap(db, args.map_id, {
    title: args.title,
    description: args.description,
    basemap: args.basemap,
    visibility: args.visibility,
    shortNameBase: args.short_name === undefined ? undefined : shortNameBase(args.short_name, args.title),
    geojson: document && { text: text!, bytes, media: mediaReferences(document) },
  });
  if (!updated) throw new AppError('map_not_found', `There is no map with the id ${args.map_id}.`);
  ctx.body = mapSummaryView(config.publicUrl, summaryOf(updated));
};
