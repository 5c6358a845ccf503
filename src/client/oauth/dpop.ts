// DPoP (RFC 9449): one key pair per client, a fresh signed proof for every request, and the nonces servers hand out.

import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';

/** The only algorithm we sign with: the one RFC 9449 examples and every DPoP server support. */
export const DPOP_ALGORITHM = 'ES256';

export class DpopKey {
  readonly #pair: Promise<{ privateKey: CryptoKey; jwk: JWK }>;
  /** The last nonce each server (by origin) gave; a few servers at most, so the map stays tiny. */
  readonly #nonces = new Map<string, string>();

  readonly #privateJwk: Promise<JWK>;

  /** A new key pair, or the one a stored DPoP-bound token is bound to (its private JWK). */
  constructor(stored?: JWK) {
    // importJWK answers CryptoKey | Uint8Array; an EC JWK always gives a CryptoKey.
    const pair =
      stored === undefined
        ? generateKeyPair(DPOP_ALGORITHM, { extractable: true })
        : (importJWK(stored, DPOP_ALGORITHM, { extractable: true }) as Promise<CryptoKey>).then(
            (privateKey) => ({
              privateKey,
            }),
          );
    this.#privateJwk = pair.then(({ privateKey }) => exportJWK(privateKey));
    this.#pair = this.#privateJwk.then(async (full) => {
      const { kty, crv, x, y } = full;
      const privateKey = (await pair).privateKey;
      return { privateKey, jwk: { kty, crv, x, y } as JWK }; // the public half of an EC key
    });
  }

  /** The private key as a JWK, to keep beside the token bound to it (in the 0600 token file). */
  exportPrivate(): Promise<JWK> {
    return this.#privateJwk;
  }

  /** A proof for one request: htm and htu (without query and fragment), ath when presenting a token. */
  async proof(method: string, url: string, nonce?: string, accessToken?: string): Promise<string> {
    const { privateKey, jwk } = await this.#pair;
    const target = new URL(url);
    target.search = '';
    target.hash = '';
    const useNonce = nonce ?? this.#nonces.get(target.origin);
    return new SignJWT({
      htm: method,
      htu: target.href,
      ...(useNonce !== undefined && { nonce: useNonce }),
      ...(accessToken !== undefined && {
        ath: createHash('sha256').update(accessToken).digest('base64url'),
      }),
    })
      .setProtectedHeader({ alg: DPOP_ALGORITHM, typ: 'dpop+jwt', jwk })
      .setIssuedAt()
      .setJti(randomUUID())
      .sign(privateKey);
  }

  /** Remembers a server's nonce (RFC 9449 §8, §9) for the next proof to it; nonces are short visible ASCII. */
  rememberNonce(url: string, nonce: string | null): boolean {
    if (nonce === null || nonce.length > 512 || !/^[\x21-\x7e]+$/.test(nonce)) return false;
    const { origin } = new URL(url);
    if (!this.#nonces.has(origin) && this.#nonces.size >= 16) this.#nonces.clear();
    this.#nonces.set(origin, nonce);
    return true;
  }
}
