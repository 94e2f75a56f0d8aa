// The route table: every API operation, its path under /api/1/ and how its arguments arrive.
import type { Handler } from './context.js';
import { mapAppend } from './routes/map/append.js';
import { mapGet } from './routes/map/get.js';
import { mapList } from './routes/map/list.js';
import { mapUpdate } from './routes/map/update.js';
import { mapUpload } from './routes/map/upload.js';

export interface Operation {
  path: string;
  /** json: arguments in the JSON body; file: arguments in Service-API-Arg, the file as the body. */
  args: 'json' | 'file';
  handler: Handler;
}

export const OPERATIONS: Operation[] = [
  { path: 'map/list', args: 'json', handler: mapList },
  { path: 'map/get', args: 'json', handler: mapGet },
  { path: 'map/upload', args: 'file', handler: mapUpload },
  { path: 'map/update', args: 'json', handler: mapUpdate },
  { path: 'map/append', args: 'file', handler: mapAppend },
];
