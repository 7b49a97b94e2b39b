import { describe, expect, it } from 'vitest';
import { references, testModel, validate } from '../csv/testKit';
import { answerValues } from './answerValues';

const entryOf = (name: string) => testModel().data.find((entry) => entry.name === name)!;

describe('values as row answers give them', () => {
  const refs = references();

  it('gives a recursive reference as the natural key of its parent, its hierarchical key kept apart', () => {
    const rive = refs.zones.find((row) => row.naturalKey === 'rive')!;
    expect(rive.values.parent).toBe('zonesKnord.zonesKlac_bleu');
    const answered = answerValues(entryOf('zones'), rive.values);
    expect(answered.values.parent).toBe('lac_bleu');
    expect(answered.referenceKeys).toEqual({ parent: 'zonesKnord.zonesKlac_bleu' });
    expect(answered.values.code).toBe('Rive');
  });

  it('converts lists, dynamic columns and empty values, and leaves other values as stored', () => {
    const file =
      'zone;code;opened;depth;slots;automatic;serial;tags;neighbours;remark;p_ph;p_conductivity\n' +
      'Lac Bleu;S1;01/02/2000;2.5;3;true;AB123;a,b;Nord,Sud;ok;7.1;\n';
    const read = validate('stations', file, { references: refs });
    expect(read.report.errors).toEqual([]);
    const row = read.rows[0];
    const answered = answerValues(entryOf('stations'), row.values);
    expect(answered.values.zone).toBe('lac_bleu');
    expect(answered.values.neighbours).toEqual(['nord', 'sud']);
    expect(answered.referenceKeys.neighbours).toEqual(['zonesKnord', 'zonesKsud']);
    expect(Object.keys(answered.values.measured as object).sort()).toEqual(['conductivity', 'ph']);
    expect(answered.values.opened).toBe(row.values.opened);
    expect(answered.values.tags).toEqual(['a', 'b']);
    expect(answerValues(entryOf('zones'), { code: 'Nord', parent: '' }).values.parent).toBe('');
  });

  it('gives a natural key holding NULL_KEY as it is, and values of undeclared components as stored', () => {
    const answered = answerValues(entryOf('zones'), { parent: 'zonesKNULL_KEY__oir', gone: 'x' });
    expect(answered.values).toEqual({ parent: 'NULL_KEY__oir', gone: 'x' });
  });
});
