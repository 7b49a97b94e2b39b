import { describe, expect, it } from 'vitest';
import { withChoiceLabels } from './fieldChoices';

const choices = [
  { naturalKey: 'inrae', label: 'INRAE' },
  { naturalKey: 'univ_savoie', label: 'Université Savoie Mont Blanc' },
];

describe('withChoiceLabels', () => {
  it('names the sampled rows by the labels the list shows', () => {
    expect(withChoiceLabels({ value: 'cnrs', referenceValues: ['inrae', 'univ_savoie'] }, choices)).toEqual({
      value: 'cnrs',
      referenceValues: ['INRAE', 'Université Savoie Mont Blanc'],
    });
  });

  it('keeps the code of a row the list does not offer', () => {
    expect(withChoiceLabels({ referenceValues: ['inrae', 'other'] }, choices).referenceValues).toEqual([
      'INRAE',
      'other',
    ]);
  });

  it('leaves the parameters alone without a list or a sample', () => {
    const params = { referenceValues: ['inrae'] };
    expect(withChoiceLabels(params, undefined)).toBe(params);
    const noSample = { value: 'cnrs' };
    expect(withChoiceLabels(noSample, choices)).toBe(noSample);
  });
});
