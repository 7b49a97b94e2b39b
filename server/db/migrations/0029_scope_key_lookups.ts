import { sql, type Kysely } from 'kysely';

/**
 * The keys of the scope nodes that grants, rights requests and additional files name, indexed: an upload moving
 * reference rows looks for those naming a former key (followMoves, movedRows.ts), and without an index it read
 * every grant, request and file of the application, however few named a moved row. Each expression is written as
 * the look-up writes it, or the planner does not see the index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index authorizations_scope_keys on authorizations
    using gin (jsonb_path_query_array(rules, '$.restricted.*[*].scopes.*[*]')) with (fastupdate = off)`.execute(db);
  await sql`create index rights_requests_scope_keys on rights_requests
    using gin (jsonb_path_query_array(rules, '$.restricted.*[*].scopes.*[*]')) with (fastupdate = off)`.execute(db);
  await sql`create index additional_files_scope_keys on additional_files
    using gin (jsonb_path_query_array(associates, '$.*.scopes.*[*]')) with (fastupdate = off)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index additional_files_scope_keys`.execute(db);
  await sql`drop index rights_requests_scope_keys`.execute(db);
  await sql`drop index authorizations_scope_keys`.execute(db);
}
