/**
 * Seeded mutations of a CSV file at the byte level, for the HTTP fuzz of uploads: random bytes (invalid UTF-8,
 * NUL, control characters), quotes, separators, line breaks, truncated and duplicated lines, a BOM, CRLF, and now
 * and then a huge field. The same seed gives the same files.
 */
import { seededRandom } from '../seededRandom';

const encoder = new TextEncoder();
const PIECES = [
  ';',
  ',',
  '"',
  '""',
  '\n',
  '\r\n',
  '\r',
  '\uFEFF',
  '\u0000',
  '\t',
  ' ',
  'é',
  '日',
  '😀',
  '\\',
  'NULL_KEY__',
  '__',
  '.',
  'K',
  '01/01/2000',
  '-1e309',
  '1e308',
  'NaN',
  ';;;;;;;;;;',
];
const RAW = [0x00, 0x0a, 0x0d, 0x22, 0x3b, 0x2c, 0x80, 0xbf, 0xc0, 0xc3, 0xe2, 0xed, 0xf0, 0xf4, 0xf8, 0xfe, 0xff];

export interface Mutation {
  bytes: Uint8Array;
  /** What was done, for the failure message. */
  edits: string[];
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/** One to four edits of `source`; `hugeEvery` in a hundred files also gets a field of 100 kB to 1 MB. */
export function mutate(source: string, seed: number, hugeEvery = 1): Mutation {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]) => items[int(items.length)];
  let bytes: Uint8Array = encoder.encode(source);
  const edits: string[] = [];
  const lines = () => {
    const found: number[] = [0];
    bytes.forEach((b, i) => b === 0x0a && i + 1 < bytes.length && found.push(i + 1));
    return found;
  };
  const count = 1 + int(4);
  for (let edit = 0; edit < count; edit += 1) {
    const at = int(bytes.length + 1);
    switch (int(10)) {
      case 0: {
        const length = 1 + int(8);
        const noise = Uint8Array.from({ length }, () => int(256));
        bytes = concat([bytes.subarray(0, at), noise, bytes.subarray(at)]);
        edits.push(`random bytes at ${at}`);
        break;
      }
      case 1: {
        const value = pick(RAW);
        if (at < bytes.length) bytes[at] = value;
        edits.push(`byte ${value} at ${at}`);
        break;
      }
      case 2:
      case 3: {
        const piece = pick(PIECES);
        bytes = concat([bytes.subarray(0, at), encoder.encode(piece), bytes.subarray(at)]);
        edits.push(`${JSON.stringify(piece)} at ${at}`);
        break;
      }
      case 4: {
        bytes = bytes.subarray(0, at);
        edits.push(`truncated at ${at}`);
        break;
      }
      case 5: {
        const starts = lines();
        const line = pick(starts);
        const end = bytes.indexOf(0x0a, line);
        const copy = bytes.slice(line, end < 0 ? bytes.length : end + 1);
        const where = pick(starts);
        bytes = concat([bytes.subarray(0, where), copy, bytes.subarray(where)]);
        edits.push(`line at ${line} copied to ${where}`);
        break;
      }
      case 6: {
        const starts = lines();
        const line = pick(starts);
        const end = bytes.indexOf(0x0a, line);
        bytes = concat([bytes.subarray(0, line), bytes.subarray(end < 0 ? bytes.length : end + 1)]);
        edits.push(`line at ${line} removed`);
        break;
      }
      case 7: {
        const text = new TextDecoder().decode(bytes);
        bytes = encoder.encode(
          next() < 0.5 ? text.replace(/\n/g, '\r\n') : text.replace(/;/g, pick([',', '\t', ';;', '"'])),
        );
        edits.push('line breaks or separators replaced');
        break;
      }
      case 8: {
        bytes = concat([encoder.encode(next() < 0.5 ? '\uFEFF' : '"'), bytes]);
        edits.push('BOM or quote first');
        break;
      }
      default: {
        const quoteAt = int(bytes.length + 1);
        bytes = concat([
          bytes.subarray(0, quoteAt),
          encoder.encode('"'),
          bytes.subarray(quoteAt, at > quoteAt ? at : quoteAt),
          encoder.encode('"'),
          bytes.subarray(at > quoteAt ? at : quoteAt),
        ]);
        edits.push(`quotes around ${quoteAt}…${at}`);
      }
    }
  }
  if (int(100) < hugeEvery) {
    const size = 100_000 + int(900_000);
    const at = int(bytes.length + 1);
    const filler = encoder.encode(pick(['x', 'é', '"', ';', '1']).repeat(size));
    bytes = concat([bytes.subarray(0, at), filler, bytes.subarray(at)]);
    edits.push(`huge field of ${filler.byteLength} bytes at ${at}`);
  }
  return { bytes: new Uint8Array(bytes), edits };
}
