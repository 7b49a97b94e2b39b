/**
 * Floats over HTTP (fidelity audit M2): a value a double cannot hold exactly is refused at its line with
 * `floatPrecisionLost` and nothing of the file is stored; values whose only change is their writing (`0.10`, `1e3`,
 * a decimal comma) are stored as the number they write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApplication, startDataServer, storedRows, uploadReference, type DataServer } from './dataFixtures.ts';

const YAML = `OA_version: 2.0.1
OA_application: {OA_name: floats, OA_version: 1.0.0}
OA_data:
  items:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: null
      num: {OA_checker: {OA_name: OA_float}}
      many: {OA_checker: {OA_name: OA_float, OA_params: {OA_multiplicity: MANY}}}
`;

let data: DataServer;

beforeAll(async () => {
  data = await startDataServer();
  await createApplication(data.admin, 'floats', YAML);
});
afterAll(() => data?.server.close());

describe('float values over HTTP', () => {
  it('refuses a file with digits a number cannot keep, naming each value and what it would become', async () => {
    const file = [
      'code;num;many',
      'ok;0.10;1',
      'big;9007199254740993;1',
      'pi;1.5;"2.5, 3.14159265358979323846"',
      'tiny;1e-400;',
    ].join('\n');
    const answer = await uploadReference(data.admin, 'floats', 'items', 'items.csv', file);
    expect(answer.status, answer.text.slice(0, 500)).toBe(400);
    expect(answer.body.code).toBe('INVALID_CSV');
    expect(answer.body.errors).toEqual([
      {
        lineNumber: 3,
        code: 'floatPrecisionLost',
        params: { component: 'num', value: '9007199254740993', stored: '9007199254740992' },
        column: 'num',
        value: '9007199254740993',
      },
      {
        lineNumber: 4,
        code: 'floatPrecisionLost',
        params: { component: 'many', value: '3.14159265358979323846', stored: '3.141592653589793' },
        column: 'many',
        value: '3.14159265358979323846',
      },
      {
        lineNumber: 5,
        code: 'floatPrecisionLost',
        params: { component: 'num', value: '1e-400', stored: '0' },
        column: 'num',
        value: '1e-400',
      },
    ]);
    expect(await storedRows(data.admin, 'floats', 'items')).toEqual([]);
  });

  it('stores the numbers written, whatever their writing', async () => {
    const file = [
      'code;num;many',
      'a;0.10;"1.0, 1e3"',
      'b;0,30000000000000004;-0',
      'c;9007199254740992;0.1',
      'd;12,5;',
    ].join('\n');
    const answer = await uploadReference(data.admin, 'floats', 'items', 'items.csv', file);
    expect(answer.status, answer.text.slice(0, 500)).toBe(201);
    const values = Object.fromEntries(
      (await storedRows(data.admin, 'floats', 'items')).map((row) => [
        row.values.code,
        [row.values.num, row.values.many],
      ]),
    );
    expect(values).toEqual({
      a: [0.1, [1, 1000]],
      b: [0.30000000000000004, [0]],
      c: [9007199254740992, [0.1]],
      d: [12.5, ['']],
    });
  });
});
