import { z } from 'zod';
import { listMapsOfUser } from '../../../db/maps.js';
import { accessTo } from '../../../lib/access.js';
import type { MapRecord } from '../../../lib/maps.js';
import { callerOf } from '../../context.js';
import { defineOperation } from '../../operation.js';
import { mapSummary } from '../../schemas.js';
import { mapSummaryView } from '../../views.js';

const EXAMPLE_MAP = {
  id: 5480394431770113,
  url: 'https://maps.example.com/alice/paris~KQXRBZTWMHPLVCNFGDSYAE',
  owner: 'alice',
  short_name: 'paris',
  title: 'Paris',
  visibility: 'unlisted' as const,
};

/** map/list: the maps the caller owns, edits (collaboration on) and may view (visibility select). */
export const operation = defineOperation(import.meta.url, {
  path: 'map/list',
  kind: 'json',
  summary: 'List the maps the caller can access',
  description: 'No arguments (an empty body or `{}`). Answers the map summaries grouped by role: owner, editor and viewer.',
  args: z.strictObject({}),
  result: z.object({ owner: z.array(mapSummary), editor: z.array(mapSummary), viewer: z.array(mapSummary) }),
  example: { args: {}, result: { owner: [EXAMPLE_MAP], editor: [], viewer: [] } },
  links: {
    GetFirstOwnedMap: { operation: 'map/get', description: 'Read the first map the caller owns', arguments: { map_id: '$response.body#/owner/0/id' } },
  },
  async handle(ctx, { db, config }) {
    const { userId } = callerOf(ctx);
    const { owned, member } = await listMapsOfUser(db, userId);
    const view = (map: MapRecord) => mapSummaryView(config.publicUrl, map);
    const withAccess = member.map(({ map, role }) => ({ map, access: accessTo(map, userId, role) }));
    ctx.body = {
      owner: owned.map(view),
      editor: withAccess.filter((m) => m.access === 'editor').map((m) => view(m.map)),
      viewer: withAccess.filter((m) => m.access === 'viewer').map((m) => view(m.map)),
    };
  },
});
