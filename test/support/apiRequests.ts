// HTTP requests to an API process, as a client program sends them: JSON operations, and file
// operations with their arguments in Service-API-Arg and an optional Idempotency-Key. Anything
// but HTTP 200 with a JSON body is thrown (the API never answers otherwise: a 500 is a bug).

/** Answers are checked field by field in the tests; a loose type keeps those checks short. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Answer = Record<string, any>;

export interface RequestOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
}

async function answerOf(op: string, response: Response): Promise<Answer> {
  const text = await response.text();
  if (response.status !== 200) throw new Error(`HTTP ${response.status} from ${op}: ${text.slice(0, 500)}`);
  try {
    return JSON.parse(text) as Answer;
  } catch {
    throw new Error(`${op} answered something that is not JSON: ${text.slice(0, 500)}`);
  }
}

/** POST /api/1/<op> with a JSON body. */
export async function callApi(url: string, op: string, key: string, body: unknown, options: RequestOptions = {}): Promise<Answer> {
  const response = await fetch(`${url}/api/1/${op}`, {
    method: 'POST',
    headers: { authorization: `Token ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: options.signal,
  });
  return answerOf(op, response);
}

/** A file operation: arguments in Service-API-Arg, the file as the body. */
export async function sendFile(url: string, op: string, key: string, args: unknown, file?: string | Uint8Array, options: RequestOptions = {}): Promise<Answer> {
  const response = await fetch(`${url}/api/1/${op}`, {
    method: 'POST',
    headers: {
      authorization: `Token ${key}`,
      'service-api-arg': JSON.stringify(args),
      ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
    },
    body: file as string | Uint8Array<ArrayBuffer> | undefined,
    signal: options.signal,
  });
  return answerOf(op, response);
}

/** A GeoJSON file of `count` points whose titles start with `tag` (`<tag> #0`, `<tag> #1` …). */
export function pointsFile(tag: string, count: number): string {
  return JSON.stringify({
    type: 'FeatureCollection',
    features: Array.from({ length: count }, (_, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [(i % 360) - 180, (i % 170) - 85] },
      properties: { title: `${tag} #${i}` },
    })),
  });
}
