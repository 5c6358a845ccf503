// SHA-256 of a text, as the hot paths take it (a token's cache key, an arguments digest, an audit record's hash):
// crypto.hash (Node 20.12 and later) makes no Hash object, about half the cost of createHash for short texts; older
// Node versions take the createHash path.

import * as crypto from 'node:crypto';

type Encoding = 'hex' | 'base64url';

const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: Encoding) => string }).hash;

/** SHA-256 of the UTF-8 of `text`, in `encoding`. */
export const sha256: (text: string, encoding: Encoding) => string =
  oneShot === undefined
    ? (text, encoding) => crypto.createHash('sha256').update(text).digest(encoding)
    : (text, encoding) => oneShot('sha256', text, encoding);
