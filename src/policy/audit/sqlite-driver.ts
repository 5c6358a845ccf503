// What of better-sqlite3 the embedded audit store uses, typed here because the package ships no types.

import { createRequire } from 'node:module';

/** A prepared statement. */
export interface Statement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}
export interface Database {
  exec(source: string): void;
  prepare(source: string): Statement;
  transaction<A extends unknown[], R>(fn: (...args: A) => R): { immediate: (...args: A) => R };
  close(): void;
  readonly open: boolean;
}
export type DatabaseConstructor = new (
  path: string,
  options?: { fileMustExist?: boolean; timeout?: number },
) => Database;

/** The driver (CommonJS), loaded when a store opens. */
export const loadSqlite = (): DatabaseConstructor =>
  createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor;
