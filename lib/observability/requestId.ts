// How a request's id travels with its work (a persisted contract, like lib/jobContracts.ts; pure
// data, imported by workflow code): the API puts it in the memo of the workflow a request
// starts, where the Temporal Web UI shows it (a memo needs no registration on the namespace,
// unlike a search attribute); the workflow passes it on to its activities in a header
// (workflows/requestContext.ts), and the workers add it to their log lines as `request_id`.
export const REQUEST_ID_MEMO = 'request_id';
export const REQUEST_ID_HEADER = 'request-id';

/** An incoming X-Request-Id worth keeping: 1–128 letters, digits, `-`, `_`, `.` or `:` (a UUID, a ULID, a trace id). */
export const SANE_REQUEST_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
