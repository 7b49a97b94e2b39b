/** Chunk-boundary independence: the same records, rows and report whatever the chunks, BOM and line ends. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCsvValidator } from './index';
import { CsvTokenizer, MAX_FIELD_LENGTH, type RecordProblem } from './tokenizer';
import { references, testModel, validate } from './testKit';

type Record_ = [string[], number, RecordProblem[] | null];

function tokenize(chunks: readonly string[], separator = ';'): Record_[] {
  const records: Record_[] = [];
  const tokenizer = new CsvTokenizer(separator, (fields, number, problems) => records.push([fields, number, problems]));
  for (const chunk of chunks) tokenizer.push(chunk);
  tokenizer.end();
  return records;
}

function cut(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let start = 0; start < text.length; start += size) chunks.push(text.slice(start, start + size));
  return chunks;
}

/**
 * The records of a text read one character at a time, as the tokenizer's faster paths must read it: a line ends at
 * LF, CRLF or a lone CR outside quotes; text after a closing quote is kept.
 */
function plainReading(text: string): Array<[string[], number]> {
  const records: Array<[string[], number]> = [];
  let fields: string[] = [];
  let field = '';
  let state: 'start' | 'unquoted' | 'quoted' | 'afterQuote' = 'start';
  let inRecord = false;
  const endRecord = () => {
    fields.push(field);
    records.push([fields, records.length + 1]);
    fields = [];
    field = '';
    state = 'start';
    inRecord = false;
  };
  for (let i = 0; i < text.length; i += 1) {
    const character = text[i];
    inRecord = true;
    if (state === 'quoted') {
      if (character === '"') state = 'afterQuote';
      else field += character;
    } else if (state === 'afterQuote' && character === '"') {
      field += '"';
      state = 'quoted';
    } else if (state === 'start' && character === '"') state = 'quoted';
    else if (character === ';') {
      fields.push(field);
      field = '';
      state = 'start';
    } else if (character === '\n' || character === '\r') {
      if (character === '\r' && text[i + 1] === '\n') i += 1;
      endRecord();
    } else {
      field += character;
      state = 'unquoted';
    }
  }
  if (inRecord) endRecord();
  return records;
}

/** A text's bytes in UTF-16. */
function utf16Bytes(text: string, littleEndian: boolean): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < text.length; i++) view.setUint16(i * 2, text.charCodeAt(i), littleEndian);
  return bytes;
}

/** Bytes as the workers read a file. */
const readAsUtf8 = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes);

const SAMPLE = '\uFEFFa;b;c\r\n1;"x;y";3\r\n"multi\r\nline";"say ""hi""";\r\n\r\nlast;"";"open';

