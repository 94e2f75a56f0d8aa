// The HTML a map page shows for the map's description: the one rendered when it was saved
// (maps.description_html). A map whose description has not been rendered since it was saved (the
// maps of before migration 032) has it rendered now, in the renderer's thread within its budget
// (lib/markdown/), and kept: once per map, never on the event loop. Views that come while it
// renders wait for the same render.
import type { Db } from '../../db/connection.js';
import { findDescriptionHtml, storeDescriptionHtml } from '../../db/maps.js';
import type { MapRecord } from '../../lib/maps.js';
import { renderDescription } from '../../lib/markdown/index.js';

const rendering = new Map<string, Promise<string>>();

export async function descriptionHtmlOf(db: Db, map: MapRecord): Promise<string> {
  if (!map.description.trim()) return '';
  const stored = await findDescriptionHtml(db, map.id);
  if (stored !== null) return stored;
  const key = `${map.id}:${map.modifiedAt.getTime()}`;
  let html = rendering.get(key);
  if (!html) {
    html = (async () => {
      const rendered = await renderDescription(map.description);
      await storeDescriptionHtml(db, map.id, map.description, rendered.html);
      return rendered.html;
    })().finally(() => rendering.delete(key));
    rendering.set(key, html);
  }
  return html;
}
