// The web editor's Import (POST /maps/{id}/import, api/web/editorEndpoints/mapImport.ts): the JSON it
// answers besides the map's summary fields, which the browser reads (web/app/importDialog.ts).
import type { GuessedFormat, ImportSummary } from './jobContracts.js';

export interface WebImportAnswer {
  import: ImportSummary;
  /** The format the content was recognised as. */
  format: GuessedFormat | null;
  /** The title of the group the items were put into, when one was asked for. */
  new_group: string | null;
  /** Whether a new static image was asked for. */
  image: 'refreshing' | 'not_refreshed';
}
