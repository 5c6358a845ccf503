// One GitHub REST call: the documented headers, the token from the environment (never logged), a time limit, a size
// limit, and every failure turned into a ToolError from which the token has been scrubbed.

import { ToolError } from '../../server/index.js';
import { apiError, type CallContext } from './api-errors.js';
import type { GithubConfig } from './config.js';

/** Enough for 100 issues with long bodies; more means something is wrong. */
export const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
const API_VERSION = '2022-11-28';
/** Visible ASCII only: anything else could not travel in a header (and the error would quote the token). */
const TOKEN = /^[\x21-\x7e]{1,4096}$/;

export interface ApiCall {
  method: 'GET' | 'POST';
  /** Path under baseUrl, its parts already encoded: /repos/OWNER/REPO/issues. */
  path: string;
  query?: Readonly<Record<string, string>>;
  body?: unknown;
  signal: AbortSignal;
}

export interface ApiAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** The token from the configured environment variable, read now (so a rotated token is used without a restart). */
export function readToken(config: GithubConfig): string | undefined {
  const token = process.env[config.tokenEnv]?.trim();
  if (token === undefined || token === '') return undefined;
  if (!TOKEN.test(token)) {
    throw new ToolError(
      `The environment variable ${config.tokenEnv} does not hold a usable token (it contains spaces or control characters)`,
    );
  }
  return token;
}

const redact = (text: string, token: string | undefined): string =>
  token === undefined ? text : text.replaceAll(token, '[redacted]');

/** Runs `work` so that no error leaving it mentions the token, whatever produced the error. */
export async function withoutToken<T>(token: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ToolError) throw new ToolError(redact(error.message, token));
    if (error instanceof Error && token !== undefined) {
      const clean = new Error(redact(error.message, token));
      clean.stack = redact(error.stack ?? '', token);
      throw clean;
    }
    throw error;
  }
}

async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new ToolError(
        `GitHub's answer is larger than ${MAX_RESPONSE_BYTES} bytes; ask for fewer items (perPage)`,
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const failureCode = (error: unknown): string => {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string'
    ? cause.code
    : error instanceof Error
      ? error.message
      : String(error);
};

/** Sends the call; a 2xx answer with a JSON body is returned, anything else is a ToolError that says what to do. */
export async function callGithub(
  config: GithubConfig,
  call: ApiCall,
  token: string | undefined,
  context: CallContext,
): Promise<ApiAnswer> {
  const url = new URL(`${config.baseUrl}${call.path}`);
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = {
    accept: 'application/vnd.github+json',
    'x-github-api-version': API_VERSION,
    'user-agent': config.userAgent,
  };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const timeout = AbortSignal.timeout(config.timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: call.method,
      headers,
      ...(call.body !== undefined && { body: JSON.stringify(call.body) }),
      signal: AbortSignal.any([call.signal, timeout]),
      redirect: 'follow', // fetch drops Authorization when a redirect leaves the origin
    });
    text = await readCapped(response);
  } catch (error) {
    if (call.signal.aborted || error instanceof ToolError) throw error;
    if (timeout.aborted)
      throw new ToolError(`GitHub did not answer within ${config.timeoutMs} ms; try again later`);
    throw new ToolError(
      `Could not reach GitHub at ${config.baseUrl} (${failureCode(error)}); check the network and the github pack's baseUrl`,
    );
  }
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (!response.ok) throw apiError(response.status, response.headers, body, context);
  if (body === undefined) {
    throw new ToolError(
      `GitHub answered ${response.status} without a JSON body; check the github pack's baseUrl (${config.baseUrl})`,
    );
  }
  return { status: response.status, headers: response.headers, body };
}
