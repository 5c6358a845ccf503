// The OAuth side of the conformance client: for auth/* scenarios, a fetch that authorizes the way each scenario
// expects (the suite's mock authorization server redirects at once, so the "browser" is one GET, not followed).

import { OAuthClient, enterpriseAssertion, type OAuthClientOptions } from '../src/client/index.js';

/** The suite's fixed Client ID Metadata Document URL (basic-cimd): any https URL with a path would do. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const REDIRECT_URI = 'http://localhost:3000/callback';

interface AuthContext {
  client_id?: string;
  client_secret?: string;
  private_key_pem?: string;
  signing_algorithm?: string;
  idp_client_id?: string;
  idp_id_token?: string;
  idp_token_endpoint?: string;
  valid_jwt?: string;
}

/** The authorization endpoint of the mock approves at once with a redirect; its Location is the callback. */
async function followAuthorization({ url }: { url: URL }): Promise<string> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.body?.cancel().catch(() => undefined);
  const location = response.headers.get('location');
  if (location === null)
    throw new Error(`the authorization endpoint answered HTTP ${response.status} without a redirect`);
  return location;
}

/** A fetch with OAuth for `scenario`, or undefined when the scenario needs none. */
export function authFetch(
  scenario: string,
  serverUrl: string,
  context: AuthContext,
  base: typeof fetch,
): typeof fetch | undefined {
  if (!scenario.startsWith('auth/')) return undefined;
  const options: OAuthClientOptions = {
    serverUrl,
    fetch: base,
    redirectUri: REDIRECT_URI,
    authorize: followAuthorization,
    clientMetadataUrl: CLIENT_METADATA_URL,
    clientName: 'toolwire-conformance-client',
  };
  if (scenario === 'auth/pre-registration' && context.client_id !== undefined) {
    options.client = {
      clientId: context.client_id,
      ...(context.client_secret !== undefined && { clientSecret: context.client_secret }),
    };
  }
  if (scenario === 'auth/client-credentials-basic' || scenario === 'auth/client-credentials-jwt') {
    options.grant = 'client_credentials';
    options.client = {
      clientId: context.client_id ?? '',
      ...(context.client_secret !== undefined && { clientSecret: context.client_secret }),
      ...(context.private_key_pem !== undefined && { privateKey: context.private_key_pem }),
      ...(context.signing_algorithm !== undefined && { algorithm: context.signing_algorithm }),
    };
  }
  if (scenario === 'auth/enterprise-managed-authorization' || scenario === 'auth/wif-jwt-bearer') {
    options.grant = 'jwt-bearer';
    options.client = {
      clientId: context.client_id ?? '',
      ...(context.client_secret !== undefined && { clientSecret: context.client_secret }),
    };
    const {
      idp_token_endpoint: idpTokenEndpoint,
      idp_id_token: idToken,
      idp_client_id: idpClientId,
    } = context;
    options.assertion =
      idpTokenEndpoint !== undefined && idToken !== undefined && idpClientId !== undefined
        ? enterpriseAssertion({ idpTokenEndpoint, idToken, idpClientId, fetch: base })
        : () => context.valid_jwt ?? '';
  }
  return new OAuthClient(options).fetch;
}
