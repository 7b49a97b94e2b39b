import { InvalidInput, Refusal } from '../../src/domain/errors/refusal.ts';
import { REFUSAL_STATUS } from './refusalStatus.ts';

/**
 * Every error body has the one shape `{code, message, params}` where `message` repeats the code (clients of the
 * original read `message`).
 */
export interface ErrorBody {
  code: string;
  message: string;
  params: Record<string, unknown>;
}

export function errorBody(code: string, params: Record<string, unknown> = {}): ErrorBody {
  return { code, message: code, params };
}

/** The status a refusal answers: the table's for a catalogued code, 400 for input the domain's checks refused. */
export function statusOf(error: Refusal | InvalidInput): number {
  return error instanceof Refusal ? REFUSAL_STATUS[error.code] : 400;
}
