// A transaction that may end by rolling back with an answer that is no failure: `rollBack(answer)`
// inside it throws past knex (which rolls back) and the answer comes out as the result.
import type { Knex } from 'knex';
import type { Db } from './connection.js';
import { translating } from './errors.js';

export async function transactionOrRollBack<T>(db: Db, work: (trx: Knex.Transaction, rollBack: (answer: T) => never) => Promise<T>): Promise<T> {
  const rolledBack = Symbol('rolled back');
  let answer: T | undefined;
  const rollBack = (value: T): never => {
    answer = value;
    throw rolledBack;
  };
  try {
    return await translating(() => db.transaction((trx) => work(trx, rollBack)));
  } catch (error) {
    if (error === rolledBack) return answer as T;
    throw error;
  }
}
