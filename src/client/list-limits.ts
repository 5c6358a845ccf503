// The bounds every paginated list read by the client keeps (threat C6): pages read, a cursor never accepted twice
// (a server that loops is stopped at once, not after maxListPages), and entries kept.

import { ProtocolError } from './errors.js';

export const DEFAULT_MAX_LIST_PAGES = 100;
export const DEFAULT_MAX_LIST_ITEMS = 10_000;

/** A cursor as an error message shows it: quoted, and cut (it is the server's text, of any length). */
const quoted = (cursor: string): string =>
  JSON.stringify(cursor.length > 64 ? `${cursor.slice(0, 64)}...` : cursor);

/** One read of one list: call page() before each request and next() with each answer's nextCursor. */
export class ListBounds {
  readonly maxPages: number;
  readonly maxItems: number;
  #pages = 0;
  readonly #cursors = new Set<string>();

  constructor(
    readonly method: string,
    options: { maxListPages?: number; maxListItems?: number },
  ) {
    this.maxPages = options.maxListPages ?? DEFAULT_MAX_LIST_PAGES;
    this.maxItems = options.maxListItems ?? DEFAULT_MAX_LIST_ITEMS;
  }

  /** Before each request: throws once maxPages were read. */
  page(): void {
    if (++this.#pages > this.maxPages) {
      throw new ProtocolError(
        `${this.method} did not end after ${this.maxPages} pages (raise maxListPages if the server is that large)`,
      );
    }
  }

  /** The cursor of the next page, or undefined at the end; throws when the server hands back a cursor it gave before. */
  next(nextCursor: unknown): string | undefined {
    if (typeof nextCursor !== 'string') return undefined;
    if (this.#cursors.has(nextCursor))
      throw new ProtocolError(`${this.method} repeated the cursor ${quoted(nextCursor)}`);
    this.#cursors.add(nextCursor);
    return nextCursor;
  }

  /** The warning for a list cut at maxItems. */
  truncated(): string {
    return (
      `${this.method} has more than ${this.maxItems} entries: kept the first ${this.maxItems} and stopped reading ` +
      '(raise maxListItems if the server is that large)'
    );
  }
}