describe('the tokenizer', () => {
  it('reads quotes, doubled quotes, separators and line breaks in quotes, empty lines, CRLF and a BOM', () => {
    expect(tokenize([SAMPLE])).toEqual([
      [['a', 'b', 'c'], 1, null],
      [['1', 'x;y', '3'], 2, [{ kind: 'separatorInValue', field: 1 }]],
      [['multi\r\nline', 'say "hi"', ''], 3, null],
      [[''], 4, null],
      [['last', '', 'open'], 5, [{ kind: 'unterminatedQuote', field: 2 }]],
    ]);
  });

  it('gives the same records for every chunk size, 1 character included', () => {
    const whole = tokenize([SAMPLE]);
    for (const size of [1, 2, 3, 4, 5, 7, 11, 16, 64])
      expect(tokenize(cut(SAMPLE, size)), `chunks of ${size}`).toEqual(whole);
  });

  it('handles a CRLF, a quoted field and the BOM split between chunks', () => {
    const expected = [
      [['a', 'b'], 1, null],
      [['q"uote', 'z'], 2, null],
    ];
    expect(tokenize(['\uFEFF', 'a;b\r', '\n"q""', 'uote";z\r', '\n'])).toEqual(expected);
    expect(tokenize(['', '\uFEFFa;b\r\n"q"', '"uote";z'])).toEqual(expected);
  });

  it('reads LF and CRLF files alike', () => {
    expect(tokenize(['a;b\n1;2\n'])).toEqual(tokenize(['a;b\r\n1;2\r\n']));
  });

  it('reads lone CR, CRLF, LF and mixed line ends alike, empty lines included', () => {
    const lf = [
      [['a', 'b'], 1, null],
      [['1', '2'], 2, null],
      [[''], 3, null],
      [['3', '4'], 4, null],
    ];
    for (const text of ['a;b\n1;2\n\n3;4\n', 'a;b\r1;2\r\r3;4\r', 'a;b\r\n1;2\r\n\r\n3;4', 'a;b\r1;2\n\r\n3;4\r\n'])
      expect(tokenize([text]), JSON.stringify(text)).toEqual(lf);
    // A quoted last field closes at the break as an unquoted one does.
    expect(tokenize(['"a";"b"\r"1";2\r'])).toEqual(lf.slice(0, 2));
  });

  it('keeps line breaks inside quotes as they are, a lone CR included', () => {
    expect(tokenize(['k;"x\ry";"a\r\nb";"c\nd"\r2;"\r"\r'])).toEqual([
      [['k', 'x\ry', 'a\r\nb', 'c\nd'], 1, null],
      [['2', '\r'], 2, null],
    ]);
  });

  it('reads a lone CR file in chunks of every size, and a CRLF cut between two chunks as one break', () => {
    const text = '\uFEFFcode;label;parent\rNord;Nord;\r"Lac\rBleu";"Lac ""bleu""";Nord\r\rSud;Sud;\r\nEst;Est;\r';
    const whole = tokenize([text]);
    expect(whole).toEqual([
      [['code', 'label', 'parent'], 1, null],
      [['Nord', 'Nord', ''], 2, null],
      [['Lac\rBleu', 'Lac "bleu"', 'Nord'], 3, null],
      [[''], 4, null],
      [['Sud', 'Sud', ''], 5, null],
      [['Est', 'Est', ''], 6, null],
    ]);
    for (let size = 1; size <= text.length; size += 1)
      expect(tokenize(cut(text, size)), `chunks of ${size}`).toEqual(whole);
    for (const chunks of [
      ['a\r', '\nb'],
      ['a\r', '', '\nb\r'],
      ['"a"\r', '\nb'],
      ['a', '\r', '\n', 'b'],
    ])
      expect(tokenize(chunks), JSON.stringify(chunks)).toEqual([
        [['a'], 1, null],
        [['b'], 2, null],
      ]);
    expect(tokenize(['a\r', '\r', '\nb'])).toEqual([
      [['a'], 1, null],
      [[''], 2, null],
      [['b'], 3, null],
    ]);
  });

  it('cuts a field past its limit, says so once, and reads on, however the chunks fall', () => {
    const long = 'x'.repeat(MAX_FIELD_LENGTH + 10);
    const text = `a;b\n1;${long}\n"${long}";2\n"${long}\nlast;3\n`;
    const cutLong = long.slice(0, MAX_FIELD_LENGTH);
    const expected = [
      [['a', 'b'], 1, null],
      [['1', cutLong], 2, [{ kind: 'fieldTooLong', field: 1 }]],
      [[cutLong, '2'], 3, [{ kind: 'fieldTooLong', field: 0 }]],
      // A quote never closed: the rest of the file is its one field, cut, and not held whole.
      [
        [cutLong],
        4,
        [
          { kind: 'unterminatedQuote', field: 0 },
          { kind: 'fieldTooLong', field: 0 },
        ],
      ],
    ];
    for (const size of [text.length, 1_000_000, 65_536, 4_099])
      expect(tokenize(cut(text, size)), `chunks of ${size}`).toEqual(expected);
  });

  it('tells a field one character past the limit however it is cut, and not one at the limit before a CR', () => {
    const atLimit = 'b'.repeat(MAX_FIELD_LENGTH);
    const quoted = `${'a'.repeat(MAX_FIELD_LENGTH - 1)}"`;
    const cases: Array<[string, Record_[]]> = [
      [`"${'a'.repeat(MAX_FIELD_LENGTH - 1)}""bbbb"\n`, [[[quoted], 1, [{ kind: 'fieldTooLong', field: 0 }]]]],
      [`x;${atLimit}cccc\n`, [[['x', atLimit], 1, [{ kind: 'fieldTooLong', field: 1 }]]]],
      [`"x";${atLimit}\r\n`, [[['x', atLimit], 1, null]]],
      [`x;${atLimit}\r\n`, [[['x', atLimit], 1, null]]],
    ];
    const cuts = [
      1,
      3,
      MAX_FIELD_LENGTH - 2,
      MAX_FIELD_LENGTH,
      MAX_FIELD_LENGTH + 1,
      MAX_FIELD_LENGTH + 3,
      MAX_FIELD_LENGTH + 5,
    ];
    for (const [text, expected] of cases)
      for (const at of cuts) expect(tokenize([text.slice(0, at), text.slice(at)]), `cut at ${at}`).toEqual(expected);
  });

  it('keeps text after a closing quote and says so', () => {
    expect(tokenize(['"ab"cd;e\n'])).toEqual([[['abcd', 'e'], 1, [{ kind: 'textAfterQuote', field: 0 }]]]);
  });

  it('agrees with a plain reading of the same text, character by character, on random texts', () => {
    const alphabet = fc.constantFrom('a', ';', '"', '\n', '\r', ' ');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (characters) => {
        const text = characters.join('');
        expect(tokenize([text]).map(([fields, number]) => [fields, number])).toEqual(plainReading(text));
      }),
      { numRuns: 500, seed: 11 },
    );
  });

  it('matches a reference reading on random texts and random cuts', () => {
    const alphabet = fc.constantFrom('a', 'b', ';', ',', '"', '\n', '\r', ' ', 'é');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 20 }),
        (characters, sizes) => {
          const text = characters.join('');
          const chunks: string[] = [];
          let start = 0;
          for (let index = 0; start < text.length; index += 1) {
            const size = sizes[index % sizes.length];
            chunks.push(text.slice(start, start + size));
            start += size;
          }
          expect(tokenize(chunks)).toEqual(tokenize([text]));
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });
});

