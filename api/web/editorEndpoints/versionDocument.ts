// A kept version's document, for the History's preview.
import { versionContent } from '../../../db/mapVersions.js';
import { documentOpening, DOCUMENT_CLOSING } from '../../../lib/formats/documentFile.js';
import { chargeMapRead } from '../../rateCharges.js';
import { mapForEditor } from '../editorAccess.js';
import { defineEditorEndpoint } from '../editorEndpoint.js';
import { noVersion, versionId } from './versionArgs.js';

export const endpoint = defineEditorEndpoint({
  method: 'get',
  path: '/maps/:id/versions/:version/map.geojson',
  summary: "A kept version's document, for the History's preview",
  sends: 'nothing',
  answers: 'the GeoJSON document (application/geo+json), its revision in X-Map-Revision',
  async handle(ctx, deps) {
    const { mapId } = await mapForEditor(deps.db, ctx, 'see the history of this map');
    const content = await versionContent(deps.db, mapId, versionId(ctx));
    if (!content) throw noVersion();
    // A large version costs more from the rate limits, as map/get of a large map does.
    await chargeMapRead(ctx, Buffer.byteLength(content.features));
    ctx.type = 'application/geo+json';
    ctx.set('X-Map-Revision', String(content.revision));
    ctx.body = documentOpening(content.head) + content.features + DOCUMENT_CLOSING;
  },
});
