/**
 * Two engine rules the server relies on to give the browser's very report: an error met twice on a line is
 * listed and counted once, and a NUL character (which no database stores) is an error of the line, not a 500.
 */
import { describe, expect, it } from 'vitest';
import { references, validate } from './testKit';

const refs = references();
const HEADER = 'zone;code;opened;depth;slots;automatic;serial;tags;neighbours;remark;p_ph;p_conductivity';

describe('errors the server stores nothing for', () => {
  it('lists an error met twice on one line once', () => {
    const result = validate('stations', `${HEADER}\nNord;S1;;;;;;;Est,Est,Ouest;;;\n`, { references: refs });
    expect(result.report.errors.map((error) => [error.lineNumber, error.code, error.params.value])).toEqual([
      [2, 'invalidReferenceWithComponent', 'Est'],
      [2, 'invalidReferenceWithComponent', 'Ouest'],
    ]);
    expect(result.report.errorCount).toBe(2);
  });

  it('refuses a NUL character in a value, wherever the chunks are cut', () => {
    for (const chunkSize of [1, 7, 1000]) {
      const result = validate('properties', 'name;unit\nph;\nconductivity;µS\u0000cm\n', { chunkSize });
      expect(result.report.errors).toEqual([
        { lineNumber: 3, code: 'invalidFormat', params: { reason: 'nulCharacter', columnNumber: 2 }, column: 'unit' },
      ]);
      expect(result.rows.map((row) => row.naturalKey)).toEqual(['ph']);
    }
  });

  it('refuses a NUL character in the header, and reads no row', () => {
    const result = validate('properties', 'name;un\u0000it\nph;\n');
    expect(result.report.errors.map((error) => [error.lineNumber, error.code, error.params.reason])).toContainEqual([
      1,
      'invalidFormat',
      'nulCharacter',
    ]);
    expect(result.rows).toEqual([]);
  });

  it('refuses bytes that are not UTF-8 (a file saved as Latin-1), in the values and in the header', () => {
    const latin1 = (text: string) =>
      new TextDecoder('utf-8').decode(Uint8Array.from(text, (character) => character.charCodeAt(0)));
    for (const chunkSize of [1, 7, 1000]) {
      const result = validate('properties', latin1('name;unit\nph;\nconductivity;\xb5S/cm\n'), { chunkSize });
      expect(result.report.errors).toEqual([
        { lineNumber: 3, code: 'invalidFormat', params: { reason: 'notUtf8', columnNumber: 2 }, column: 'unit' },
      ]);
      expect(result.rows.map((row) => row.naturalKey)).toEqual(['ph']);
    }
    const header = validate('properties', latin1('name;unit\xe9\nph;\n'));
    expect(header.report.errors.map((error) => [error.lineNumber, error.code, error.params.reason])).toContainEqual([
      1,
      'invalidFormat',
      'notUtf8',
    ]);
    expect(header.rows).toEqual([]);
  });
});
