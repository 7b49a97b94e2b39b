import { compileMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_WARNING_CODES } from '../../domain/configuration/warningCodes';
import { describeProblem } from '../i18n/problems';
import { configurationWarningMessages } from './configurationWarnings';
import { errorI18n, placeholders, readErrorCatalog } from './errorCatalog.testing';

describe('configuration warning messages', () => {
  it('give every code an English and a French text with the same placeholders', () => {
    const french = readErrorCatalog('fr');
    const english = readErrorCatalog('en');
    for (const code of CONFIGURATION_WARNING_CODES) {
      const descriptor = configurationWarningMessages[code];
      expect(descriptor.id).toBe(`configurationWarning.${code}`);
      expect(english[descriptor.id], code).toBe(descriptor.message);
      expect(french[descriptor.id], code).toBeTruthy();
      expect(placeholders(french[descriptor.id]), code).toEqual(placeholders(descriptor.message!));
      expect(() => compileMessage(french[descriptor.id]), code).not.toThrow();
    }
  });

  it('are the sentences describeProblem gives for a warning, as it comes in a stream', () => {
    const warning = {
      code: 'VALIDATION_WITHOUT_COMPONENTS',
      params: { validationName: 'unitOfColor', path: 'OA_data > pem > OA_validations > unitOfColor' },
    };
    expect(describeProblem(errorI18n('en'), warning)).toBe(
      'The rule unitOfColor lists no component (OA_components) and will not run.',
    );
    expect(describeProblem(errorI18n('fr'), warning)).toBe(
      'La règle unitOfColor ne liste aucun composant (OA_components) et ne s’exécutera pas.',
    );
  });
});
