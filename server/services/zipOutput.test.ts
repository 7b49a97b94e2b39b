import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZipArchive, ZipRefused } from './zipArchive';
import { ZipOutput } from './zipOutput';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'terrain-zip-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

const LIMITS = { maxEntries: 100_000, maxInflatedBytes: 1 << 30 };
const name = (index: number) => `files/${String(index).padStart(6, '0')}.txt`;

/** A zip of `count` one-line files written by ZipOutput, kept in a file. */
async function written(count: number): Promise<{ file: string; bytes: Buffer }> {
  const zip = new ZipOutput();
  const chunks: Uint8Array[] = [];
  for (let index = 0; index < count; index += 1)
    for await (const chunk of zip.add(name(index), [`line ${index}\n`])) chunks.push(chunk);
  for (const chunk of zip.end()) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  const file = path.join(folder, `${count}.zip`);
  await writeFile(file, bytes);
  return { file, bytes };
}

async function text(archive: ZipArchive, entry: string) {
  const parts: Uint8Array[] = [];
  for await (const part of archive.read(entry)) parts.push(part);
  return Buffer.concat(parts).toString('utf8');
}

describe('a zip written as it goes', () => {
  it('is read back whole past the 65,535 entries its end record can count', { timeout: 120_000 }, async () => {
    for (const count of [3, 65_535, 65_537]) {
      const { file, bytes } = await written(count);
      const archive = await ZipArchive.open(file, bytes.byteLength, LIMITS);
      expect(archive.entries.size, `${count} entries`).toBe(count);
      expect(await text(archive, name(count - 1))).toBe(`line ${count - 1}\n`);
    }
  });

  it(
    'is read whole as Terrain wrote it before its ZIP64 end: a count of 16 bits, the low bits of the true one',
    {
      timeout: 120_000,
    },
    async () => {
      for (const count of [65_535, 65_537]) {
        const { file, bytes } = await written(count);
        // The ZIP64 record and locator (76 bytes) dropped, the end record counting as fflate wrote it.
        const end = Buffer.from(bytes.subarray(bytes.byteLength - 22));
        end.writeUInt16LE(count & 0xffff, 8);
        end.writeUInt16LE(count & 0xffff, 10);
        const old = Buffer.concat([bytes.subarray(0, bytes.byteLength - 22 - 76), end]);
        await writeFile(file, old);
        const archive = await ZipArchive.open(file, old.byteLength, LIMITS);
        expect(archive.entries.size, `${count} entries`).toBe(count);
        expect(await text(archive, name(count - 1))).toBe(`line ${count - 1}\n`);
      }
    },
  );

  it('fails past the files its reader reads, rather than be written whole for nobody', async () => {
    const zip = new ZipOutput({ maxEntries: 3 });
    const add = async (index: number) => {
      for await (const _chunk of zip.add(name(index), ['x'])) continue;
    };
    for (const index of [0, 1, 2]) await add(index);
    await expect(add(3)).rejects.toThrow(/more than 3 files/);
  });

  it('fails past the bytes its restore accepts, rather than be written whole for nobody', async () => {
    const zip = new ZipOutput({ maxBytes: 64 * 1024 });
    const random = randomBytes(100 * 1024);
    const written = async () => {
      for await (const _chunk of zip.add(name(0), [random])) continue;
    };
    await expect(written()).rejects.toThrow(/exceed 65536 bytes/);
  });

  it('is refused, not read in part, when its end record counts fewer entries than its directory holds', async () => {
    const { file, bytes } = await written(5);
    // What an end record counting in 16 bits left of 65,541 entries: 5 read as 4 here.
    bytes.writeUInt16LE(4, bytes.byteLength - 22 + 8);
    bytes.writeUInt16LE(4, bytes.byteLength - 22 + 10);
    await writeFile(file, bytes);
    await expect(ZipArchive.open(file, bytes.byteLength, LIMITS)).rejects.toEqual(new ZipRefused('invalidZip'));
  });
});
