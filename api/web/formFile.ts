// A file sent from a page as a multipart form (the web editor's Import): busboy reads the form as
// it streams, the file part goes into the blob store under the upload cap as the API's file
// bodies do (api/fileBody.ts: refused at the first byte past 15 MB, never buffered), and a few
// short text fields are kept. Failures are AppErrors a JSON route answers with its status.
import busboy from 'busboy';
import type { Context } from 'koa';
import type { BlobStore } from '../../lib/blobs/blobStore.js';
import { AppError } from '../../lib/errors.js';
import { storeUpload, tooLarge, type ReceivedFile } from '../fileBody.js';
import { decodedBody } from '../requestBody.js';

/** What a form may add to its file's bytes (boundaries, part headers, the text fields). */
const FORM_OVERHEAD_BYTES = 64 * 1024;
/** The longest text field: a 500-character group title takes at most 2,000 bytes of UTF-8. */
const FIELD_BYTES = 4 * 1024;

export interface FormFileOptions {
  /** The name of the file's field. */
  fileField: string;
  /** The text fields kept; any other field is ignored. */
  fields: readonly string[];
  /** null: no cap (enterprise). */
  maxBytes: number | null;
}

export interface ReceivedForm {
  file: ReceivedFile;
  /** The kept text fields the form had. */
  fields: Record<string, string>;
}

const noFile = (field: string) => () => new AppError('missing_file', `The form has no file: choose one and send it in the "${field}" field.`);

/** Reads the request's multipart form: its file into the blob store, its kept fields. */
export async function receiveFormFile(ctx: Context, blobs: BlobStore, options: FormFileOptions): Promise<ReceivedForm> {
  const { maxBytes } = options;
  const declared = Number(ctx.get('content-length') || Number.NaN);
  if (maxBytes !== null && declared > maxBytes + FORM_OVERHEAD_BYTES) throw tooLarge(ctx, maxBytes);
  let parser: busboy.Busboy;
  try {
    // Parts past the file and the kept fields are not read.
    parser = busboy({
      headers: ctx.req.headers,
      limits: { files: 1, fields: options.fields.length, parts: options.fields.length + 1, fieldSize: FIELD_BYTES },
    });
  } catch {
    throw new AppError('missing_file', `Send the file as a multipart form (multipart/form-data) with a "${options.fileField}" field.`);
  }
  const fields: Record<string, string> = {};
  let stored: Promise<ReceivedFile> | undefined;
  const body = decodedBody(ctx);
  try {
    await new Promise<void>((resolve, reject) => {
      const malformed = () => reject(new AppError('invalid_arguments', 'The form could not be read: it is not a well-formed multipart form.'));
      parser.on('file', (name, stream) => {
        if (name !== options.fileField || stored) return stream.resume(); // not ours: read past it
        stored = storeUpload(ctx, blobs, stream, maxBytes, () => new AppError('missing_file', 'The chosen file is empty.'));
        // A file too large (or cut off) ends the wait at once: the rest of the form is not read.
        stored.catch(reject);
      });
      parser.on('field', (name, value, info) => {
        if (!options.fields.includes(name)) return;
        if (info.valueTruncated) reject(new AppError('invalid_arguments', `The form's "${name}" is too long.`));
        fields[name] = value;
      });
      parser.on('error', malformed);
      body.on('error', reject);
      // The form is read when busboy is done and the file is stored.
      parser.on('close', () => (stored ?? Promise.resolve()).then(() => resolve(), reject));
      body.pipe(parser);
    });
  } catch (error) {
    body.unpipe(parser);
    body.resume(); // the rest of the body, if any, is read and dropped
    await stored?.then((file) => blobs.delete(file.key)).catch(() => undefined);
    throw error;
  }
  if (!stored) throw noFile(options.fileField)();
  return { file: await stored, fields };
}
