import { describe, expect, it } from 'vitest';
import type { ApplicationView } from '@/domain/applications/applicationView';
import { dataButtons, filterApplications, localName, shownDate, sortApplications } from './listing';

const app = (name: string, title: Record<string, string>, creationDate: string, updateDate = creationDate) =>
  ({ name, title, defaultLanguage: 'fr', creationDate, updateDate }) as ApplicationView;

const apps = [
  app('ola', { fr: 'Observatoire des lacs', en: 'Lake observatory' }, '2024-01-01T00:00:00Z', '2025-06-01T00:00:00Z'),
  app('acbb', { fr: 'ACBB' }, '2024-03-01T00:00:00Z'),
  app('monsore', {}, '2023-05-01T00:00:00Z', '2023-05-01T00:00:00Z'),
];

describe('the application list', () => {
  it('shows titles in the language, falling back to the default language then the name', () => {
    expect(localName(apps[0], 'en')).toBe('Lake observatory');
    expect(localName(apps[1], 'en')).toBe('ACBB');
    expect(localName(apps[2], 'en')).toBe('monsore');
  });

  it('shows and sorts by the update date, else the creation date', () => {
    expect(shownDate(apps[0])).toBe('2025-06-01T00:00:00Z');
    expect(sortApplications(apps, '0_9', 'fr').map((a) => a.name)).toEqual(['ola', 'acbb', 'monsore']);
    expect(sortApplications(apps, '9_0', 'fr').map((a) => a.name)).toEqual(['monsore', 'acbb', 'ola']);
  });

  it('sorts by local name both ways', () => {
    expect(sortApplications(apps, 'Az', 'fr').map((a) => a.name)).toEqual(['acbb', 'monsore', 'ola']);
    expect(sortApplications(apps, 'Za', 'fr').map((a) => a.name)).toEqual(['ola', 'monsore', 'acbb']);
    expect(sortApplications(apps, 'Az', 'en').map((a) => a.name)).toEqual(['acbb', 'ola', 'monsore']);
  });

  it('filters by name only beyond two characters', () => {
    expect(filterApplications(apps, 'ob', 'fr')).toHaveLength(3);
    expect(filterApplications(apps, 'obs', 'fr').map((a) => a.name)).toEqual(['ola']);
    expect(filterApplications(apps, 'MONS', 'fr').map((a) => a.name)).toEqual(['monsore']);
  });

  it('enables the data buttons of a card only for the parts the user may read, and shows none for absent parts', () => {
    const rights = (canReadReference: boolean, canReadDatatype: boolean) =>
      ({ references: ['sites'], dataTypes: ['pem'], canReadReference, canReadDatatype }) as ApplicationView;
    expect(dataButtons(rights(false, false))).toEqual([
      { part: 'references', enabled: false },
      { part: 'dataTypes', enabled: false },
    ]);
    expect(dataButtons(rights(true, false))).toEqual([
      { part: 'references', enabled: true },
      { part: 'dataTypes', enabled: false },
    ]);
    expect(dataButtons({ references: [], dataTypes: ['pem'], canReadReference: true, canReadDatatype: true })).toEqual([
      { part: 'dataTypes', enabled: true },
    ]);
  });
});
