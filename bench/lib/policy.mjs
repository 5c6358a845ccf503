// The policy the "policy on" rows measure: a key pair made for this run, its public half handed to the toolwire
// server (JWT verification against it, per-tool scopes, a rate limit too high to refuse), and a token signed with
// the private half that wrk sends on every request.

import { SignJWT, exportJWK, generateKeyPair } from 'jose';

export const POLICY_ISSUER = 'https://auth.bench.invalid';
export const POLICY_RESOURCE = 'http://127.0.0.1/mcp';
export const POLICY_SCOPE = 'bench:call';

/** `{ env, authorization }`: the server's environment (its JWKS) and the header every request carries. */
export async function benchPolicy() {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256', use: 'sig' };
  const token = await new SignJWT({ scope: POLICY_SCOPE, client_id: 'toolwire-bench' })
    .setProtectedHeader({ alg: 'ES256', kid: 'bench', typ: 'at+jwt' })
    .setIssuer(POLICY_ISSUER)
    .setAudience(POLICY_RESOURCE)
    .setSubject('bench-user')
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey);
  return { env: { BENCH_POLICY_JWKS: JSON.stringify({ keys: [jwk] }) }, authorization: `Bearer ${token}` };
}

/** The options the toolwire server builds its policy from, given the JWKS in its environment. */
export function benchPolicyOptions(jwksText) {
  return {
    oauth: {
      resource: POLICY_RESOURCE,
      authorizationServers: [POLICY_ISSUER],
      jwks: JSON.parse(jwksText),
    },
    scopes: { rules: [{ tools: ['*'], see: [POLICY_SCOPE] }] },
    // Two buckets per call (per tool and in total), high enough never to refuse during a run.
    rateLimits: {
      perCall: { points: 1_000_000_000, durationSeconds: 60 },
      total: { points: 1_000_000_000, durationSeconds: 60 },
    },
  };
}
