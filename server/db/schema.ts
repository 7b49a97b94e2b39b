import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { ApplicationRole } from '../../src/domain/applications/applicationView.ts';
import type { ApplicationSummary } from '../../src/domain/applications/summary.ts';
import type { ApplicationModel } from '../../src/domain/configuration/model.ts';
import type { AuthorizationRules } from '../../src/domain/rights/authorization.ts';
import type { JobError } from '../../src/contract/deposits.ts';

type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp the database fills when the insert leaves it out. */
type DefaultedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** JSONB: read as the value, written as its JSON text. */
type Json<T> = ColumnType<T, string, string>;
type DefaultedJson<T> = ColumnType<T, string | undefined, string>;

export type AccountState = 'idle' | 'active' | 'pending' | 'closed';

export interface UsersTable {
  id: string;
  login: string;
  email: string;
  password_hash: string;
  state: AccountState;
  /** Address waiting for its key during an e-mail change. */
  pending_email: string | null;
  terrain_admin: Generated<boolean>;
  /** Application-name patterns this user may create (the application-creator role). */
  creator_patterns: DefaultedJson<string[]>;
  /** Application id → ISO time the user accepted that application's charter. */
  chartes: DefaultedJson<Record<string, string>>;
  creation_date: DefaultedTimestamp;
  update_date: DefaultedTimestamp;
}

export type KeyPurpose = 'activation' | 'password' | 'email';

export interface VerificationKeysTable {
  id: string;
  user_id: string;
  purpose: KeyPurpose;
  key_hash: string;
  target_email: string;
  created_at: DefaultedTimestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: DefaultedTimestamp;
  expires_at: Timestamp;
  revoked_at: Timestamp | null;
  /** Kept signed in on a device: slides over the lasting lifetime instead of the idle one. */
  lasting: Generated<boolean>;
  /** The browser and system it was opened with, to recognise it in the list of devices. */
  device: string | null;
}

export interface RateLimitsTable {
  bucket: string;
  window_start: Timestamp;
  count: number;
}

