import type { Associates } from './associates';

/**
 * Sizes in additional-file lists count in units of 1024 (spec §9): the largest unit that leaves at least 1.
 * The interface formats the number and names the unit in the reader's language.
 */
export type SizeUnit = 'byte' | 'kilobyte' | 'megabyte' | 'gigabyte';
const UNITS: readonly SizeUnit[] = ['byte', 'kilobyte', 'megabyte', 'gigabyte'];

export function binarySize(bytes: number): { value: number; unit: SizeUnit } {
  let value = Math.max(0, bytes);
  let index = 0;
  while (value >= 1024 && index < UNITS.length - 1) {
    value /= 1024;
    index += 1;
  }
  return { value: index === 0 ? value : Math.round(value * 10) / 10, unit: UNITS[index] };
}

/** The link-status tag of a file: kept for the whole application, attached to data, or attached to nothing. */
export type LinkStatus = 'application' | 'data' | 'none';

export function linkStatus(file: { forApplication: boolean; associates: Associates }): LinkStatus {
  if (file.forApplication) return 'application';
  return Object.keys(file.associates).length > 0 ? 'data' : 'none';
}
