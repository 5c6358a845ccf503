// Keeps better-sqlite3's objects alive for the life of the process. better-sqlite3 12 on Node 24 aborts the process
// (`RemoveEnvironmentCleanupHook: Assertion (env) != nullptr`) when the garbage collector destroys a Statement; it
// happened in a running gateway (its pin store's statements) and in `toolwire audit --follow`. So no statement and
// no database is ever garbage here: each database keeps one statement per distinct SQL text (so a query made again
// reuses its statement instead of making a new one), and databases are kept once opened. They are closed explicitly
// and destroyed at exit, while Node's environment is alive. The cost is bounded: a few dozen small objects per
// database a process opens (the server and the CLI open one or two).

interface Preparing<S> {
  prepare(source: string): S;
}

const kept: object[] = [];

/**
 * Makes `db.prepare` answer one kept statement per SQL text and keeps `db` itself. Setting pragmas must go through
 * `db.exec("PRAGMA …")` and reading them through `db.prepare`: better-sqlite3's own `pragma()` makes a statement of
 * its own that this cannot keep.
 */
export function keepStatements<D extends Preparing<S>, S extends object>(db: D): D {
  const prepare = db.prepare.bind(db);
  const statements = new Map<string, S>();
  db.prepare = (source: string): S => {
    let statement = statements.get(source);
    if (statement === undefined) {
      statement = prepare(source);
      statements.set(source, statement);
    }
    return statement;
  };
  kept.push(db, statements);
  return db;
}