export interface SignInFailuresTable {
  bucket: string;
  failures: number;
  window_start: DefaultedTimestamp;
  last_failure_at: DefaultedTimestamp;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface ApplicationsTable {
  id: string;
  name: string;
  version: string;
  comment: ColumnType<string, string | undefined, string>;
  summary: Json<ApplicationSummary>;
  model: Json<ApplicationModel>;
  creator_id: string | null;
  creation_date: DefaultedTimestamp;
  update_date: DefaultedTimestamp;
  /** Raised by every change to the application's authorizations or roles (rightsOf keeps rights per version). */
  rights_version: ColumnType<number, number | undefined, number>;
  /** Raised by every change of the application's configuration (findApplication keeps models per version). */
  model_version: ColumnType<number, number | undefined, number>;
  /** Set while a restore writes the application step by step (embedded database): hidden until it is cleared. */
  restoring_since: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface ConfigurationsTable {
  id: string;
  application_id: string;
  version: string;
  file_name: string;
  content: Uint8Array;
  /** The stable serialization of the model (serializeModel). */
  model: string;
  comment: ColumnType<string, string | undefined, string>;
  uploaded_by: string | null;
  uploaded_at: DefaultedTimestamp;
}

export interface ApplicationRolesTable {
  application_id: string;
  user_id: string;
  role: ApplicationRole;
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  method: string;
  path: string;
  fingerprint: string | null;
  /** `applied`: the work is committed, its answer not yet kept (appliedWork.ts). */
  status: 'running' | 'applied' | 'done';
  /** The claim running the request: its work applies only while the key is still its own. */
  claim: string | null;
  locked_until: Timestamp;
  /** The server instance running the request (null on keys taken before instances were recorded). */
  instance: string | null;
  response_status: number | null;
  response_headers: Json<Record<string, string>> | null;
  response_body: Uint8Array | null;
  created_at: DefaultedTimestamp;
  expires_at: Timestamp;
}

export interface DataRowsTable {
  id: string;
  application_id: string;
  data_name: string;
  natural_key: string;
  hierarchical_key: string;
  values: Json<Record<string, unknown>>;
  refs: ColumnType<string[], string[] | undefined, string[]>;
  line_number: number | null;
  file_id: string | null;
  period_start: Date | null;
  period_end: Date | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface DepositFilesTable {
  id: string;
  application_id: string;
  data_name: string;
  file_name: string;
  size: number;
  scope: ColumnType<Record<string, string>, string | undefined, string>;
  period_from: Date | null;
  period_to: Date | null;
  comment: ColumnType<string, string | undefined, string>;
  created_by: string | null;
  created_at: DefaultedTimestamp;
  published: ColumnType<boolean, boolean | undefined, boolean>;
  published_by: string | null;
  published_at: Date | null;
  row_count: ColumnType<number, number | undefined, number>;
  /** Logins of the backed-up application's depositor and publisher, for a restored version (migration 0013). */
  original_depositor: ColumnType<string | null, string | null | undefined, string | null>;
  original_publisher: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * A stored file's bytes, in parts (migration 0020, fileParts.ts): a deposit's under its id, an additional file's under
 * its `content_id`.
 */
export interface FilePartsTable {
  content_id: string;
  part: number;
  bytes: Uint8Array;
  written_at: DefaultedTimestamp;
}

export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface JobsTable {
  id: string;
  kind: string;
  application_id: string;
  file_id: string | null;
  requested_by: string | null;
  payload: ColumnType<Record<string, unknown>, string | undefined, string>;
  status: JobStatus;
  progress: ColumnType<number, number | undefined, number>;
  error: Json<JobError> | null;
  locked_until: Date | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface AuthorizationsTable {
  id: string;
  application_id: string;
  name: string;
  description: ColumnType<string, string | undefined, string>;
  is_public: ColumnType<boolean, boolean | undefined, boolean>;
  rules: Json<AuthorizationRules>;
  created_by: string | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface AuthorizationUsersTable {
  authorization_id: string;
  user_id: string;
}

export interface AdditionalFilesTable {
  id: string;
  application_id: string;
  file_type: string;
  file_name: string;
  /** `additionalFileNameKey(file_name)`: no two files of a type share one (migration 0026). */
  name_key: string;
  content_type: ColumnType<string, string | undefined, string>;
  size: number;
  /** Where its bytes are (file_parts): new whenever they are replaced. */
  content_id: string;
  comment: ColumnType<string, string | undefined, string>;
  fields: DefaultedJson<Record<string, string>>;
  associates: DefaultedJson<Record<string, unknown>>;
  for_application: ColumnType<boolean, boolean | undefined, boolean>;
  owner_id: string | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
  /** Who last changed the file, when known (migration 0031). */
  updated_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** Login of the backed-up application's owner, for a restored file (migration 0013). */
  original_owner: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Operations on additional files, per file type. */
export type AdditionalFileRights = Partial<Record<'admin' | 'depot' | 'extraction' | 'delete', string[]>>;

export interface AdditionalFileAuthorizationsTable {
  id: string;
  application_id: string;
  name: string;
  rights: Json<AdditionalFileRights>;
  created_by: string | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

export interface AdditionalFileAuthorizationUsersTable {
  authorization_id: string;
  user_id: string;
}

export interface RightsRequestsTable {
  id: string;
  application_id: string;
  user_id: string;
  comment: ColumnType<string, string | undefined, string>;
  fields: DefaultedJson<Record<string, string>>;
  rules: Json<AuthorizationRules>;
  setted: ColumnType<boolean, boolean | undefined, boolean>;
  treated_by: string | null;
  authorization_id: string | null;
  /** fr or en: the language of the mail that tells the requester how their request was treated. */
  language: ColumnType<string, string | undefined, string>;
  /** Null while open. */
  decision: 'granted' | 'closed' | null;
  /** The comment of whoever treated it (the requester's stays in `comment`). */
  treatment_comment: string | null;
  created_at: DefaultedTimestamp;
  updated_at: DefaultedTimestamp;
}

/** A running server instance, alive while its heartbeat keeps `alive_until` ahead (serverInstance.ts). */
export interface ServerInstancesTable {
  id: string;
  started_at: DefaultedTimestamp;
  alive_until: Timestamp;
}

export interface BundleRunsTable {
  user_id: string;
  run_id: string;
  application_id: string;
  started_at: DefaultedTimestamp;
  locked_until: Timestamp;
}

export interface EntryCountsTable {
  application_id: string;
  data_name: string;
  line_count: number;
  /** Raised by every write to the entry's rows. */
  version: Generated<number>;
}

/** A large write under way on the embedded database, and the table journaling what it replaced (bulkJournal.ts). */
export interface BulkWritesTable {
  id: string;
  application_id: string;
  data_name: string;
  journal: string;
  started_at: DefaultedTimestamp;
  empty_before: Generated<boolean>;
}

export interface Schema {
  users: UsersTable;
  verification_keys: VerificationKeysTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  sign_in_failures: SignInFailuresTable;
  settings: SettingsTable;
  applications: ApplicationsTable;
  configurations: ConfigurationsTable;
  application_roles: ApplicationRolesTable;
  idempotency_keys: IdempotencyKeysTable;
  data_rows: DataRowsTable;
  entry_counts: EntryCountsTable;
  bulk_writes: BulkWritesTable;
  deposit_files: DepositFilesTable;
  file_parts: FilePartsTable;
  jobs: JobsTable;
  authorizations: AuthorizationsTable;
  authorization_users: AuthorizationUsersTable;
  additional_files: AdditionalFilesTable;
  additional_file_authorizations: AdditionalFileAuthorizationsTable;
  additional_file_authorization_users: AdditionalFileAuthorizationUsersTable;
  rights_requests: RightsRequestsTable;
  bundle_runs: BundleRunsTable;
  server_instances: ServerInstancesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

/** An application as services read it: a restore's hidden mark is only read where it hides the application. */
export type ApplicationRow = Omit<Selectable<ApplicationsTable>, 'restoring_since'>;
