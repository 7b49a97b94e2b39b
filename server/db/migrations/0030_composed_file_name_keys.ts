import { sql, type Kysely } from 'kysely';
import { additionalFileNameKey } from '../../../src/domain/additionalFiles/fileName.ts';

/** Files whose keys one statement reads and writes. */
const PAGE = 5_000;

/**
 * Name keys are now computed on the composed name (NFC): a key stored from a decomposed name (macOS file choosers give
 * them; Hangul decomposes into letters the rule accepted) would not meet the key of the same name typed composed.
 * Only names beyond ASCII can change; their keys are computed again by the domain (see `additionalFileNameKey`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
    const page = await sql<{ id: string; file_name: string; name_key: string }>`
      select id, file_name, name_key from additional_files
      where id > ${after}::uuid and file_name !~ '^[ -~]*$' order by id limit ${PAGE}`.execute(db);
    if (page.rows.length === 0) break;
    const changed = page.rows.filter((row) => additionalFileNameKey(row.file_name) !== row.name_key);
    if (changed.length)
      await sql`update additional_files as f set name_key = k.key
        from unnest(${changed.map((row) => row.id)}::uuid[], ${changed.map((row) => additionalFileNameKey(row.file_name))}::text[])
          as k(id, key)
        where f.id = k.id`.execute(db);
    after = page.rows[page.rows.length - 1]!.id;
  }
}

/** The keys stay as computed: a decomposed key is only a key no composed name meets. */
export async function down(): Promise<void> {}
