import { readDay } from './authorization';

/** How the period of an authorization is bounded on the form. */
export type PeriodKind = 'always' | 'from' | 'to' | 'between';

/** dd-MM-YYYY, optionally followed by hh, hh:mm or HH:mm:ss (the time is accepted and not kept: rights are per day). */
const FORM_DAY = /^(\d{2})-(\d{2})-(\d{4})(?: (\d{2})(?::(\d{2})(?::(\d{2}))?)?)?$/;

/** A day typed on the form, as YYYY-MM-DD, or null when it is not a real dd-MM-YYYY day. */
export function readFormDay(text: string): string | null {
  const match = text.trim().match(FORM_DAY);
  if (!match) return null;
  const [, , , , hours, minutes, seconds] = match;
  if ((hours && Number(hours) > 23) || (minutes && Number(minutes) > 59) || (seconds && Number(seconds) > 59))
    return null;
  const read = readDay(`${match[1]}-${match[2]}-${match[3]}`);
  return read.ok ? read.day : null;
}

/** A stored day (YYYY-MM-DD) as the form writes it. */
export function formDay(day: string | null): string {
  if (!day) return '';
  const [year, month, date] = day.split('-');
  return `${date}-${month}-${year}`;
}

export interface PeriodInput {
  kind: PeriodKind;
  from: string;
  to: string;
}

export type PeriodReading =
  { ok: true; from: string | null; to: string | null } | { ok: false; field: 'from' | 'to' | 'order' };

/** The bounds of the period the form describes, or which field is wrong. */
export function readPeriodInput(input: PeriodInput): PeriodReading {
  const wantsFrom = input.kind === 'from' || input.kind === 'between';
  const wantsTo = input.kind === 'to' || input.kind === 'between';
  const from = wantsFrom ? readFormDay(input.from) : null;
  const to = wantsTo ? readFormDay(input.to) : null;
  if (wantsFrom && from === null) return { ok: false, field: 'from' };
  if (wantsTo && to === null) return { ok: false, field: 'to' };
  if (from && to && from > to) return { ok: false, field: 'order' };
  return { ok: true, from, to };
}

/** The form's period from stored bounds. */
export function periodInputOf(from: string | null, to: string | null): PeriodInput {
  const kind: PeriodKind = from && to ? 'between' : from ? 'from' : to ? 'to' : 'always';
  return { kind, from: formDay(from), to: formDay(to) };
}
