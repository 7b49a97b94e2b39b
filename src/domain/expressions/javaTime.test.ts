/** java.time.LocalDate and DateTimeFormatter.ofPattern, as date checks of configurations use them. */
import { describe, expect, it } from 'vitest';
import { compileErrors, failure, run, text } from './testKit';

const formatter = "java.time.format.DateTimeFormatter.ofPattern('dd/MM/yyyy')";

describe('LocalDate', () => {
  it('parses with a Java pattern or as ISO, and prints as Java', () => {
    expect(text(`java.time.LocalDate.parse('05/03/2024', ${formatter})`)).toBe('2024-03-05');
    expect(text("LocalDate.parse('2024-03-05')")).toBe('2024-03-05');
    expect(run("LocalDate.parse('2024-03-05').toString()")).toBe('2024-03-05');
    expect(run("'' + LocalDate.of(2024, 1, 9)")).toBe('2024-01-09');
  });

  it('compares dates', () => {
    const context = { datum: { start: '01/02/2024', end: '15/01/2024' } };
    const dates = `def start = LocalDate.parse(datum.start, ${formatter}); def end = LocalDate.parse(datum.end, ${formatter});`;
    expect(run(`${dates} start.isAfter(end)`, context)).toBe(true);
    expect(run(`${dates} start.isBefore(end)`, context)).toBe(false);
    expect(run(`${dates} start > end && end <= start && start != end`, context)).toBe(true);
    expect(run(`${dates} start.compareTo(end) > 0 && start.isEqual(start)`, context)).toBe(true);
    expect(run("LocalDate.parse('2024-01-15') == LocalDate.of(2024, 1, 15)")).toBe(true);
    expect(run("LocalDate.parse('2024-01-15').equals(LocalDate.of(2024, 1, 15))")).toBe(true);
    expect(failure("LocalDate.of(2024, 1, 1) < '2024'").code).toBe('cannotCompare');
  });

  it('gives its fields and simple arithmetic', () => {
    const date = "LocalDate.parse('2024-02-28')";
    expect(run(`${date}.getYear() * 10000 + ${date}.getMonthValue() * 100 + ${date}.getDayOfMonth()`)).toBe(20240228);
    expect(run(`${date}.getDayOfYear()`)).toBe(59);
    expect(run(`${date}.lengthOfMonth()`)).toBe(29);
    expect(text(`${date}.plusDays(2)`)).toBe('2024-03-01');
    expect(text(`${date}.minusDays(59)`)).toBe('2023-12-31');
    expect(text('LocalDate.of(2024, 1, 31).plusMonths(1)')).toBe('2024-02-29');
    expect(text(`${date}.plusYears(1)`)).toBe('2025-02-28');
    expect(run(`${date}.format(${formatter})`)).toBe('28/02/2024');
  });

  it('declares typed variables', () => {
    expect(run(`java.time.LocalDate d = LocalDate.parse('2024-01-01'); d instanceof java.time.LocalDate`)).toBe(true);
    expect(failure("LocalDate d = 'text'").code).toBe('cannotCast');
  });

  it('fails to parse as Java does (DateTimeParseException)', () => {
    const error = failure(`LocalDate.parse('2024-13-01', ${formatter})`);
    expect(error).toMatchObject({ code: 'dateTimeParse', params: { value: '2024-13-01', pattern: 'dd/MM/yyyy' } });
    expect(
      failure("LocalDate.parse('31/02/2024', java.time.format.DateTimeFormatter.ofPattern('dd/MM/yyyy'))").code,
    ).toBe('dateTimeParse');
    expect(failure("LocalDate.parse('2024-1-5')").code).toBe('dateTimeParse');
    expect(failure("LocalDate.parse('10:00', DateTimeFormatter.ofPattern('HH:mm'))").code).toBe('dateTimeParse');
    expect(failure('LocalDate.parse(datum.missing)', { datum: {} }).code).toBe('nullDereference');
    expect(failure("DateTimeFormatter.ofPattern('dd/MM/yyyyy{')").code).toBe('badArguments');
    expect(failure('LocalDate.of(2023, 2, 29)').code).toBe('badArguments');
  });

  it('offers no clock: today would make a check give different answers on different days', () => {
    expect(compileErrors('LocalDate.now()')[0]).toMatchObject({
      code: 'unknownStaticCall',
      construct: 'LocalDate.now',
    });
  });
});
