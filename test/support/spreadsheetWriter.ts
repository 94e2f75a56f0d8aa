// Builds XLSX and ODS files for tests: the parts the readers look at, written as Excel and
// LibreOffice write them, in any shape a test needs (hostile ones included).
import { makeZip, type ZipInput } from './zipWriter.js';

export const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
export const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export interface XlsxParts {
  sheets?: { xml: string; hidden?: boolean; chart?: boolean }[];
  sharedStrings?: string[] | string;
  styles?: string;
  workbookPr?: string;
  extra?: ZipInput[];
  replace?: Record<string, ZipInput>;
}

export const sheetXml = (rows: string, dimension = '') =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${NS}" xmlns:r="${REL}">${dimension}<sheetData>${rows}</sheetData></worksheet>`;

export function makeXlsx(parts: XlsxParts): Uint8Array {
  const sheets = parts.sheets ?? [];
  const workbook = `<?xml version="1.0"?><workbook xmlns="${NS}" xmlns:r="${REL}">${parts.workbookPr ?? ''}<sheets>${sheets
    .map((sheet, index) => `<sheet name="S${index + 1}" sheetId="${index + 1}"${sheet.hidden ? ' state="hidden"' : ''} r:id="rId${index + 1}"/>`)
    .join('')}</sheets></workbook>`;
  const rels = `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets
    .map((sheet, index) =>
      sheet.chart
        ? `<Relationship Id="rId${index + 1}" Type="${REL}/chartsheet" Target="chartsheets/sheet${index + 1}.xml"/>`
        : `<Relationship Id="rId${index + 1}" Type="${REL}/worksheet" Target="/xl/worksheets/sheet${index + 1}.xml"/>`,
    )
    .join('')}<Relationship Id="rIdS" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rIdT" Type="${REL}/styles" Target="styles.xml"/></Relationships>`;
  const shared =
    typeof parts.sharedStrings === 'string'
      ? parts.sharedStrings
      : `<?xml version="1.0"?><sst xmlns="${NS}">${(parts.sharedStrings ?? []).map((text) => `<si><t>${text}</t></si>`).join('')}</sst>`;
  const entries: ZipInput[] = [
    { name: '[Content_Types].xml', data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>' },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    { name: 'xl/workbook.xml', data: workbook },
    { name: 'xl/_rels/workbook.xml.rels', data: rels },
    { name: 'xl/sharedStrings.xml', data: shared },
    ...(parts.styles === undefined ? [] : [{ name: 'xl/styles.xml', data: parts.styles }]),
    ...sheets.map((sheet, index) => ({
      name: sheet.chart ? `xl/chartsheets/sheet${index + 1}.xml` : `xl/worksheets/sheet${index + 1}.xml`,
      data: sheet.xml,
    })),
    ...(parts.extra ?? []),
  ].map((entry) => parts.replace?.[entry.name] ?? entry);
  return makeZip(entries);
}

/** A one-sheet XLSX whose sheet has these rows (inline strings for text). */
export function simpleXlsx(rows: (string | number | null)[][], dimension = ''): Uint8Array {
  const xml = rows
    .map(
      (row, r) =>
        `<row r="${r + 1}">${row
          .map((value, c) => {
            const ref = `${String.fromCharCode(65 + c)}${r + 1}`;
            if (value === null) return '';
            if (typeof value === 'number') return `<c r="${ref}"><v>${value}</v></c>`;
            return `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;
          })
          .join('')}</row>`,
    )
    .join('');
  return makeXlsx({ sheets: [{ xml: sheetXml(xml, dimension) }] });
}

export function makeOds(tableXml: string, mimetype = 'application/vnd.oasis.opendocument.spreadsheet'): Uint8Array {
  const content = `<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" office:version="1.3"><office:body><office:spreadsheet>${tableXml}</office:spreadsheet></office:body></office:document-content>`;
  return makeZip([
    { name: 'mimetype', data: mimetype, store: true },
    { name: 'content.xml', data: content },
    { name: 'META-INF/manifest.xml', data: '<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>' },
  ]);
}

export const odsCell = (value: string | number, attrs = '') =>
  typeof value === 'number'
    ? `<table:table-cell office:value-type="float" office:value="${value}" calcext:value-type="float"${attrs}><text:p>${value}</text:p></table:table-cell>`
    : `<table:table-cell office:value-type="string" calcext:value-type="string"${attrs}><text:p>${value}</text:p></table:table-cell>`;

export const odsHeader = `<table:table-row>${odsCell('lat')}${odsCell('lon')}${odsCell('name')}</table:table-row>`;
