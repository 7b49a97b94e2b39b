import { describe, expect, it } from 'vitest';
import type { ApplicationModel } from '../configuration/model';
import type { CsvRow, StoredRow } from '../csv/types';
import { dynamicHeaderText } from '../csv/header';
import { ReferenceIndex, spellingKeys } from '../csv/references';
import { modelOf, references, stored, testModel, validate } from '../csv/testKit';
import { RowTexts, designatedRows } from '../rows/rowTexts';
import { EntryCsvWriter, shapeKey, shapeOf, templateShape } from './entryCsv';

const refs = references();
const entryOf = (name: string) => testModel().data.find((entry) => entry.name === name)!;
const dynamicHeader = (
  component: { headerPrefix: string; reference: string; referenceComponent: string },
  key: string,
) =>
  component.headerPrefix +
  dynamicHeaderText(
    refs[component.reference].find((row) => row.hierarchicalKey === key)!.values[component.referenceComponent],
  );

/** Writes rows back as files, one per shape, in the order their shapes first appear. */
function rewrite(
  dataName: string,
  rows: readonly CsvRow[],
  references: Record<string, readonly StoredRow[]>,
): string[] {
  const entry = entryOf(dataName);
  const indexes: Record<string, readonly StoredRow[]> = { ...references, [dataName]: stored(rows) };
  const texts = new RowTexts(entry, (name) => new ReferenceIndex(name, indexes[name] ?? []));
  const groups = new Map<string, { writer: EntryCsvWriter; text: string }>();
  for (const row of rows) {
    const shape = shapeOf(entry, row.values, texts);
    let group = groups.get(shapeKey(shape));
    if (!group)
      groups.set(
        shapeKey(shape),
        (group = { writer: new EntryCsvWriter(entry, shape, { dynamicHeader, texts }), text: '' }),
      );
    group.text += group.writer.line(row);
  }
  return [...groups.values()].map((group) => group.writer.head() + group.text);
}

const kept = (rows: readonly CsvRow[]) =>
  rows.map((row) => ({
    naturalKey: row.naturalKey,
    hierarchicalKey: row.hierarchicalKey,
    values: row.values,
    period: row.period,
  }));

function roundTrip(dataName: string, files: string[], references: Record<string, readonly StoredRow[]> = refs) {
  const original = files.flatMap((file) => {
    const read = validate(dataName, file, { references });
    expect(read.report.errors).toEqual([]);
    return read.rows;
  });
  const written = rewrite(dataName, original, references);
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
    expect(files[0].split('\n')[0]).toBe(
      '"zone";"code";"opened";"depth";"slots";"automatic";"serial";"tags";"neighbours";"remark";"p_conductivity";"p_ph"',
    );
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
    expect(files[0].split('\n').slice(0, 4)).toEqual([
      '"";"Été 24"',
      '',
      '"station";"day";"level";"quality";"T_10";"Q_10";"T_25";"Q_25"',
      '"";"";"cm"',
    ]);
  });
});

describe('the shape of a row', () => {
  it('groups rows as their written shapes do: constants, dynamic columns, pattern columns', () => {
    for (const [dataName, files] of [
      ['stations', ['zone;code;p_ph;p_conductivity\nNord;S1;7.1;300\nRive;S2;;\n', 'zone;code;p_ph\nNord;S3;6.5\n']],
      [
        'readings',
        [
          'campagne;Été 24\nnote\nstation;day;level;quality;T_10;Q_10;T_25;Q_25\nunits;;cm;;\nS1;01/03/2024;;good;12,5;ok;-1;\nS2;02/03/2024;4;;;;3;x\n',
          'campagne;Hiver\n\nstation;day;level;quality;T_10;Q_10\nunits;;mm\nS1;01/01/2024;2;good;1;\n',
        ],
      ],
    ] as const) {
      const entry = entryOf(dataName);
      const rows = files.flatMap((file) => validate(dataName, file, { references: refs }).rows);
      const texts = new RowTexts(entry, (name) => new ReferenceIndex(name, refs[name] ?? []));
      const written = rows.map((row) => shapeKey(shapeOf(entry, row.values, texts)));
      expect(rows.length, dataName).toBe(3);
      // The first file's two rows share its shape, the second file's row has another.
      expect([written[0] === written[1], written[1] === written[2]], dataName).toEqual([true, false]);
    }
  });
});

