import type { Migration, MigrationProvider } from 'kysely';
import * as accounts from './0001_accounts.ts';
import * as applications from './0002_applications.ts';
import * as idempotency from './0003_idempotency.ts';
import * as dataRows from './0004_data_rows.ts';
import * as deposits from './0005_deposits.ts';
import * as authorizations from './0006_authorizations.ts';
import * as documents from './0007_documents.ts';
import * as rightsRequestTreatment from './0008_rights_request_treatment.ts';
import * as bundleRuns from './0009_bundle_runs.ts';
import * as entryVersions from './0010_entry_versions.ts';
import * as rightsVersions from './0011_rights_versions.ts';
import * as modelVersions from './0012_model_versions.ts';
import * as signInFailures from './0013_sign_in_failures.ts';
import * as restoredAuthors from './0014_restored_authors.ts';
import * as bulkWrites from './0015_bulk_writes.ts';
import * as serverInstances from './0016_server_instances.ts';
import * as lastingSessions from './0017_lasting_sessions.ts';
import * as emptyBeforeWrites from './0018_empty_before_writes.ts';
import * as cheaperRowWrites from './0019_cheaper_row_writes.ts';
import * as fileParts from './0020_file_parts.ts';
import * as restoringApplications from './0021_restoring_applications.ts';
import * as fileListOrder from './0022_file_list_order.ts';
import * as backupFileOrder from './0023_backup_file_order.ts';
import * as rightsRequestOrder from './0024_rights_request_order.ts';
import * as appliedKeys from './0025_applied_keys.ts';
import * as additionalFileNameKeys from './0026_additional_file_name_keys.ts';
import * as boundedSearchIndexes from './0027_bounded_search_indexes.ts';
import * as backupVersionOrder from './0028_backup_version_order.ts';
import * as scopeKeyLookups from './0029_scope_key_lookups.ts';
import * as composedFileNameKeys from './0030_composed_file_name_keys.ts';
import * as additionalFileUpdatedBy from './0031_additional_file_updated_by.ts';
import * as doubledVersionRows from './0032_doubled_version_rows.ts';

/** Every migration, in order. Names are permanent: a released migration is never renamed or edited. */
const migrations: Record<string, Migration> = {
  '0001_accounts': accounts,
  '0002_applications': applications,
  '0003_idempotency': idempotency,
  '0004_data_rows': dataRows,
  '0005_deposits': deposits,
  '0006_authorizations': authorizations,
  '0007_documents': documents,
  '0008_rights_request_treatment': rightsRequestTreatment,
  '0009_bundle_runs': bundleRuns,
  '0010_entry_versions': entryVersions,
  '0011_rights_versions': rightsVersions,
  '0012_model_versions': modelVersions,
  '0013_sign_in_failures': signInFailures,
  '0014_restored_authors': restoredAuthors,
  '0015_bulk_writes': bulkWrites,
  '0016_server_instances': serverInstances,
  '0017_lasting_sessions': lastingSessions,
  '0018_empty_before_writes': emptyBeforeWrites,
  '0019_cheaper_row_writes': cheaperRowWrites,
  '0020_file_parts': fileParts,
  '0021_restoring_applications': restoringApplications,
  '0022_file_list_order': fileListOrder,
  '0023_backup_file_order': backupFileOrder,
  '0024_rights_request_order': rightsRequestOrder,
  '0025_applied_keys': appliedKeys,
  '0026_additional_file_name_keys': additionalFileNameKeys,
  '0027_bounded_search_indexes': boundedSearchIndexes,
  '0028_backup_version_order': backupVersionOrder,
  '0029_scope_key_lookups': scopeKeyLookups,
  '0030_composed_file_name_keys': composedFileNameKeys,
  '0031_additional_file_updated_by': additionalFileUpdatedBy,
  '0032_doubled_version_rows': doubledVersionRows,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
