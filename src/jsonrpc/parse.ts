// Bounded JSON decoding: a nesting limit checked before JSON.parse, and a parse error that is a wire error.

import { ErrorCode } from './codes.js';
import { RpcError } from './rpc-error.js';

/** Default limit on how deeply objects and arrays may nest in one incoming message. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/**
 * Returns the deepest nesting of objects and arrays in a JSON text, stopping early once `limit` is passed.
 * Brackets inside strings are skipped, escapes included. Works on the text, so it costs no parse.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  // Nesting deeper than `limit` needs more than `limit` opening brackets: most messages have a handful, counted with
  // indexOf (vectorised) instead of a loop over every character.
  if (openingBracketsAtMost(text, limit)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return false;
}

/** True when `text` holds at most `limit` opening brackets, inside strings or not. */
function openingBracketsAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1))
    if (++count > limit) return false;
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1))
    if (++count > limit) return false;
  return true;
}

/** Parses one JSON text; throws RpcError -32700 (parse error) or -32600 (too deeply nested). */
export function parseJson(text: string, maxDepth: number = DEFAULT_MAX_JSON_DEPTH): unknown {
  if (jsonDepthExceeds(text, maxDepth)) {
    throw new RpcError(
      ErrorCode.InvalidRequest,
      `Invalid Request: JSON nesting is deeper than ${maxDepth} levels`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RpcError(ErrorCode.ParseError, 'Parse error: the message is not valid JSON');
  }
}
