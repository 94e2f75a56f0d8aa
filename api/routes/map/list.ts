import { listMapsOfUser } from '../../../db/maps.js';
import { accessTo } from '../../../lib/access.js';
import { summaryOf } from '../../../lib/mapSummary.js';
import { callerOf, parseArgs, type Handler } from '../../context.js';
import { mapListArgs } from '../../schemas.js';
import { mapSummaryView } from '../../views.js';

/** map/list: the maps the caller owns, edits (collaboration on) and may view (visibility select). */
export const mapList: Handler = async (ctx, { db, config }) => {
  parseArgs(ctx, mapListArgs);
  const { userId } = callerOf(ctx);
  const { owned, member } = await listMapsOfUser(db, userId);
  const view = (map: Parameters<typeof summaryOf>[0]) => mapSummaryView(config.publicUrl, summaryOf(map));
  const withAccess = member.map(({ map, role }) => ({ map, access: accessTo(map, userId, role) }));
  ctx.body = {
    owner: owned.map(view),
    editor: withAccess.filter((m) => m.access === 'editor').map((m) => view(m.map)),
    viewer: withAccess.filter((m) => m.access === 'viewer').map((m) => view(m.map)),
  };
};
