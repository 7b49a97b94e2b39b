import { describe, expect, it } from 'vitest';
import { databaseFailure } from './databaseErrors.ts';

describe('a database failure', () => {
  it('is the request’s own refusal when a value passes a limit of the database, not the server’s failure', () => {
    const failure = databaseFailure({
      code: '54000',
      message: 'index row size 3016 exceeds btree version 4 maximum 2704 for index "data_rows_search_x"',
    });
    expect([failure?.code, failure?.params]).toEqual(['VALUE_TOO_LARGE', {}]);
    expect(databaseFailure({ code: '57P01', message: 'terminating connection' })?.code).toBe('DATABASE_UNAVAILABLE');
    expect(databaseFailure(new Error('something else'))).toBeUndefined();
  });

  it('is a conflict to send again, not the server’s failure, when the database ended the write to let another through', () => {
    for (const code of ['40P01', '40001']) {
      const failure = databaseFailure({ code, message: 'deadlock detected' });
      expect([failure?.code, failure?.retryAfterSeconds]).toEqual(['WRITE_CONFLICT', 1]);
    }
  });
});
