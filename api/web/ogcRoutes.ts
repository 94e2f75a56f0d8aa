// Every map the caller may see as a small, read-only OGC API – Features service (Part 1: Core,
// with the GeoJSON, HTML and OpenAPI 3.0 conformance classes) at `{map url}/ogc` and at
// `/maps/{id}/ogc` (an unlisted map's `{id}~{link key}`):
//   /ogc                                  landing page
//   /ogc/conformance                      the conformance classes
//   /ogc/api                              this service's OpenAPI 3.0 document
//   /ogc/collections                      `map` (every feature) and `group-{id}` per group (with its subgroups), with extents
//   /ogc/collections/{id}                 one collection
//   /ogc/collections/{id}/items           GeoJSON pages: limit (default 100, at most 10,000), offset, bbox, datetime, property=value
//   /ogc/collections/{id}/items/{fid}     one feature
// Who may read is the map page's rule: public and unlisted maps without a key (the unlisted map's
// address carries its link key), private and `select` maps with `Authorization: Token <key>`.
// JSON unless `f=html` or the Accept header prefers HTML. Bad input is the standard's exception,
// `{code, description}`, with 400 or 404. Pages are read on the feature rows' order index and
// bounding-box columns (db/ogcReads.ts); a `next` link carries where the page ended (`cursor`),
// so each page costs its own rows, however deep into a 200,000-feature map it is.
import type Router from '@koa/router';
import type { Context } from 'koa';
import { h } from 'preact';
import type { Db } from '../../db/connection.js';
import { featureWithGroup, groupExtents, itemsPage, mapHeadAndCount, type GroupExtent } from '../../db/ogcReads.js';
import { visibleToAnyone } from '../../lib/access.js';
import { featureCollectionText } from '../featureArgs.js';
import type { BBox } from '../../lib/formats/featureRows.js';
import type { DocumentHead, MapGroup } from '../../lib/geojson/model.js';
import { groupAndSubgroups } from '../../lib/groupFilter.js';
import type { MapRecord } from '../../lib/maps.js';
import {
  collectionGroup,
  CONFORMANCE,
  CRS84,
  featureTest,
  GREGORIAN,
  groupCollectionId,
  itemsParams,
  MAP_COLLECTION,
  OGC_DEFAULT_LIMIT,
  OGC_MAX_LIMIT,
  OGC_MAX_PAGE_BYTES,
  OgcError,
  timeSpan,
  unionBox,
} from '../../lib/ogcFeatures.js';
import { OgcCollectionList, OgcFeatureTable, OgcList, OgcPage, OgcProperties, type OgcLink } from '../../web/pages/ogcPages.js';
import { findSeenMapByRef, lookUpMapAddress, redirectToMoved } from '../mapAddress.js';
import { chargeMapRead } from '../rateCharges.js';
import { viewerIdOf } from '../viewerId.js';
import { answerPage } from './pageAnswer.js';

const JSON_TYPE = 'application/json';
const GEOJSON = 'application/geo+json';
const HTML = 'text/html';
const OPENAPI = 'application/vnd.oai.openapi+json;version=3.0';

interface Service {
  map: MapRecord;
  /** The service's absolute address, `…/ogc`. */
  base: string;
}

/** Whether the answer is HTML: `f=html`, or no `f` and an Accept header that prefers HTML to JSON. */
function wantsHtml(ctx: Context): boolean {
  const f = ctx.query.f;
  if (f === 'html') return true;
  if (f === 'json') return false;
  if (f !== undefined) throw new OgcError(400, 'InvalidParameterValue', '"f" must be "json" or "html".');
  return ctx.accepts(JSON_TYPE, GEOJSON, OPENAPI, HTML) === HTML;
}

function answerJson(ctx: Context, service: Service, type: string, body: unknown): void {
  ctx.set('Cache-Control', visibleToAnyone(service.map) ? 'public, no-cache' : 'private, no-store');
  ctx.set('Vary', 'Accept, Authorization, Cookie');
  ctx.type = type;
  ctx.body = typeof body === 'string' ? body : JSON.stringify(body);
}