describe('the validator in chunks', () => {
  const refs = references();
  const STATIONS =
    '\uFEFFzone;code;opened;depth;slots;automatic;serial;tags;neighbours;remark;p_ph\r\n' +
    'Lac Bleu;S1;01/02/2003;12,5;3;true;AB123;"a, b";"Nord,Sud";"a ""quoted""\r\nremark";7.1\r\n' +
    'Nord;S2;xx;;;;;;;;\r\n' +
    'Sud;S3;01/02/2003;;;;;;;;\r\n' +
    'Nord;S2;01/02/2003;;;;;;;;';

  it('gives the same rows and report for every chunk size', () => {
    const whole = validate('stations', STATIONS, { references: refs });
    expect(whole.report.errors.map((error) => error.code)).toEqual([
      'invalidDateWithComponent',
      'duplicatedLineInReference',
    ]);
    // The line repeating a key is not given (the file is refused at its end).
    expect(whole.rows.map((row) => row.values.note)).toEqual(['a "quoted"\r\nremark', '']);
    const expected = JSON.stringify(whole);
    for (const size of [1, 2, 3, 5, 8, 13, 64, 1000])
      expect(
        JSON.stringify(validate('stations', STATIONS, { references: refs, chunkSize: size })),
        `chunks of ${size}`,
      ).toBe(expected);
  });

  it('tells a UTF-16 file by its first characters, little or big endian, with or without its mark', () => {
    const utf16 = [{ lineNumber: -1, code: 'invalidFormat', params: { reason: 'utf16' } }];
    for (const text of ['\uFEFFname;unit\r\nph;cm\r\n', 'name;unit\r\nph;cm\r\n', '\uFEFFéè;unit\r\n', 'ab'])
      for (const littleEndian of [true, false]) {
        const read = readAsUtf8(utf16Bytes(text, littleEndian));
        const label = `${JSON.stringify(text)}, ${littleEndian ? 'little' : 'big'} endian`;
        for (let size = 1; size <= read.length; size += 1)
          expect(
            validate('properties', read, { chunkSize: size }).report.errors,
            `${label}, chunks of ${size}`,
          ).toEqual(utf16);
        expect(validate('properties', read).rows, label).toEqual([]);
      }
    // A file shorter than the sign is read as it is; a NUL in a UTF-8 file is that cell's, not the file's encoding.
    expect(validate('properties', 'n', { chunkSize: 1 }).report.errors.map((error) => error.code)).not.toContain(
      'invalidFormat',
    );
    expect(validate('properties', 'name;unit\nph;c\u0000m\n').report.errors).toEqual([
      { lineNumber: 2, code: 'invalidFormat', params: { reason: 'nulCharacter', columnNumber: 2 }, column: 'unit' },
    ]);
  });

  it('reads a lone CR file as its CRLF twin, its errors on the same lines, whatever the chunks', () => {
    const crlf = validate('stations', STATIONS, { references: refs });
    const text = STATIONS.replaceAll('\r\n', '\r');
    const lone = validate('stations', text, { references: refs });
    expect(lone.report).toEqual(crlf.report);
    expect(lone.report.errors.map((error) => [error.lineNumber, error.code])).toEqual([
      [3, 'invalidDateWithComponent'],
      [5, 'duplicatedLineInReference'],
    ]);
    // The quoted line break is kept as the file writes it.
    expect(lone.rows.map((row) => row.values.note)).toEqual(['a "quoted"\rremark', '']);
    const expected = JSON.stringify(lone);
    for (let size = 1; size <= 64; size += 1)
      expect(
        JSON.stringify(validate('stations', text, { references: refs, chunkSize: size })),
        `chunks of ${size}`,
      ).toBe(expected);
  });

  it('gives rows while the file streams, before the end, except for recursive entries', () => {
    const taken = (dataName: string, header: string, lines: string[]) => {
      const validator = createCsvValidator({
        model: testModel(),
        dataName,
        fileName: `${dataName}.csv`,
        references: { rows: (name) => refs[name] ?? [] },
      });
      const counts: number[] = [];
      validator.push(`${header}\n${lines.slice(0, 25).join('\n')}\n`);
      counts.push(validator.takeRows().length);
      validator.push(`${lines.slice(25).join('\n')}\n`);
      counts.push(validator.takeRows().length);
      validator.finish();
      counts.push(validator.takeRows().length);
      return counts;
    };
    const stationLines = Array.from({ length: 50 }, (_, index) => `Nord;S${index}`);
    expect(taken('stations', 'zone;code', stationLines)).toEqual([25, 25, 0]);
    const zoneLines = Array.from({ length: 50 }, (_, index) => `Z${index};;${index === 0 ? '' : `Z${index - 1}`}`);
    expect(taken('zones', 'code;label;parent', zoneLines)).toEqual([0, 0, 50]);
  });
});
