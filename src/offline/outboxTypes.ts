import type { StreamProblem } from '@/domain/streaming/events';

/**
 * A change submitted by the user, kept in the browser until the server has applied it. It survives reloads and
 * browser restarts; its idempotency key makes every resend safe.
 */
export type OutboxStatus = 'queued' | 'sending' | 'done' | 'needs-attention';

/** What a change is, so the pending-changes page can name it and reopen its form. */
export const OUTBOX_KINDS = [
  'application.create',
  'application.update',
  'application.restore',
  'role.grant',
  'role.revoke',
  'reference.upload',
  'reference.delete',
  'deposit.upload',
  'deposit.publish',
  'deposit.delete',
  'authorization.save',
  'authorization.revoke',
  'charter.accept',
  'charter.upload',
  'rightsRequest.save',
  'additionalFile.save',
  'additionalFile.delete',
  'additionalFileAuthorization.save',
  'additionalFileAuthorization.revoke',
] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

export type StoredBody =
  | { type: 'none' }
  | { type: 'json'; value: unknown }
  | { type: 'form'; value: Record<string, string> }
  | { type: 'multipart'; parts: StoredPart[] };

export type StoredPart = { name: string; value: string } | { name: string; blob: Blob; fileName: string };

export interface StoredRequest {
  method: 'POST' | 'PUT' | 'DELETE';
  /** Path under /api/v1, with its query. */
  path: string;
  headers: Record<string, string>;
  body: StoredBody;
}

export interface OutboxError {
  /** HTTP status; 0 when the server could not be reached. */
  status: number;
  code: string;
  params: Record<string, unknown> | unknown[];
  /** The problems a streamed answer reported. */
  problems?: StreamProblem[];
  /** Line errors of a refused CSV file ({lineNumber, code, params}). */
  lineErrors?: Array<{
    lineNumber: number;
    code: string;
    params: Record<string, unknown>;
    column?: string;
    value?: string;
  }>;
}

export interface OutboxItem {
  id?: number;
  idempotencyKey: string;
  kind: OutboxKind;
  /** Values naming the change (application name, version, login…). */
  summary: Record<string, string>;
  /** Changes to one resource are applied in the order they were made. */
  resource: string;
  request: StoredRequest;
  /** The answer is an NDJSON stream whose `result` event says the change was applied. */
  streamed: boolean;
  createdAt: number;
  attempts: number;
  nextAttemptAt: number;
  status: OutboxStatus;
  /** Bytes to send, for the pending-changes page. */
  size: number;
  lastError?: OutboxError;
  /**
   * A send of it ended without an answer while it may have reached the server (the device had a network, an answer
   * broke off, the server was still applying it): it may be applied already, whatever its status says.
   */
  mayHaveArrived?: boolean;
  result?: unknown;
  doneAt?: number;
  /**
   * How the job its answer started on the server (a publication) ended, once followed: the change is applied when
   * the server accepts the job, what it asked for only when the job is done.
   */
  jobOutcome?: JobOutcome;
  /** Which tab last read the state of that job, and when: the other tabs leave it to that one while it reads. */
  jobRead?: { by: string; at: number };
  /** The form's input, kept to reopen the form after a refusal. */
  input?: unknown;
  /**
   * The login of whoever made the change: only their session sends it, so on a shared tablet one person's changes
   * are never applied in another's name. Absent on changes kept before owners were recorded (anyone sends those).
   */
  owner?: string;
  /**
   * The build of Terrain that queued it (src/lib/build.ts): a refusal of its shape by a later server is told as the
   * change of an earlier version. Absent on changes queued before builds were recorded: an earlier version too.
   */
  build?: string;
}

/**
 * The end of a job a change started: done, failed with the server's reason, replaced by a later job of its version
 * (or the version deleted), or not readable by whoever made the change (their rights do not cover the version whole).
 */
export type JobOutcome =
  | { status: 'done' }
  | { status: 'failed'; error: { code: string; params: Record<string, unknown> } }
  | { status: 'superseded' }
  | { status: 'unreadable' };

export type OutboxOutcome =
  | { status: 'done'; result: unknown }
  | { status: 'queued'; id: number }
  | { status: 'needs-attention'; error: OutboxError };