function answerError(ctx: Context, error: OgcError): void {
  ctx.set('Cache-Control', 'no-store');
  let html = false;
  try {
    html = wantsHtml(ctx);
  } catch {
    // A bad `f` is answered in JSON.
  }
  if (html) {
    answerPage(ctx, {
      status: error.status,
      title: error.status === 404 ? 'Not found' : 'Bad request',
      body: h(OgcPage, { heading: error.status === 404 ? 'Not found' : 'Bad request', intro: error.message, trail: [], links: [] }),
    });
    return;
  }
  ctx.status = error.status;
  ctx.type = JSON_TYPE;
  ctx.body = JSON.stringify({ code: error.code, description: error.message });
}

const link = (href: string, rel: string, type: string, title?: string): OgcLink => ({ href, rel, type, ...(title ? { title } : {}) });

/** The JSON and HTML links of a resource at `path` of the service (self and alternate). */
function selfLinks(service: Service, path: string, jsonType: string, html: boolean, title: string): OgcLink[] {
  const json = link(`${service.base}${path}?f=json`, html ? 'alternate' : 'self', jsonType, `${title} as JSON`);
  const page = link(`${service.base}${path}?f=html`, html ? 'self' : 'alternate', HTML, `${title} as HTML`);
  return html ? [page, json] : [json, page];
}

function trail(service: Service, upTo: number, collection?: { id: string; title: string }): { href: string; text: string }[] {
  const steps = [
    { href: `${service.base}?f=html`, text: service.map.title || 'Map' },
    { href: `${service.base}/collections?f=html`, text: 'Collections' },
    ...(collection ? [{ href: `${service.base}/collections/${encodeURIComponent(collection.id)}?f=html`, text: collection.title }] : []),
  ];
  return steps.slice(0, upTo);
}

function groupsOf(headText: string): MapGroup[] {
  return ((JSON.parse(headText) as DocumentHead).groups ?? []) as MapGroup[];
}

interface CollectionInfo {
  id: string;
  title: string;
  description?: string;
  box: BBox | null;
  times: [string, string] | null;
  count: number;
}

/** The map's collections with their extents: `map`, then one per group (its features and its subgroups'). */
function collectionsOf(map: MapRecord, groups: MapGroup[], headText: string, extents: GroupExtent[]): CollectionInfo[] {
  const info = (id: string, title: string, picked: GroupExtent[], description?: string): CollectionInfo => ({
    id,
    title,
    ...(description ? { description } : {}),
    box: unionBox(picked.map((e) => e.box)),
    times: timeSpan(picked.flatMap((e) => e.times ?? [])),
    count: picked.reduce((sum, e) => sum + e.count, 0),
  });
  return [
    info(MAP_COLLECTION, map.title || 'Map', extents, 'Every feature of the map'),
    ...groups.map((group) => {
      const ids = new Set(groupAndSubgroups(headText, group.id));
      return info(groupCollectionId(group.id), group.title || `Group ${group.id}`, extents.filter((e) => e.groupId !== null && ids.has(e.groupId)), `The features of the group "${group.title}" and its subgroups`);
    }),
  ];
}

function collectionJson(service: Service, c: CollectionInfo, html: boolean, path: string) {
  const items = `${service.base}/collections/${encodeURIComponent(c.id)}/items`;
  return {
    id: c.id,
    title: c.title,
    ...(c.description ? { description: c.description } : {}),
    links: [
      ...selfLinks(service, path, JSON_TYPE, html, c.title),
      link(items, 'items', GEOJSON, `The features of ${c.title}`),
      link(`${items}?f=html`, 'items', HTML, `The features of ${c.title} as HTML`),
    ],
    extent: {
      ...(c.box ? { spatial: { bbox: [c.box], crs: CRS84 } } : {}),
      ...(c.times ? { temporal: { interval: [c.times], trs: GREGORIAN } } : {}),
    },
    itemType: 'feature',
    crs: [CRS84],
  };
}

