/**
 * What an export gave against what is stored, without holding either in memory: the number of rows and a checksum
 * of their cells that does not depend on their order (the sum of a hash per row), read from streamed answers.
 */
import { createHash } from 'node:crypto';
import type { ApplicationModel } from '../../src/domain/configuration/model.ts';
import { cellText } from '../../src/domain/rows/cellText.ts';
import { storedKeys } from '../../server/services/rowQueries.ts';
import type { BenchServer } from './serverProcess.ts';

export interface RowsDigest {
  rows: number;
  checksum: bigint;
}

const rowHash = (cells: readonly string[]) =>
  createHash('sha256').update(cells.join('\u0001')).digest().readBigUInt64BE(0);

/** The lines of a streamed answer, as they arrive. */
async function* linesOf(response: Response): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let rest = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    const text = rest + decoder.decode(chunk, { stream: true });
    const lines = text.split('\n');
    rest = lines.pop()!;
    yield* lines;
  }
  if (rest !== '') yield rest;
}

function get(server: BenchServer, apiPath: string) {
  return fetch(`${server.url}/api/v1${apiPath}`, { headers: { authorization: `Bearer ${server.token}` } });
}

/**
 * A CSV export (every field quoted, `separator` between them, no line break inside a value: the bench's files have
 * none) as a digest of its rows; the header is left out. Also answers how long it took, first byte asked to last
 * byte read.
 */
export async function exportDigest(
  server: BenchServer,
  apiPath: string,
  separator: string,
): Promise<RowsDigest & { ms: number; bytes: number }> {
  const start = performance.now();
  const response = await get(server, apiPath);
  if (response.status !== 200)
    throw new Error(`${apiPath} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  const between = `"${separator}"`;
  let rows = -1;
  let checksum = 0n;
  let bytes = 0;
  for await (const line of linesOf(response)) {
    bytes += line.length + 1;
    rows += 1;
    if (rows === 0) continue;
    checksum =
      (checksum +
        rowHash(
          line
            .slice(1, -1)
            .split(between)
            .map((cell) => cell.replace(/""/g, '"')),
        )) &
      0xffff_ffff_ffff_ffffn;
  }
  return { rows: Math.max(rows, 0), checksum, ms: performance.now() - start, bytes };
}

/** The stored rows of a reference (its NDJSON feed) as the digest an exact export of them must have. */
export async function storedDigest(
  server: BenchServer,
  application: string,
  model: ApplicationModel,
  reference: string,
): Promise<RowsDigest> {
  const entry = model.data.find((d) => d.name === reference)!;
  const columns = [...storedKeys(entry)].filter(([key]) =>
    entry.components.some((c) => c.key === key && c.kind !== 'computed'),
  );
  const response = await get(server, `/applications/${application}/references/${reference}/rows`);
  if (response.status !== 200) throw new Error(`rows of ${reference} answered ${response.status}`);
  let rows = 0;
  let checksum = 0n;
  for await (const line of linesOf(response)) {
    if (line.trim() === '') continue;
    const { values } = JSON.parse(line) as { values: Record<string, unknown> };
    checksum =
      (checksum + rowHash(columns.map(([key, checker]) => cellText(values[key], checker)))) & 0xffff_ffff_ffff_ffffn;
    rows += 1;
  }
  return { rows, checksum };
}
