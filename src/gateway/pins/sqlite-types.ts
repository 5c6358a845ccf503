// What of better-sqlite3 the pin store uses (the package ships no types): shared by its tool and server tables.

export interface Statement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

export interface Database {
  exec(source: string): void;
  prepare(source: string): Statement;
  transaction<T>(run: () => T): () => T;
  close(): void;
  readonly open: boolean;
}
