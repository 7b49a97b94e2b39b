/**
 * A date-time without zone, as Java's `LocalDateTime`: what date checkers produce and what time scopes compare.
 * Plain data so that it crosses worker boundaries and serialises as it is.
 */
export interface LocalDateTime {
  year: number;
  /** 1–12 */
  month: number;
  /** 1–31 */
  day: number;
  hour: number;
  minute: number;
  second: number;
  nano: number;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function lengthOfMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

const pad = (value: number, width: number) => String(Math.abs(value)).padStart(width, '0');

function isoYear(year: number): string {
  if (year >= 0 && year <= 9999) return pad(year, 4);
  return (year < 0 ? '-' : '+') + pad(year, 4);
}

/** Java's `ISO_LOCAL_DATE_TIME` text: seconds always, the fraction only when not zero (`1984-12-25T00:00:00`). */
export function toIsoLocalDateTime(value: LocalDateTime): string {
  let text = `${isoYear(value.year)}-${pad(value.month, 2)}-${pad(value.day, 2)}T${pad(value.hour, 2)}:${pad(value.minute, 2)}:${pad(value.second, 2)}`;
  if (value.nano !== 0) text += '.' + pad(value.nano, 9).replace(/0+$/, '');
  return text;
}

export function compareLocalDateTime(a: LocalDateTime, b: LocalDateTime): number {
  return (
    a.year - b.year ||
    a.month - b.month ||
    a.day - b.day ||
    a.hour - b.hour ||
    a.minute - b.minute ||
    a.second - b.second ||
    a.nano - b.nano
  );
}

/** Adds months the way Java does: the day is clamped to the length of the resulting month (31 Jan + 1 month = 28/29 Feb). */
export function plusMonths(value: LocalDateTime, months: number): LocalDateTime {
  const monthIndex = value.year * 12 + (value.month - 1) + months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12 + 1;
  return { ...value, year, month, day: Math.min(value.day, lengthOfMonth(year, month)) };
}

const NANOS_PER_SECOND = 1_000_000_000;

/** Adds a number of seconds (any size, either sign) through the proleptic Gregorian calendar, as Java's `plusSeconds`. */
export function plusSeconds(value: LocalDateTime, seconds: number): LocalDateTime {
  const epochDay = toEpochDay(value.year, value.month, value.day);
  const secondOfDay = value.hour * 3600 + value.minute * 60 + value.second + seconds;
  const dayShift = Math.floor(secondOfDay / 86_400);
  const remaining = secondOfDay - dayShift * 86_400;
  const date = fromEpochDay(epochDay + dayShift);
  return {
    ...date,
    hour: Math.floor(remaining / 3600),
    minute: Math.floor((remaining % 3600) / 60),
    second: remaining % 60,
    nano: value.nano % NANOS_PER_SECOND,
  };
}

/** Days since 1970-01-01 (algorithm of Java's `LocalDate.toEpochDay`). */
export function toEpochDay(year: number, month: number, day: number): number {
  let total = 365 * year;
  if (year >= 0) total += Math.floor((year + 3) / 4) - Math.floor((year + 99) / 100) + Math.floor((year + 399) / 400);
  else total -= Math.trunc(year / -4) - Math.trunc(year / -100) + Math.trunc(year / -400);
  total += Math.floor((367 * month - 362) / 12);
  total += day - 1;
  if (month > 2) total -= isLeapYear(year) ? 1 : 2;
  return total - 719_528;
}

function fromEpochDay(epochDay: number): Pick<LocalDateTime, 'year' | 'month' | 'day'> {
  // Civil-from-days (H. Hinnant), exact over the whole proleptic Gregorian calendar.
  const z = epochDay + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthPrime = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthPrime + 2) / 5) + 1;
  const month = monthPrime < 10 ? monthPrime + 3 : monthPrime - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** Day of week, 1 = Monday … 7 = Sunday (ISO, as Java's `DayOfWeek`). */
export function dayOfWeek(year: number, month: number, day: number): number {
  // Epoch day 0 (1970-01-01) was a Thursday, hence the shift of 3 to count from Monday.
  const fromMonday = (((toEpochDay(year, month, day) + 3) % 7) + 7) % 7;
  return fromMonday + 1;
}
