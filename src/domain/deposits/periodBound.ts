import { lengthOfMonth } from '../configuration/localDateTime';

const BOUND = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A bound of a deposit's period as clients send it — `1984-01-01`, `1984-01-01 10:30`, `1984-01-01 10:30:00` or
 * `1984-01-01T10:30:00` — as an ISO local date-time, or null when it is no real day and time (31/02, 24:00, 10:60).
 */
export function readPeriodBound(text: string): string | null {
  const match = BOUND.exec(text.trim());
  if (!match) return null;
  const [, year, month, day, hour = '00', minute = '00', second = '00'] = match;
  const [y, m, d] = [Number(year), Number(month), Number(day)];
  if (
    m < 1 ||
    m > 12 ||
    d < 1 ||
    d > lengthOfMonth(y, m) ||
    Number(hour) > 23 ||
    Number(minute) > 59 ||
    Number(second) > 59
  )
    return null;
  return `${year}-${month}-${day}T${hour}:${minute}:${second}`;
}
