/**
 * Files as spreadsheets write them, over HTTP: a reference whose lines end in a lone CR (Excel's "CSV (Macintosh)",
 * old Mac tools) is stored as its LF twin, row for row, and its errors name the same lines; a file saved as UTF-16
 * (Excel's "Unicode text", with its byte order mark, or without one) is refused once for its encoding and nothing
 * of it is stored. The server's answers are the ones the device's engine gives for the same bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateCsvText, type CsvError } from '../../src/domain/csv/index.ts';
import {
  createApplication,
  modelOf,
  startDataServer,
  tableState,
  uploadReference,
  withoutIds,
  type DataServer,
} from './dataFixtures.ts';

const yaml = (name: string) => `OA_version: 2.0.1
OA_application: {OA_name: ${name}, OA_version: 1.0.0}
OA_data:
  zones:
    OA_naturalKey: [code]
    OA_basicComponents:
      code: {OA_required: true}
      label: null
      parent:
        OA_checker: {OA_name: OA_reference, OA_params: {OA_reference: {OA_name: zones, OA_isRecursive: true}}}
`;

/** Rows of the reference: a tree ten wide, some labels quoted over two lines. */
const ROWS = 3_000;
const code = (index: number) => `z${String(index).padStart(5, '0')}`;

/** The file's lines, header first. */
function zoneLines(): string[] {
  const lines = ['code;label;parent'];
  for (let index = 0; index < ROWS; index += 1) {
    // A line break inside quotes is the value's, kept as the file writes it, whatever ends the lines.
    const label = index % 500 === 7 ? `"Zone ${index}\r\nsuite"` : `Zone ${index}`;
    lines.push(`${code(index)};${label};${index < 10 ? '' : code(Math.floor(index / 10))}`);
  }
  return lines;
}

const ended = (lines: string[], lineEnd: string) => lines.join(lineEnd) + lineEnd;

function utf16(text: string, littleEndian: boolean, byteOrderMark: boolean): Uint8Array {
  const units = byteOrderMark ? `\uFEFF${text}` : text;
  const bytes = new Uint8Array(units.length * 2);
  const view = new DataView(bytes.buffer);
  for (let index = 0; index < units.length; index += 1)
    view.setUint16(index * 2, units.charCodeAt(index), littleEndian);
  return bytes;
}

let data: DataServer;

beforeAll(async () => {
  data = await startDataServer();
  for (const name of ['linefeeds', 'returns', 'encodings']) await createApplication(data.admin, name, yaml(name));
}, 120_000);
afterAll(() => data?.server.close());

/** The device's report of the same bytes, read as its worker reads them. */
async function deviceErrors(app: string, bytes: Uint8Array): Promise<CsvError[]> {
  const model = await modelOf(data.admin, app);
  const text = new TextDecoder('utf-8').decode(bytes);
  return validateCsvText({ model, dataName: 'zones', fileName: 'zones.csv', references: { rows: () => [] } }, text)
    .report.errors;
}

describe('line ends', () => {
  it('stores a lone CR file whole, as the same rows as its LF twin', async () => {
    const lines = zoneLines();
    const linefeeds = await uploadReference(data.admin, 'linefeeds', 'zones', 'zones.csv', ended(lines, '\n'));
    expect(linefeeds.status, linefeeds.text.slice(0, 500)).toBe(201);
    const returns = await uploadReference(data.admin, 'returns', 'zones', 'zones.csv', ended(lines, '\r'));
    expect(returns.status, returns.text.slice(0, 500)).toBe(201);
    expect(returns.body).toMatchObject({ lineCount: ROWS, added: ROWS, totalRows: ROWS });

    const fromLinefeeds = await tableState(data.admin, 'linefeeds', 'zones');
    const fromReturns = await tableState(data.admin, 'returns', 'zones');
    expect(fromReturns.totalRows).toBe(ROWS);
    expect(fromReturns.lineCount).toBe(ROWS);
    expect(withoutIds(fromReturns.rows)).toEqual(withoutIds(fromLinefeeds.rows));
    const quoted = fromReturns.rows.find((row) => row.naturalKey === code(507));
    expect(quoted?.values.label).toBe('Zone 507\r\nsuite');
  }, 120_000);

  it('names the line of an error in a lone CR file as in its LF twin, and keeps the stored rows', async () => {
    const before = await tableState(data.admin, 'returns', 'zones');
    const wrongLine = 2_500;
    const lines = zoneLines();
    lines[wrongLine - 1] = ';Zone sans code;';
    const answers = [];
    for (const lineEnd of ['\n', '\r', '\r\n']) {
      const answer = await uploadReference(data.admin, 'returns', 'zones', 'zones.csv', ended(lines, lineEnd));
      expect(answer.status, answer.text.slice(0, 500)).toBe(400);
      expect(answer.body.code).toBe('INVALID_CSV');
      answers.push(answer.body.errors as CsvError[]);
    }
    expect(answers[0].map((error) => [error.lineNumber, error.code])).toEqual([
      [wrongLine, 'requiredValueWithComponent'],
      [wrongLine, 'invalidNaturalKey'],
    ]);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    const bytes = new TextEncoder().encode(ended(lines, '\r'));
    expect(answers[1]).toEqual(await deviceErrors('returns', bytes));
    expect(await tableState(data.admin, 'returns', 'zones')).toEqual(before);
  }, 120_000);
});

describe('UTF-16 files', () => {
  const refusal = [{ lineNumber: -1, code: 'invalidFormat', params: { reason: 'utf16' } }];

  it.each([
    { littleEndian: true, byteOrderMark: true },
    { littleEndian: false, byteOrderMark: true },
    { littleEndian: true, byteOrderMark: false },
    { littleEndian: false, byteOrderMark: false },
  ])(
    'refuses one (little endian $littleEndian, mark $byteOrderMark) once, for its encoding, storing nothing',
    async ({ littleEndian, byteOrderMark }) => {
      const bytes = utf16(ended(zoneLines(), '\r\n'), littleEndian, byteOrderMark);
      const answer = await uploadReference(data.admin, 'encodings', 'zones', 'zones.csv', bytes);
      expect(answer.status, answer.text.slice(0, 500)).toBe(400);
      expect(answer.body.code).toBe('INVALID_CSV');
      expect(answer.body.params).toEqual({ errorCount: 1, truncated: false });
      expect(answer.body.errors).toEqual(refusal);
      expect(await deviceErrors('encodings', bytes)).toEqual(refusal);
      const state = await tableState(data.admin, 'encodings', 'zones');
      expect(state).toEqual({ rows: [], totalRows: 0, lineCount: 0 });
    },
    120_000,
  );
});
