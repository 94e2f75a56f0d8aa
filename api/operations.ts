// The route table: every API operation, each declared in its own file under routes/.
import type { Operation } from './operation.js';
import { operation as basemapList } from './routes/basemap/list.js';
import { operation as featureGet } from './routes/feature/get.js';
import { operation as featureList } from './routes/feature/list.js';
import { operation as featureSave } from './routes/feature/save.js';
import { operation as imageUpload } from './routes/image/upload.js';
import { operation as mapAppend } from './routes/map/append.js';
import { operation as mapChanges } from './routes/map/changes.js';
import { operation as mapGet } from './routes/map/get.js';
import { operation as mapList } from './routes/map/list.js';
import { operation as mapRefreshImage } from './routes/map/refreshImage.js';
import { operation as mapUpdate } from './routes/map/update.js';
import { operation as mapUpload } from './routes/map/upload.js';
import { operation as markerUpload } from './routes/marker/upload.js';
import { operation as placeSearch } from './routes/place/search.js';
import { operation as webhookCreate } from './routes/webhook/create.js';
import { operation as webhookDelete } from './routes/webhook/delete.js';
import { operation as webhookList } from './routes/webhook/list.js';

export const OPERATIONS: readonly Operation[] = [mapList, mapGet, mapUpload, mapUpdate, mapAppend, mapRefreshImage, featureGet, featureList, featureSave, mapChanges, imageUpload, markerUpload, basemapList, placeSearch, webhookCreate, webhookList, webhookDelete];
