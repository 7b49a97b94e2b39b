/** try/catch of the Java exceptions that stand for evaluation errors (a date that does not parse, a bad number…). */
import { describe, expect, it } from 'vitest';
import { compileErrors, failure, run } from './testKit';

const groovyExceptions = { BAD_DATE_FORMAT: { en: 'the date ${date} is not in format ${format}' } };

/** A check in the way configurations write it: a date that does not parse becomes a named exception. */
const dateCheck = `import java.time.format.DateTimeFormatter
  java.time.LocalDate day = java.time.LocalDate.parse(datum.day, DateTimeFormatter.ofPattern("dd/MM/yyyy"))
  if (datum.end != null) {
    try {
      java.time.LocalDate end = java.time.LocalDate.parse(datum.end, DateTimeFormatter.ofPattern("dd/MM/yyyy"))
      if (end.isBefore(day)) {
        throw new fr.inra.oresing.domain.groovy.exception.GroovyException("DATE_NOT_IN_INTERVAL", java.util.Map.of("date", day))
      }
    } catch (java.time.format.DateTimeParseException e) {
      throw new fr.inra.oresing.domain.groovy.exception.GroovyException("BAD_DATE_FORMAT", [date: datum.end, format: 'dd/MM/yyyy'])
    }
  }
  return true`;

describe('try/catch', () => {
  it('turns a Java exception into a named one, and lets the named one through', () => {
    expect(run(dateCheck, { datum: { day: '01/02/2024', end: '03/02/2024' } })).toBe(true);
    expect(run(dateCheck, { datum: { day: '01/02/2024', end: null } })).toBe(true);
    expect(failure(dateCheck, { datum: { day: '01/02/2024', end: '2024-02-03' }, groovyExceptions }).params).toEqual({
      exception: 'BAD_DATE_FORMAT',
      messages: groovyExceptions.BAD_DATE_FORMAT,
      params: { date: '2024-02-03', format: 'dd/MM/yyyy' },
    });
    expect(failure(dateCheck, { datum: { day: '01/02/2024', end: '01/01/2024' } }).params).toMatchObject({
      exception: 'DATE_NOT_IN_INTERVAL',
      params: { date: '2024-02-01' },
    });
    // Outside the try, a date that does not parse is the line's evaluation error.
    expect(failure(dateCheck, { datum: { day: 'x', end: null } }).code).toBe('dateTimeParse');
  });

  it('catches by class, several classes at once, and gives the value of the block that ran', () => {
    expect(run("try { Integer.parseInt('x') } catch (NumberFormatException e) { -1 }")).toBe(-1);
    expect(run("try { Integer.parseInt('7') } catch (NumberFormatException e) { -1 }")).toBe(7);
    expect(
      run("try { datum.a.b } catch (DateTimeParseException | NullPointerException e) { 'none' }", { datum: {} }),
    ).toBe('none');
    expect(run('try { 1 / 0 } catch (Exception e) { e.getMessage() }')).toBe('Division by zero.');
    expect(run("try { throw new GroovyException('X') } catch (GroovyException e) { e.getMessage() }")).toBe('X');
    expect(failure("try { Integer.parseInt('x') } catch (NullPointerException e) { -1 }").code).toBe('numberFormat');
    expect(failure("try { throw new GroovyException('X') } catch (Exception e) { throw e }").params).toMatchObject({
      exception: 'X',
    });
  });

  it('never catches the limits of the engine', () => {
    const endless = 'def f; f = { n -> f(n + 1) }; try { f(0) } catch (Exception e) { 0 }';
    expect(failure(endless).code).toBe('recursionTooDeep');
    const busy = 'try { [1, 2, 3, 4, 5, 6, 7, 8].collect { it * 2 }.sum() } catch (Exception e) { 0 }';
    expect(failure(busy, {}, { maxSteps: 10 }).code).toBe('expressionTooLong');
    expect(failure("try { 'ab' * 2000000 } catch (Exception e) { 0 }").code).toBe('valueTooLarge');
  });

  it('refuses what it does not know: other classes, finally, a try without catch', () => {
    expect(compileErrors('try { 1 } catch (java.io.IOException e) { 0 }')[0]).toMatchObject({
      code: 'unknownType',
      construct: 'java.io.IOException',
    });
    expect(compileErrors('try { 1 } catch (Throwable e) { 0 }')[0].construct).toBe('Throwable');
    expect(compileErrors('try { 1 } catch (Exception e) { 0 } finally { 2 }')[0].construct).toBe('finally');
    expect(compileErrors('try { 1 }')[0].code).toBe('unexpectedEnd');
    expect(compileErrors('def e = 1; try { 1 } catch (Exception e) { 0 }')[0].code).toBe('duplicateVariable');
    expect(compileErrors('try { 1 } catch (Exception e) { 0 }; e')[0].code).toBe('unknownVariable');
  });
});
