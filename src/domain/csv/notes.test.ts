import { describe, expect, it } from 'vitest';
import { MAX_NOTED_VALUES, NoteCollector } from './notes';
import { modelOf, references, stored, validate } from './testKit';

const HEADER = 'zone;code;opened;depth;slots;automatic;serial;tags;neighbours;remark;p_ph\n';
/** `count` stations spread over the given zones, each also naming its zone as a neighbour. */
function stations(count: number, zones: string[]) {
  let text = HEADER;
  for (let n = 0; n < count; n++) {
    const zone = zones[n % zones.length];
    text += `${zone};S${n};01/02/2003;;;;;;${zone};;\n`;
  }
  return text;
}

describe('a check on a device', () => {
  it('notes, once per value, the values of a reference it has no copy of, and refuses none of them', () => {
    const { properties } = references();
    const { report } = validate('stations', stations(5000, ['Nord', 'Lac Bleu', 'Inconnue']), {
      references: { properties },
      device: { withoutCopy: ['zones'], queuedRows: {} },
    });
    expect(report.errorCount).toBe(0);
    expect(report.noteCount).toBe(6);
    expect(report.notes!.map((note) => [note.code, note.component, note.value, note.lineNumber])).toEqual([
      ['referenceNotCheckedHere', 'zone', 'Nord', 2],
      ['referenceNotCheckedHere', 'neighbours', 'Nord', 2],
      ['referenceNotCheckedHere', 'zone', 'Lac Bleu', 3],
      ['referenceNotCheckedHere', 'neighbours', 'Lac Bleu', 3],
      ['referenceNotCheckedHere', 'zone', 'Inconnue', 4],
      ['referenceNotCheckedHere', 'neighbours', 'Inconnue', 4],
    ]);
    expect(report.notes![0]).toMatchObject({ refType: 'zones', column: 'zone' });
  });

  it('knows the rows of an upload still waiting on the device, and says which values it knows only from there', () => {
    const { zones, properties } = references();
    const queued = stored(validate('zones', 'code;label;parent\nEst;Est;\nLac Vert;Lac vert;Est\n').rows);
    const { report } = validate('stations', stations(3000, ['Nord', 'Est', 'Lac Vert']), {
      references: { zones, properties },
      device: { withoutCopy: [], queuedRows: { zones: queued } },
    });
    expect(report.errorCount).toBe(0);
    expect(report.notes!.filter((note) => note.component === 'zone').map((note) => [note.code, note.value])).toEqual([
      ['referenceKnownFromQueuedUpload', 'Est'],
      ['referenceKnownFromQueuedUpload', 'Lac Vert'],
    ]);
    const unknown = validate('stations', stations(10, ['Ouest']), {
      references: { zones, properties },
      device: { withoutCopy: [], queuedRows: { zones: queued } },
    });
    expect(unknown.report.errors[0].code).toBe('invalidReferenceWithComponent');
  });

  it('notes the values outside the part of a reference its user may read, and still refuses what the part settles', () => {
    const { zones, properties } = references();
    const part = zones.filter((row) => row.naturalKey === 'nord');
    expect(part).toHaveLength(1);
    const { report } = validate('stations', stations(3000, ['Nord', 'Lac Bleu', 'Inconnue']), {
      references: { zones: part, properties },
      device: { withoutCopy: [], partCopies: ['zones'], queuedRows: {} },
    });
    expect(report.errorCount).toBe(0);
    expect(report.notes!.filter((note) => note.component === 'zone').map((note) => [note.code, note.value])).toEqual([
      ['referenceOutsideReadPart', 'Lac Bleu'],
      ['referenceOutsideReadPart', 'Inconnue'],
    ]);
    const whole = validate('stations', stations(10, ['Inconnue']), {
      references: { zones, properties },
      device: { withoutCopy: [], queuedRows: {} },
    });
    expect(whole.report.errors[0].code).toBe('invalidReferenceWithComponent');
  });

  it('remembers a bounded number of values, the count past them a lower bound', () => {
    const collector = new NoteCollector(10, 1_000);
    const note = (value: string) =>
      collector.add({ code: 'referenceNotCheckedHere', lineNumber: 2, refType: 'zones', component: 'zone', value });
    for (let i = 0; i < 1_000; i++) note(`z${i}`);
    note('z0');
    expect([collector.count, collector.capped, collector.kept.length]).toEqual([1_000, false, 10]);
    note('z1000');
    note('z0');
    expect([collector.count, collector.capped]).toEqual([1_000, true]);
    expect(MAX_NOTED_VALUES).toBeGreaterThanOrEqual(100_000);
  });

  it('says a count past the values remembered is a lower bound, in the report of a file naming each once', () => {
    const { properties } = references();
    const text =
      HEADER + Array.from({ length: MAX_NOTED_VALUES + 10 }, (_, n) => `Z${n};S${n};01/02/2003;;;;;;;;\n`).join('');
    const { report } = validate('stations', text, {
      references: { properties },
      device: { withoutCopy: ['zones'], queuedRows: {} },
    });
    expect(report.errorCount).toBe(0);
    expect([report.noteCount, report.noteCountCapped]).toEqual([MAX_NOTED_VALUES, true]);
  });

  it('leaves the server’s check as it was: an unknown value is an error, and no notes are given', () => {
    const { zones, properties } = references();
    const { report } = validate('stations', stations(4, ['Nord', 'Est']), { references: { zones, properties } });
    expect(report.errors.map((error) => [error.code, error.value])).toContainEqual([
      'invalidReferenceWithComponent',
      'Est',
    ]);
    expect(report).not.toHaveProperty('notes');
  });
});

