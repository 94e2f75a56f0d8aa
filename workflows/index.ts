// The workflow bundle's entry: every workflow the workers run. Workflow names (the export
// names) are a persisted contract.
export { appendMap } from './appendMap.js';
export { cleanup } from './cleanup.js';
export { mapImage } from './mapImage.js';
export { mediaCleanup } from './mediaCleanup.js';
export { uploadMap } from './uploadMap.js';
export { uploadMedia } from './uploadMedia.js';
export { deliverWebhook } from './deliverWebhook.js';