describe('templates', () => {
  const words = { text: 'text', reference: (name: string) => refs[name]?.[0]?.naturalKey ?? name };

  it('are read by the engine as valid files with no rows once the example line is left out', () => {
    for (const entry of testModel().data) {
      const shape = templateShape(
        entry,
        words,
        (component) => refs[component.reference]?.map((row) => row.hierarchicalKey) ?? [],
      );
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

describe('references written back', () => {
  // Natural keys are made from the texts a file gives: `oir` and `NULL_KEY__oir` name the same site but make
  // different keys for the rows that name it. A rule of OA_validations stores a reference too.
  const model = modelOf(`OA_version: 2.0.1
OA_application: {OA_name: spellings, OA_version: 1.0.0}
OA_data:
  sites:
    OA_naturalKey: [parent, code]
    OA_basicComponents:
      parent:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites, OA_isRecursive: true}}}
      code: null
  visits:
    OA_naturalKey: [site, day]
    OA_basicComponents:
      site:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
      day: null
      place: null
      places:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_multiplicity: MANY, OA_reference: {OA_name: sites}}}
    OA_validations:
      placeIsASite:
        OA_i18n: {en: a site}
        OA_components: [place]
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}
`);
  const sites = validate(
    'sites',
    'parent;code\n;oir\n;nivelle\noir;p1\nNULL_KEY__oir;p2\noir__p1;a\nNULL_KEY__nivelle;p1\nnivelle;p1\n',
    { model },
  );

  it('are spelled so that the engine reads the same rows with the same keys', () => {
    expect(sites.report.errors).toEqual([]);
    const sitesAgain = roundTripIn(model, 'sites', sites.rows, {});
    const references = { sites: stored(sites.rows) };
    const p1 = sites.rows.find((row) => row.naturalKey === 'oir__p1')!.hierarchicalKey;
    const visits = validate(
      'visits',
      `site;day;place;places\noir;d1;oir__p1;oir,nivelle\nNULL_KEY__oir;d2;oir;NULL_KEY__oir__p2\n${p1};d3;NULL_KEY__oir__p2;\n`,
      { model, references },
    );
    expect(visits.report.errors).toEqual([]);
    expect(visits.rows.map((row) => row.naturalKey)).toEqual([
      'oir__d1',
      'NULL_KEY__oir__d2',
      expect.stringContaining('d3'),
    ]);
    const written = roundTripIn(model, 'visits', visits.rows, references);
    expect(written.split('\n')[1]).toBe('"oir";"d1";"oir__p1";"oir,nivelle"');
    expect(sitesAgain.split('\n')[3]).toBe('"oir";"p1"');
  });

  it('are spelled the same from the rows a page designates and those their spellings may name, as from all', () => {
    const all = stored(sites.rows);
    const p1 = sites.rows.find((row) => row.naturalKey === 'oir__p1')!.hierarchicalKey;
    const visits = validate(
      'visits',
      `site;day;place;places\noir;d1;oir__p1;oir,nivelle\nNULL_KEY__oir;d2;oir;NULL_KEY__oir__p2\n${p1};d3;NULL_KEY__oir__p2;\noir;d4;NULL_KEY__nivelle__p1;\n`,
      { model, references: { sites: all } },
    );
    expect(visits.report.errors).toEqual([]);
    for (const [dataName, rows] of [
      ['visits', visits.rows],
      ['sites', sites.rows],
    ] as const) {
      const entry = model.data.find((item) => item.name === dataName)!;
      const whole = new RowTexts(entry, (name) => new ReferenceIndex(name, all));
      for (const row of rows) {
        const designated = designatedRows(entry, [row]).get('sites') ?? new Set();
        const keys = new Set(
          spellingKeys(
            all.filter((site) => designated.has(site.hierarchicalKey)),
            2,
          ),
        );
        const held = all.filter((site) => keys.has(site.naturalKey) || keys.has(site.hierarchicalKey));
        expect(held.length).toBeLessThan(all.length);
        const page = new RowTexts(entry, (name) => new ReferenceIndex(name, held));
        expect(page.row(row)).toEqual(whole.row(row));
      }
    }
  });
});

/** Rows written back (one shape) and read again: the same rows, keys included. */
function roundTripIn(
  model: ApplicationModel,
  dataName: string,
  rows: readonly CsvRow[],
  references: Record<string, readonly StoredRow[]>,
): string {
  const entry = model.data.find((item) => item.name === dataName)!;
  const indexes = { ...references, [dataName]: stored(rows) };
  const texts = new RowTexts(entry, (name) => new ReferenceIndex(name, indexes[name] ?? []));
  const writer = new EntryCsvWriter(entry, shapeOf(entry, rows[0].values, texts), { dynamicHeader, texts });
  const file = writer.head() + rows.map((row) => writer.line(row)).join('');
  const again = validate(dataName, file, { model, references });
  expect(again.report.errors, file).toEqual([]);
  expect(kept(again.rows)).toEqual(kept(rows));
  return file;
}
