// Opaque, stable cursors for list pagination.

import { ErrorCode, RpcError } from '../jsonrpc/index.js';

const CURSOR = /^p([0-9]{1,9})$/;

export const encodeCursor = (offset: number): string => Buffer.from(`p${offset}`).toString('base64url');

/**
 * The offset a cursor stands for. Throws -32602 for anything we did not issue, or that no longer fits the
 * list (offset past its end or not on a page boundary).
 */
export function decodeCursor(cursor: unknown, pageSize: number, total: number): number {
  if (typeof cursor !== 'string' || cursor.length > 32) throw invalidCursor();
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (match === null || encodeCursor(Number(match[1])) !== cursor) throw invalidCursor();
  const offset = Number(match[1]);
  if (offset === 0 || offset > total || offset % pageSize !== 0) throw invalidCursor();
  return offset;
}

const invalidCursor = (): RpcError =>
  new RpcError(
    ErrorCode.InvalidParams,
    'Invalid params: invalid or expired cursor; list again without a cursor',
  );
