import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Checker } from '../../src/domain/configuration/model.ts';
import { comparedValue, isNumberChecker } from '../../src/domain/rows/intervals.ts';
import { InvalidInput } from '../../src/domain/errors/refusal.ts';
import { INDEXED_TEXT_LENGTH, type FilteredExpression } from './filterIndexes.ts';

type Condition = Expression<SqlBool>;

/**
 * Rows whose value lies between `from` and `to` (as `readInterval` gave them; a missing end is open): numbers as
 * JSON values, dates on their stored ISO text, other texts in code point order. In a list (MANY), rows with a value
 * between them: a list's JSON text compared whole matched unrelated rows.
 */
export function intervalCondition(
  checker: Checker | null,
  component: string,
  from: string | undefined,
  to: string | undefined,
): { condition: Condition; expression: FilteredExpression } {
  const field = sql`values -> ${component}`;
  const { condition, expression } = between(checker, field, sql`values ->> ${component}`, from, to);
  if (checker?.multiplicity !== 'MANY') return { condition, expression };
  const element = between(checker, sql`v.one`, sql`v.one #>> '{}'`, from, to).condition;
  return {
    condition: sql<SqlBool>`(case when jsonb_typeof(${field}) = 'array'
      then exists (select from jsonb_array_elements(${field}) as v(one) where ${element}) else ${condition} end)`,
    expression,
  };
}

/** A value, as JSON and as text, between the ends. */
function between(
  checker: Checker | null,
  json: RawBuilder<unknown>,
  text: RawBuilder<unknown>,
  from: string | undefined,
  to: string | undefined,
): { condition: Condition; expression: FilteredExpression } {
  const both = (low: RawBuilder<SqlBool> | null, high: RawBuilder<SqlBool> | null) =>
    [low, high]
      .filter((part): part is RawBuilder<SqlBool> => part !== null)
      .reduce((a, b) => sql<SqlBool>`${a} and ${b}`);
  if (isNumberChecker(checker)) {
    // Compared as JSON values, where numbers order among themselves and apart from strings, booleans and nulls:
    // no text-to-number conversion of every row (half the time of a cast). An open end lets other JSON types in.
    const number = (value: string) => sql`${JSON.stringify(Number(value))}::jsonb`;
    if (from !== undefined && to !== undefined)
      return { condition: sql<SqlBool>`${json} between ${number(from)} and ${number(to)}`, expression: 'json' };
    const open = both(
      from === undefined ? null : sql<SqlBool>`${json} >= ${number(from)}`,
      to === undefined ? null : sql<SqlBool>`${json} <= ${number(to)}`,
    );
    return { condition: sql<SqlBool>`${open} and jsonb_typeof(${json}) = 'number'`, expression: 'json' };
  }
  if (checker?.kind === 'date') {
    // The upper end is compared on as many characters as it has: "2020-07-01" takes the whole day.
    return {
      condition: both(
        from === undefined ? null : sql<SqlBool>`substr(${text}, 6, 19) >= ${from}`,
        to === undefined ? null : sql<SqlBool>`substr(${text}, 6, ${Math.min(19, to.length)}) <= ${to}`,
      ),
      expression: 'date',
    };
  }
  // In the order of code points, as the device compares them (filterRows.ts) whatever the database's collation;
  // on the indexed beginning first (filterIndexes.ts), which holds between the ends' beginnings.
  const indexed = sql`left(${text}, ${sql.lit(INDEXED_TEXT_LENGTH)}) collate "C"`;
  const whole = sql`${text} collate "C"`;
  return {
    condition: both(
      from === undefined
        ? null
        : sql<SqlBool>`${indexed} >= left(${from}, ${sql.lit(INDEXED_TEXT_LENGTH)}) and ${whole} >= ${from}`,
      to === undefined ? null : sql<SqlBool>`${indexed} <= ${to} and ${whole} <= ${to}`,
    ),
    expression: 'text',
  };
}

/**
 * Rows holding one of `values` (a MANY column: among its values): numbers compared as numbers (`12.50` is 12.5),
 * dates as the day (or unit) each names, other texts exactly. A value that is no number or date of such a
 * column is refused: compared as a text it matched no row, without a word.
 */
export function valuesCondition(checker: Checker | null, component: string, values: string[]): Condition {
  const compared = values.map((value) => {
    const read = comparedValue(checker, value);
    if (read === null)
      throw new InvalidInput({
        code: 'BAD_ROW_QUERY',
        params: {
          reason: 'badFilterValue',
          componentKey: component,
          value,
          expected: isNumberChecker(checker) ? 'number' : 'date',
        },
      });
    return read;
  });
  const field = sql`values -> ${component}`;
  const text = sql`values ->> ${component}`;
  if (isNumberChecker(checker)) {
    const numbers = compared.map((value) => JSON.stringify(Number(value)));
    return sql<SqlBool>`(${field} = any(${numbers}::jsonb[]) or (jsonb_typeof(${field}) = 'array' and exists (select from jsonb_array_elements(${field}) as v(one) where v.one = any(${numbers}::jsonb[]))))`;
  }
  if (checker?.kind === 'date') {
    const day = (value: RawBuilder<string>, bound: string) =>
      sql<SqlBool>`(substr(${value}, 6, 19) >= ${bound} and substr(${value}, 6, ${Math.min(19, bound.length)}) <= ${bound})`;
    const any = (value: RawBuilder<string>) =>
      compared.map((bound) => day(value, bound)).reduce((a, b) => sql<SqlBool>`${a} or ${b}`);
    return sql<SqlBool>`((${any(sql<string>`${text}`)}) or (jsonb_typeof(${field}) = 'array' and exists (select from jsonb_array_elements_text(${field}) as v(one) where ${any(sql<string>`v.one`)})))`;
  }
  return sql<SqlBool>`(${text} = any(${compared}::text[]) or (jsonb_typeof(${field}) = 'array' and ${field} ?| ${compared}::text[]))`;
}
