import { describe, expect, it } from 'vitest';
import type { CsvRow, StoredRow } from '../csv/types';
import { dynamicHeaderText } from '../csv/header';
import { references, testModel, validate } from '../csv/testKit';
import { EntryCsvWriter, shapeKey, shapeOf, templateShape } from './entryCsv';

const refs = references();
const entryOf = (name: string) => testModel().data.find((entry) => entry.name === name)!;
const dynamicHeader = (component: { headerPrefix: string; reference: string; referenceComponent: string }, key: string) =>
  component.headerPrefix + dynamicHeaderText(refs[component.reference].find((row) => row.hierarchicalKey === key)!.values[component.referenceComponent]);

/** Writes rows back as files, one per shape, in the order their shapes first appear. */
function rewrite(dataName: string, rows: readonly CsvRow[]): string[] {
  const entry = entryOf(dataName);
  const groups = new Map<string, { writer: EntryCsvWriter; text: string }>();
  for (const row of rows) {
    const shape = shapeOf(entry, row.values);
    let group = groups.get(shapeKey(shape));
    if (!group) groups.set(shapeKey(shape), (group = { writer: new EntryCsvWriter(entry, shape, { dynamicHeader }), text: '' }));
    group.text += group.writer.line(row.values);
  }
  return [...groups.values()].map((group) => group.writer.head() + group.text);
}

const kept = (rows: readonly CsvRow[]) => rows.map((row) => ({ naturalKey: row.naturalKey, hierarchicalKey: row.hierarchicalKey, values: row.values, period: row.period }));

function roundTrip(dataName: string, files: string[], references: Record<string, readonly StoredRow[]> = refs) {
  const original = files.flatMap((file) => {
    const read = validate(dataName, file, { references });
    expect(read.report.errors).toEqual([]);
    return read.rows;
  });
  const written = rewrite(dataName, original);
  const again = written.flatMap((file) => {
    const read = validate(dataName, file, { references });
    expect(read.report.errors, file).toEqual([]);
    return read.rows;
  });
  expect(kept(again)).toEqual(kept(original));
  return written;
}

describe('stored rows written back as CSV', () => {
  it('give the same rows: every checker, quotes and line breaks, MANY lists, parents, dynamic columns', () => {
    const files = roundTrip('stations', [
      'zone;code;opened;depth;slots;automatic;serial;tags;neighbours;remark;p_ph;p_conductivity\n' +
        'Lac Bleu;S1;01/02/2003;12,5;3;true;AB123;"a, b";"Nord,Sud";"a ""quoted""\r\nremark";7.1;300\n' +
        'Rive;S2;31/12/2030;0;10;false;;;;;;\n',
      'zone;code;p_ph\nNord;S3;6.5\n',
    ]);
    expect(files).toHaveLength(2);
    expect(files[0].split('\n')[0]).toBe('"zone";"code";"opened";"depth";"slots";"automatic";"serial";"tags";"neighbours";"remark";"p_conductivity";"p_ph"');
  });

  it('give the same rows for recursive references', () => {
    roundTrip('zones', ['code;label;parent\nNord;Nord;\nLac Bleu;Lac bleu;Nord\nRive;Rive;Lac Bleu\nSud;Sud;\n'], {});
  });

  it('give one file per shape: constants above and on the header, pattern columns and their adjacents', () => {
    const files = roundTrip('readings', [
      'campagne;Été 24\nnote\nstation;day;level;quality;T_10;Q_10;T_25;Q_25\nunits;;cm;;\nS1;01/03/2024;;good;12,5;ok;-1;\nS2;02/03/2024;4;;;;3;x\n',
      'campagne;Hiver\n\nstation;day;level;quality;T_10;Q_10\nunits;;mm\nS1;01/01/2024;2;good;1;\n',
    ]);
    expect(files).toHaveLength(2);
    expect(files[0].split('\n').slice(0, 4)).toEqual(['"";"Été 24"', '', '"station";"day";"level";"quality";"T_10";"Q_10";"T_25";"Q_25"', '"";"";"cm"']);
  });
});

describe('templates', () => {
  const words = { text: 'text', reference: (name: string) => refs[name]?.[0]?.naturalKey ?? name };

  it('are read by the engine as valid files with no rows once the example line is left out', () => {
    for (const entry of testModel().data) {
      const shape = templateShape(entry, words, (component) => refs[component.reference]?.map((row) => row.hierarchicalKey) ?? []);
      const writer = new EntryCsvWriter(entry, shape, { dynamicHeader });
      const read = validate(entry.name, writer.head(), { references: refs });
      expect(read.report, entry.name).toEqual({ rowCount: 0, errorCount: 0, errors: [], truncated: false });
    }
  });

  it('give an example the engine accepts for typed columns', () => {
    const entry = entryOf('stations');
    const shape = templateShape(entry, words, () => []);
    const writer = new EntryCsvWriter(entry, shape, { dynamicHeader });
    expect(writer.exampleLine(words)).toBe('"nord";"text";"31/01/2024";"1.5";"1";"true";"text";"text";"nord";"text"\n');
  });
});
