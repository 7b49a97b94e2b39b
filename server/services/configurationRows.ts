import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { ApplicationModel } from '../../src/domain/configuration/model.ts';
import type { Schema } from '../db/schema.ts';
import { serializeModel } from '../../src/domain/configuration/index.ts';

/** A configuration file kept as a version of its application: created, updated or restored alike. */
export async function storeConfiguration(
  db: Kysely<Schema> | Transaction<Schema>,
  version: {
    applicationId: string;
    model: ApplicationModel;
    fileName: string;
    content: Uint8Array;
    comment: string;
    uploadedBy: string;
  },
): Promise<void> {
  await db
    .insertInto('configurations')
    .values({
      id: randomUUID(),
      application_id: version.applicationId,
      version: version.model.version,
      file_name: version.fileName,
      content: version.content,
      model: serializeModel(version.model),
      comment: version.comment,
      uploaded_by: version.uploadedBy,
    })
    .execute();
}
