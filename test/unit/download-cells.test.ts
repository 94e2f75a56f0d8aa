// The cells the table downloads write (CSV and XLSX) and the table import reads back: text a
// spreadsheet would run as a formula gets one apostrophe, which the import takes off again, and
// XLSX text carries what XML cannot through OOXML's `_xHHHH_` escapes, which the XLSX reader decodes.
import { describe, expect, it } from 'vitest';
import { ooxmlText } from '../../lib/formats/export/xlsx.js';
import { decodeOoxmlEscapes } from '../../lib/formats/spreadsheet/xml.js';
import { neutraliseFormula, textOfCell } from '../../lib/formats/tableCells.js';

describe('download cells', () => {
  it('neutralises formula-looking text and the import restores it exactly', () => {
    const formulas = ['=1+1', '+33 1 23', '-5 degrees', '@mention', '\tindented', '\rreturn', '=1+1\nsecond line', '＝SUM(A1)', '＋1', '－2', '＠x', "'=already quoted", "''+twice"];
    for (const text of formulas) {
      expect(neutraliseFormula(text)).toBe(`'${text}`);
      expect(textOfCell(neutraliseFormula(text))).toBe(text);
    }
    for (const text of ['plain', "'apostrophe kept", "it's", '5 - 3', 'a=b', '']) {
      expect(neutraliseFormula(text)).toBe(text);
      expect(textOfCell(text)).toBe(text);
    }
  });

  it('escapes for OOXML what XML cannot carry, and text that reads like an escape', () => {
    const text = 'bell\u0007 vt\u000b cr\r\n del\u007f _x0041_ _X_ \uFFFE tab\t end';
    const escaped = ooxmlText(text);
    expect(escaped).toBe('bell_x0007_ vt_x000B_ cr_x000D_\n del_x007F_ _x005F_x0041_ _X_ _xFFFE_ tab\t end');
    expect(decodeOoxmlEscapes(escaped)).toBe(text);
    expect(ooxmlText('Café "Flore" <b>&</b>')).toBe('Café "Flore" <b>&</b>'); // exceljs escapes XML's own characters
  });
});