const extentText = (c: CollectionInfo): string =>
  `${c.count.toLocaleString('en')} features${c.box ? `; ${c.box.map((n) => Math.round(n * 1e5) / 1e5).join(', ')}` : ''}${c.times ? `; ${c.times[0]} to ${c.times[1]}` : ''}`;

/** The service's OpenAPI 3.0 document (what GDAL reads the page size from). */
function openApi(service: Service) {
  const ref = (name: string) => ({ $ref: `#/components/parameters/${name}` });
  const json = (description: string, type = JSON_TYPE) => ({ description, content: { [type]: { schema: { type: 'object' } }, [HTML]: { schema: { type: 'string' } } } });
  const errors = {
    '400': { description: 'Bad input: `{code, description}`', content: { [JSON_TYPE]: { schema: { $ref: '#/components/schemas/exception' } } } },
    '404': { description: 'No such map (or not yours to see), collection or feature: `{code, description}`', content: { [JSON_TYPE]: { schema: { $ref: '#/components/schemas/exception' } } } },
  };
  return {
    openapi: '3.0.3',
    info: {
      title: `${service.map.title || 'Map'}: OGC API – Features`,
      version: '1.0.0',
      description: 'A read-only OGC API – Features service of one map. Private maps: send `Authorization: Token <key>`.',
    },
    servers: [{ url: service.base }],
    paths: {
      '/': { get: { summary: 'Landing page', operationId: 'getLandingPage', parameters: [ref('f')], responses: { '200': json('Links to the API, the conformance classes and the collections'), ...errors } } },
      '/conformance': { get: { summary: 'Conformance classes', operationId: 'getConformanceDeclaration', parameters: [ref('f')], responses: { '200': json('The conformance classes this service meets'), ...errors } } },
      '/api': { get: { summary: 'This document', operationId: 'getApi', parameters: [ref('f')], responses: { '200': json('The OpenAPI document', OPENAPI) } } },
      '/collections': { get: { summary: 'The collections: the whole map and each group', operationId: 'getCollections', parameters: [ref('f')], responses: { '200': json('The collections with their extents'), ...errors } } },
      '/collections/{collectionId}': {
        get: { summary: 'One collection', operationId: 'describeCollection', parameters: [ref('collectionId'), ref('f')], responses: { '200': json('The collection'), ...errors } },
      },
      '/collections/{collectionId}/items': {
        get: {
          summary: "The collection's features a page at a time",
          description: 'Any other query parameter `name=value` keeps the features whose property `name` has that value.',
          operationId: 'getFeatures',
          parameters: [ref('collectionId'), ref('limit'), ref('offset'), ref('bbox'), ref('datetime'), ref('f')],
          responses: { '200': json('A GeoJSON FeatureCollection with `next` link while more follow', GEOJSON), ...errors },
        },
      },
      '/collections/{collectionId}/items/{featureId}': {
        get: { summary: 'One feature', operationId: 'getFeature', parameters: [ref('collectionId'), ref('featureId'), ref('f')], responses: { '200': json('A GeoJSON Feature', GEOJSON), ...errors } },
      },
    },
    components: {
      parameters: {
        f: { name: 'f', in: 'query', required: false, schema: { type: 'string', enum: ['json', 'html'] }, description: 'The format (default: as the Accept header prefers)' },
        collectionId: { name: 'collectionId', in: 'path', required: true, schema: { type: 'string' }, description: '`map`, or `group-{id}` for a group' },
        featureId: { name: 'featureId', in: 'path', required: true, schema: { type: 'integer', minimum: 0 } },
        limit: { name: 'limit', in: 'query', required: false, style: 'form', explode: false, schema: { type: 'integer', minimum: 1, maximum: OGC_MAX_LIMIT, default: OGC_DEFAULT_LIMIT } },
        offset: { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 }, description: 'Matching features to pass over; `next` links carry a cursor instead, which costs nothing' },
        bbox: { name: 'bbox', in: 'query', required: false, style: 'form', explode: false, schema: { type: 'array', minItems: 4, maxItems: 6, items: { type: 'number' } }, description: 'west,south,east,north in degrees (CRS84)' },
        datetime: { name: 'datetime', in: 'query', required: false, schema: { type: 'string' }, description: "An instant or an interval (`start/end`, `..` open) met by the feature's `time` or `begin`/`end`" },
      },
      schemas: { exception: { type: 'object', required: ['code'], properties: { code: { type: 'string' }, description: { type: 'string' } } } },
    },
  };
}

