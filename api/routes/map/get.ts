import { readMapDetail } from '../../../db/maps.js';
import { AppError } from '../../../lib/errors.js';
import { callerOf, mapFor, parseArgs, type Handler } from '../../context.js';
import { mapGetArgs } from '../../schemas.js';
import { mapDetailJson } from '../../views.js';

/** map/get: every field of the map, for anyone who may view it. */
export const mapGet: Handler = async (ctx, { db, config }) => {
  const { map_id } = parseArgs(ctx, mapGetArgs);
  await mapFor(db, map_id, callerOf(ctx).userId, 'view');
  const detail = await readMapDetail(db, map_id);
  if (!detail) throw new AppError('map_not_found', `There is no map with the id ${map_id}.`);
  ctx.type = 'application/json';
  ctx.body = mapDetailJson(config.publicUrl, detail);
};
