import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('applications')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    // What lists need (titles, entry names), so that listing never reads whole models.
    .addColumn('summary', 'jsonb', (c) => c.notNull())
    .addColumn('model', 'jsonb', (c) => c.notNull())
    .addColumn('creator_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('creation_date', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('update_date', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('configurations')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('application_id', 'uuid', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content', 'bytea', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('comment', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('uploaded_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('uploaded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('configurations_version', ['application_id', 'version'])
    .execute();

  await db.schema
    .createTable('application_roles')
    .addColumn('application_id', 'uuid', (c) => c.notNull().references('applications.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('applicationManager', 'userManager')`))
    .addPrimaryKeyConstraint('application_roles_pk', ['application_id', 'user_id', 'role'])
    .execute();
  await db.schema.createIndex('application_roles_user').on('application_roles').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['application_roles', 'configurations', 'applications'])
    await db.schema.dropTable(table).execute();
}