function propertyText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

type ShownFeature = { id: number; geometry: { type: string } | null; properties: Record<string, unknown> | null };

function featureRow(service: Service, collectionId: string, feature: ShownFeature) {
  return {
    id: String(feature.id),
    href: `${service.base}/collections/${encodeURIComponent(collectionId)}/items/${feature.id}?f=html`,
    title: propertyText(feature.properties?.title ?? ''),
    geometry: feature.geometry?.type ?? 'none',
  };
}

export function mountOgcRoutes(router: Router, db: Db, publicUrl: string): void {
  const viewerId = viewerIdOf(db);

  /** The map the address names when the caller may see it, or undefined (then the answer is made: a redirect or a 404). */
  async function serviceOf(ctx: Context): Promise<Service | undefined> {
    const prefix = /^(\/[^/]+\/[^/]+\/ogc)(?=\/|$)/.exec(ctx.path)?.[1] ?? '';
    const userId = await viewerId(ctx);
    if (ctx.params.ref !== undefined) {
      const found = await findSeenMapByRef(db, ctx.params.ref, userId);
      if (found) return { map: found.map, base: `${publicUrl}${prefix}` };
    } else {
      const address = await lookUpMapAddress(db, ctx.params.owner ?? '', ctx.params.shortName ?? '', userId);
      if (address.kind === 'moved') {
        redirectToMoved(ctx, address.path, ctx.path.slice(prefix.length - '/ogc'.length));
        return undefined;
      }
      if (address.kind === 'map') return { map: address.found.map, base: `${publicUrl}${prefix}` };
    }
    answerError(ctx, new OgcError(404, 'NotFound', 'There is no such map, or you may not see it (a private map needs "Authorization: Token <key>").'));
    return undefined;
  }

  const handled =
    (handler: (ctx: Context, service: Service) => Promise<void>) =>
    async (ctx: Context): Promise<void> => {
      try {
        const service = await serviceOf(ctx);
        if (service) await handler(ctx, service);
      } catch (error) {
        if (error instanceof OgcError) return answerError(ctx, error);
        throw error;
      }
    };

  async function headOf(service: Service) {
    const read = await mapHeadAndCount(db, service.map.id);
    if (!read) throw new OgcError(404, 'NotFound', 'There is no such map, or you may not see it.');
    return { ...read, groups: groupsOf(read.head) };
  }

  const landing = handled(async (ctx, service) => {
    const html = wantsHtml(ctx);
    const title = service.map.title || 'Map';
    const links = [
      ...selfLinks(service, '', JSON_TYPE, html, 'This page'),
      link(`${service.base}/api`, 'service-desc', OPENAPI, 'The API definition (OpenAPI 3.0)'),
      link(`${service.base}/api?f=html`, 'service-doc', HTML, 'The API definition as HTML'),
      link(`${service.base}/conformance`, 'conformance', JSON_TYPE, 'Conformance classes'),
      link(`${service.base}/collections`, 'data', JSON_TYPE, 'The collections'),
      link(`${service.base}/collections?f=html`, 'data', HTML, 'The collections as HTML'),
    ];
    const description = `The features of the map "${title}" as OGC API – Features: one collection of every feature, and one per group.`;
    if (html) return answerPage(ctx, { title: `${title}: OGC API`, body: h(OgcPage, { heading: `${title}: OGC API – Features`, intro: description, trail: [], links }) });
    answerJson(ctx, service, JSON_TYPE, { title: `${title}: OGC API – Features`, description, links });
  });

  const conformance = handled(async (ctx, service) => {
    const html = wantsHtml(ctx);
    const links = selfLinks(service, '/conformance', JSON_TYPE, html, 'Conformance classes');
    if (html) return answerPage(ctx, { title: 'Conformance', body: h(OgcPage, { heading: 'Conformance classes', trail: trail(service, 1), links }, h(OgcList, { caption: 'This service conforms to', items: CONFORMANCE })) });
    answerJson(ctx, service, JSON_TYPE, { conformsTo: CONFORMANCE, links });
  });

  const api = handled(async (ctx, service) => {
    const document = openApi(service);
    if (wantsHtml(ctx)) {
      const links = selfLinks(service, '/api', OPENAPI, true, 'The API definition');
      const paths = Object.entries(document.paths).map(([path, item]) => `GET ${path}: ${item.get.summary}`);
      return answerPage(ctx, { title: 'API', body: h(OgcPage, { heading: document.info.title, intro: document.info.description, trail: trail(service, 1), links }, h(OgcList, { caption: 'Paths', items: paths })) });
    }
    answerJson(ctx, service, OPENAPI, document);
  });

  const collections = handled(async (ctx, service) => {
    const html = wantsHtml(ctx);
    const { head, groups } = await headOf(service);
    const all = collectionsOf(service.map, groups, head, await groupExtents(db, service.map.id));
    const links = selfLinks(service, '/collections', JSON_TYPE, html, 'The collections');
    if (html) {
      const rows = all.map((c) => ({ id: c.id, title: c.title, href: `${service.base}/collections/${encodeURIComponent(c.id)}?f=html`, extent: extentText(c) }));
      return answerPage(ctx, { title: 'Collections', body: h(OgcPage, { heading: 'Collections', trail: trail(service, 1), links }, h(OgcCollectionList, { collections: rows })) });
    }
    answerJson(ctx, service, JSON_TYPE, { links, collections: all.map((c) => collectionJson(service, c, false, `/collections/${encodeURIComponent(c.id)}`)) });
  });

  const collection = handled(async (ctx, service) => {
    const html = wantsHtml(ctx);
    const { head, groups } = await headOf(service);
    const id = ctx.params.collectionId ?? '';
    collectionGroup(id, groups);
    const c = collectionsOf(service.map, groups, head, await groupExtents(db, service.map.id)).find((info) => info.id === id)!;
    const body = collectionJson(service, c, html, `/collections/${encodeURIComponent(c.id)}`);
    if (html) return answerPage(ctx, { title: c.title, body: h(OgcPage, { heading: c.title, intro: `${c.description ?? ''}. ${extentText(c)}.`, trail: trail(service, 2), links: body.links }) });
    answerJson(ctx, service, JSON_TYPE, body);
  });

  const items = handled(async (ctx, service) => {
    const html = wantsHtml(ctx);
    const params = itemsParams(ctx.query);
    const { head, groups, featureCount } = await headOf(service);
    const id = ctx.params.collectionId ?? '';
    const { group } = collectionGroup(id, groups);
    const keep = featureTest(params);
    const page = await itemsPage(db, service.map.id, {
      afterOrdinal: params.cursor ?? 0,
      skip: params.cursor === undefined ? params.offset : 0,
      limit: params.limit,
      maxBytes: OGC_MAX_PAGE_BYTES,
      ...(params.bbox ? { box: params.bbox } : {}),
      ...(group ? { groupIds: groupAndSubgroups(head, group.id) } : {}),
      ...(keep ? { keep } : {}),
    });
    // A page costs what map/get of a map its size would (1, and more per whole MB).
    await chargeMapRead(ctx, page.features.reduce((sum, text) => sum + text.length, 0));
    const path = `/collections/${encodeURIComponent(id)}/items`;
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(ctx.query)) if (name !== 'f' && typeof value === 'string') query.set(name, value);
    const here = query.toString();
    const linkTo = (format: string) => `${service.base}${path}?${here ? `${here}&` : ''}f=${format}`;
    const links: OgcLink[] = [
      link(linkTo(html ? 'html' : 'json'), 'self', html ? HTML : GEOJSON, 'This page'),
      link(linkTo(html ? 'json' : 'html'), 'alternate', html ? GEOJSON : HTML, html ? 'This page as GeoJSON' : 'This page as HTML'),
      link(`${service.base}/collections/${encodeURIComponent(id)}`, 'collection', JSON_TYPE, 'The collection'),
    ];
    if (page.nextOrdinal !== null) {
      const next = new URLSearchParams(query);
      next.set('limit', String(params.limit));
      next.set('offset', String(params.offset + page.count));
      next.set('cursor', String(page.nextOrdinal));
      for (const format of html ? ['html', 'json'] : ['json', 'html']) {
        next.set('f', format);
        links.push(link(`${service.base}${path}?${next.toString()}`, 'next', format === 'html' ? HTML : GEOJSON, format === 'html' ? 'The next page as HTML' : 'The next page'));
      }
    }
    const unfiltered = !group && !params.bbox && !keep;
    if (html) {
      const rows = (JSON.parse(`[${page.features.join(',')}]`) as ShownFeature[]).map((feature) => featureRow(service, id, feature));
      const title = group ? group.title || `Group ${group.id}` : service.map.title || 'Map';
      const caption = `Features ${(params.offset + (rows.length ? 1 : 0)).toLocaleString('en')}–${(params.offset + rows.length).toLocaleString('en')}${unfiltered ? ` of ${featureCount.toLocaleString('en')}` : ''}`;
      return answerPage(ctx, { title: `${title}: features`, body: h(OgcPage, { heading: `${title}: features`, trail: trail(service, 3, { id, title }), links }, h(OgcFeatureTable, { caption, features: rows })) });
    }
    answerJson(
      ctx,
      service,
      GEOJSON,
      featureCollectionText({ links, timeStamp: new Date().toISOString(), ...(unfiltered ? { numberMatched: featureCount } : {}), numberReturned: page.count }, page.features),
    );
  });

  const item = handled(async (ctx, service) => {
    const html = wantsHtml(ctx);
    const { head, groups } = await headOf(service);
    const id = ctx.params.collectionId ?? '';
    const { group } = collectionGroup(id, groups);
    const fid = ctx.params.featureId ?? '';
    const missing = new OgcError(404, 'NotFound', `The collection "${id}" has no feature "${fid}".`);
    if (!/^\d{1,15}$/.test(fid)) throw missing;
    const found = await featureWithGroup(db, service.map.id, Number(fid));
    if (!found || (group && (found.groupId === null || !groupAndSubgroups(head, group.id).includes(found.groupId)))) throw missing;
    const feature = JSON.parse(found.text) as { id: number; properties: Record<string, unknown> | null; geometry: { type: string } | null };
    const path = `/collections/${encodeURIComponent(id)}/items/${fid}`;
    const links = [...selfLinks(service, path, GEOJSON, html, `Feature ${fid}`), link(`${service.base}/collections/${encodeURIComponent(id)}`, 'collection', JSON_TYPE, 'The collection')];
    if (html) {
      const title = propertyText(feature.properties?.title ?? `Feature ${fid}`) || `Feature ${fid}`;
      const properties: [string, string][] = [['geometry', feature.geometry?.type ?? 'none'], ...Object.entries(feature.properties ?? {}).map(([name, value]): [string, string] => [name, propertyText(value)])];
      const collectionTitle = group ? group.title || `Group ${group.id}` : service.map.title || 'Map';
      return answerPage(ctx, { title, body: h(OgcPage, { heading: title, trail: trail(service, 3, { id, title: collectionTitle }), links }, h(OgcProperties, { properties })) });
    }
    answerJson(ctx, service, GEOJSON, { ...feature, links });
  });

  // `/maps/{id}/ogc` before `/{owner}/{short name}/ogc` ('maps' is no one's username).
  for (const base of ['/maps/:ref/ogc', '/:owner/:shortName/ogc']) {
    router.get(base, landing);
    router.get(`${base}/`, landing);
    router.get(`${base}/conformance`, conformance);
    router.get(`${base}/api`, api);
    router.get(`${base}/collections`, collections);
    router.get(`${base}/collections/:collectionId`, collection);
    router.get(`${base}/collections/:collectionId/items`, items);
    router.get(`${base}/collections/:collectionId/items/:featureId`, item);
  }
}