describe('a list of floats that may hold a decimal comma', () => {
  const model = modelOf(`OA_version: 2.0.1
OA_application: {OA_name: lists, OA_version: 1.0.0}
OA_data:
  items:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      many: {OA_checker: {OA_name: OA_float, OA_params: {OA_multiplicity: MANY}}}
      one: {OA_checker: {OA_name: OA_float}}
      whole: {OA_checker: {OA_name: OA_integer, OA_params: {OA_multiplicity: MANY}}}
`);
  const file = [
    'code;many;one;whole',
    'a;"1,5";"1,5";"1,5"',
    'b;"1,5";;',
    'c;"1,5, 2,5";;',
    'd;"9,4.5,5.6";;',
    'e;"1, 5";;',
    'f;"-4,5";;',
    'g;7;;',
  ].join('\n');

  it('is read as the original reads it, several numbers, and noted once per value on a device', () => {
    const { report, rows } = validate('items', file, { model, device: { withoutCopy: [], queuedRows: {} } });
    expect(report.errorCount).toBe(0);
    expect(rows.map((row) => [row.values.many, row.values.one])).toEqual([
      [[1, 5], 1.5],
      [[1, 5], ''],
      [[1, 5, 2, 5], ''],
      [[9, 4.5, 5.6], ''],
      [[1, 5], ''],
      [[-4, 5], ''],
      [[7], ''],
    ]);
    // Not with a point elsewhere in the cell (the commas separate decimals written with points), nor with a space.
    expect(report.notes!.map((note) => [note.code, note.lineNumber, note.column, note.value, note.refType])).toEqual([
      ['decimalCommaInList', 2, 'many', '1,5', undefined],
      ['decimalCommaInList', 4, 'many', '1,5, 2,5', undefined],
      ['decimalCommaInList', 7, 'many', '-4,5', undefined],
    ]);
  });

  it('is not noted by a check off a device', () => {
    expect(validate('items', file, { model }).report.notes).toBeUndefined();
  });
});

/** Sites naming a twin among the sites: a reference to the entry itself, neither recursive nor a parent. */
const TWINS = modelOf(`OA_version: 2.0.1
OA_application: {OA_name: twins, OA_version: 1.0.0}
OA_data:
  sites:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      twin: {OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: sites}}}}
`);

describe('a check on a device of an entry referring to itself', () => {
  const file = 'code;twin\nb1;a1\nb2;b1\nb3;nowhere\n';

  it('notes the twins it cannot find when it has no copy of the entry, as the server may know them', () => {
    const { report } = validate('sites', file, { model: TWINS, device: { withoutCopy: ['sites'], queuedRows: {} } });
    expect(report.errorCount).toBe(0);
    expect(report.notes!.map((note) => [note.code, note.value, note.lineNumber])).toEqual([
      ['referenceNotCheckedHere', 'a1', 2],
      ['referenceNotCheckedHere', 'nowhere', 4],
    ]);
  });

  it('notes them outside the part it may read, and finds the twins of its copy and of the file', () => {
    const part = stored(validate('sites', 'code;twin\na1;\n', { model: TWINS }).rows);
    const { report } = validate('sites', file, {
      model: TWINS,
      references: { sites: part },
      device: { withoutCopy: [], partCopies: ['sites'], queuedRows: {} },
    });
    expect(report.errorCount).toBe(0);
    expect(report.notes!.map((note) => [note.code, note.value])).toEqual([['referenceOutsideReadPart', 'nowhere']]);
  });

  it('refuses a twin no row has when its copy is whole', () => {
    const { report } = validate('sites', file, { model: TWINS, device: { withoutCopy: [], queuedRows: {} } });
    expect(report.errors.map((error) => [error.code, error.lineNumber])).toEqual([
      ['invalidReferenceWithComponent', 2],
      ['invalidReferenceWithComponent', 4],
    ]);
  });
});
