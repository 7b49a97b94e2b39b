import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migratedTestDatabase } from '../db/migratedDatabase.testing.ts';
import { storedFile } from './storedFile.ts';

describe('reading a stored file', () => {
  const database = migratedTestDatabase();

  it('gives its bytes in order, slice by slice, never as one value', async () => {
    // Three slices and a bit; random bytes, so the database cannot compress them away.
    const content = randomBytes(3 * 4 * 1024 * 1024 + 1001);
    const application = randomUUID();
    const file = randomUUID();
    await sql`insert into applications (id, name, version, summary, model) values (${application}, 'slices', '1', '{}', '{}')`.execute(
      database().db,
    );
    await sql`insert into additional_files (id, application_id, file_type, file_name, size, content) values (${file}, ${application}, 'notes', 'big.pdf', ${content.byteLength}, ${content})`.execute(
      database().db,
    );
    const pieces: Uint8Array[] = [];
    for await (const piece of storedFile(database().db, file, content.byteLength)) pieces.push(piece);
    expect(pieces.map((piece) => piece.byteLength)).toEqual([4194304, 4194304, 4194304, 1001]);
    expect(Buffer.concat(pieces).equals(content)).toBe(true);
  }, 60_000);

  it('says so when the file is gone', async () => {
    await expect(storedFile(database().db, randomUUID(), 10).next()).rejects.toThrow(/vanished/);
  });
});
