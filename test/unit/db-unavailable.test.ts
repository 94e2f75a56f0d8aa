// A database that cannot be reached, or that dropped the connection, is "try again", not an
// internal error: translateDbError says DatabaseUnavailable for the ways pg reports it, and the
// API answers service_unavailable (test/faults/restarts.test.ts restarts a real server).
import { describe, expect, it } from 'vitest';
import { asAppError } from '../../api/middleware/errors.js';
import { DatabaseUnavailable, translateDbError, UniqueViolation } from '../../db/errors.js';

const withCode = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('a database that cannot be reached', () => {
  const unreachable = [
    withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
    withCode('select "k"."key_hash" from "api_keys" as "k" - read ECONNRESET', 'ECONNRESET'),
    withCode('terminating connection due to administrator command', '57P01'),
    withCode('the database system is starting up', '57P03'),
    withCode('connection failure', '08006'),
    withCode('Connection terminated unexpectedly'),
    withCode('ROLLBACK - Client has encountered a connection error and is not queryable'),
  ];
  for (const error of unreachable) {
    it(`is unavailable: ${error.message}`, () => {
      expect(translateDbError(error)).toBeInstanceOf(DatabaseUnavailable);
      expect(asAppError(error)).toMatchObject({ code: 'service_unavailable', message: 'The database cannot be reached right now; please try again in a minute.' });
    });
  }

  it('is not confused with other failures', () => {
    expect(translateDbError(withCode('syntax error at or near "x"', '42601'))).not.toBeInstanceOf(DatabaseUnavailable);
    expect(translateDbError(withCode('duplicate key value violates unique constraint "maps_pkey"', '23505'))).toBeInstanceOf(UniqueViolation);
    expect(asAppError(new Error('something else'))).toBeUndefined();
  });
});
