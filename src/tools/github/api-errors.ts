// GitHub API failures turned into messages that say what happened and what to do about it.

import { ToolError } from '../../server/index.js';

export interface CallContext {
  owner: string;
  repo: string;
  tokenEnv: string;
  hasToken: boolean;
  /** What the call needs from a token, e.g. 'the "Issues: write" permission'. */
  needs: string;
}

interface ErrorBody {
  message?: unknown;
  errors?: unknown;
}

const MAX_QUOTED = 300;

const quoted = (value: unknown): string => {
  const text = typeof value === 'string' ? value.trim() : '';
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
};

/** GitHub's validation errors, each as "field: code" or its own message. */
function validationDetails(errors: unknown): string[] {
  if (!Array.isArray(errors)) return [];
  return errors.slice(0, 10).map((error: unknown) => {
    if (typeof error === 'string') return quoted(error);
    const { message, field, code } = (error ?? {}) as Record<string, unknown>;
    if (typeof message === 'string' && message !== '') return quoted(message);
    return [field, code].filter((part) => typeof part === 'string').join(': ') || 'invalid';
  });
}

function rateLimited(headers: Headers, context: CallContext): ToolError {
  const reset = Number(headers.get('x-ratelimit-reset'));
  const limit = headers.get('x-ratelimit-limit');
  const when = Number.isSafeInteger(reset) && reset > 0 ? new Date(reset * 1000).toISOString() : undefined;
  return new ToolError(
    `GitHub API rate limit exceeded${limit === null ? '' : ` (${limit} requests per hour)`}; ` +
      (when === undefined ? 'it resets within the hour' : `it resets at ${when}`) +
      (context.hasToken
        ? '. Try again after that'
        : `. Try again after that, or set ${context.tokenEnv} to a token for a higher limit`),
  );
}

/** The ToolError for a non-2xx answer. */
export function apiError(status: number, headers: Headers, body: unknown, context: CallContext): ToolError {
  const { owner, repo, tokenEnv, hasToken } = context;
  const { message, errors } = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
  const said = quoted(message);
  const saying = said === '' ? '' : ` ${said}`;
  if (status === 401) {
    return new ToolError(
      hasToken
        ? `GitHub rejected the token in the environment variable ${tokenEnv} (401${saying}): it is invalid, expired or revoked; set ${tokenEnv} to a valid token`
        : `GitHub requires authentication for this request (401${saying}): set the environment variable ${tokenEnv} to a GitHub token`,
    );
  }
  if ((status === 403 || status === 429) && headers.get('x-ratelimit-remaining') === '0') {
    return rateLimited(headers, context);
  }
  if (status === 429 || (status === 403 && headers.get('retry-after') !== null)) {
    const wait = headers.get('retry-after') ?? '60';
    return new ToolError(
      `GitHub's secondary rate limit was hit (${status}); wait ${wait} seconds before trying again`,
    );
  }
  if (status === 403) {
    return new ToolError(
      `GitHub refused access to ${owner}/${repo} (403${saying}): ` +
        (hasToken
          ? `the token in ${tokenEnv} lacks ${context.needs} on this repository`
          : `set the environment variable ${tokenEnv} to a token with ${context.needs}`),
    );
  }
  if (status === 404) {
    return new ToolError(
      hasToken
        ? `Repository ${owner}/${repo} was not found, or the token in ${tokenEnv} has no access to it (404). Check the owner and repo names`
        : `Repository ${owner}/${repo} was not found (404). Check the owner and repo names; if it is private, set the environment variable ${tokenEnv} to a token with access to it`,
    );
  }
  if (status === 410) return new ToolError(`Issues are disabled for ${owner}/${repo} (410)`);
  if (status === 422) {
    const details = validationDetails(errors);
    return new ToolError(
      `GitHub rejected the request (422${saying})` +
        (details.length === 0 ? '' : `: ${details.join('; ')}`) +
        '. Fix the arguments and try again',
    );
  }
  if (status >= 500) {
    return new ToolError(`GitHub had a server error (${status}${saying}); try again in a few minutes`);
  }
  return new ToolError(`GitHub answered with status ${status}${said === '' ? '' : `: ${said}`}`);
}
