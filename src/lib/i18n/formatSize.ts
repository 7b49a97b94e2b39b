import type { I18n } from '@lingui/core';
import { binarySize } from '@/domain/additionalFiles/fileView';

/**
 * A size in units of 1024 (spec §9), with the unit named in the reader's language (ko, kB…). Bytes are spelled
 * out: the short English unit has no plural ("30 byte").
 */
export function formatSize(i18n: I18n, bytes: number): string {
  const { value, unit } = binarySize(bytes);
  const unitDisplay = unit === 'byte' ? 'long' : 'short';
  return i18n.number(value, { style: 'unit', unit, unitDisplay, maximumFractionDigits: 1 });
}
