// An upstream's own credentials, built at start from the configuration and the gateway's environment: headers with
// ${ENV} expanded (a missing variable is an error naming it, never an empty header), a header credential, or OAuth
// client credentials through the client library. Nothing here ever sees the inbound caller's credentials (B1).

import { OAuthClient } from '../../client/index.js';
import type { UpstreamConfig } from './config.js';
import { UpstreamConfigError } from './errors.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** What the HTTP transport of one upstream is given. */
export interface UpstreamAuth {
  headers: Record<string, string>;
  fetch?: typeof fetch;
}

const REFERENCE = /\$\{([^}]*)\}/g;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Expands every ${NAME} in `value`; `where` names the setting in the error ("header X-Api-Key"). */
export function expandEnv(upstream: string, where: string, value: string, env: Environment): string {
  return value.replace(REFERENCE, (_whole, name: string) => {
    if (!VARIABLE.test(name))
      throw new UpstreamConfigError(
        upstream,
        'bad-config',
        `${where}: \${${name}} is not a variable reference`,
      );
    const found = env[name];
    if (found === undefined || found === '')
      throw new UpstreamConfigError(
        upstream,
        'missing-env',
        `${where} needs the environment variable ${name}, which is not set`,
      );
    return found;
  });
}

function secretFrom(upstream: string, where: string, name: string, env: Environment): string {
  if (!VARIABLE.test(name))
    throw new UpstreamConfigError(
      upstream,
      'bad-config',
      `${where}: ${JSON.stringify(name)} is not a variable name`,
    );
  const value = env[name];
  if (value === undefined || value === '')
    throw new UpstreamConfigError(
      upstream,
      'missing-env',
      `${where} needs the environment variable ${name}, which is not set`,
    );
  return value;
}

/**
 * The headers (and, for OAuth, the fetch) of an HTTP upstream. Header names and values are checked here, at start,
 * so that a bad one is a startup error instead of a failure on the first request. The secret values never appear in
 * an error message.
 */
export function upstreamAuth(
  config: UpstreamConfig,
  env: Environment,
  baseFetch?: typeof fetch,
): UpstreamAuth {
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  const add = (name: string, value: string, where: string): void => {
    try {
      new Headers([[name, value]]);
    } catch {
      throw new UpstreamConfigError(
        config.name,
        'bad-config',
        `${where} is not a valid HTTP header name or value`,
      );
    }
    const lower = name.toLowerCase();
    if (seen.has(lower))
      throw new UpstreamConfigError(config.name, 'bad-config', `header ${name} is given twice`);
    seen.add(lower);
    headers[name] = value;
  };
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    add(name, expandEnv(config.name, `header ${name}`, value, env), `header ${name}`);
  }
  const credentials = config.credentials;
  if (credentials?.kind === 'header') {
    const where = `credentials header ${credentials.name}`;
    add(credentials.name, secretFrom(config.name, where, credentials.env, env), where);
  }
  if (credentials?.kind !== 'client-credentials') return { headers };
  if (seen.has('authorization'))
    throw new UpstreamConfigError(
      config.name,
      'bad-config',
      'an Authorization header and client credentials exclude each other',
    );
  const oauth = new OAuthClient({
    serverUrl: config.url as string, // checkUpstreamConfig: credentials come only with a url
    grant: 'client_credentials',
    client: {
      clientId: credentials.clientId,
      clientSecret: secretFrom(config.name, 'credentials.clientSecretEnv', credentials.clientSecretEnv, env),
    },
    ...(credentials.scope !== undefined && { scopes: credentials.scope.split(' ').filter((s) => s !== '') }),
    ...(baseFetch !== undefined && { fetch: baseFetch }),
  });
  return { headers, fetch: oauth.fetch };
}
