// The http_request tool: one request to a public host, redirects followed by hand with every hop checked again.

import type { LookupAddress } from 'node:dns';
import { ToolError, defineTool, type ToolConfig, type ToolContext } from '../../server/index.js';
import type { PackEnvironment } from '../pack.js';
import { AllowHosts } from './address-policy.js';
import type { HttpConfig, HttpMethod } from './config.js';
import { DestinationRefused, checkDestination, systemResolver, type Resolver } from './destination.js';
import {
  MAX_BODY_BYTES,
  MAX_HEADERS,
  MAX_HEADER_VALUE,
  MAX_URL_LENGTH,
  checkHeaders,
  checkScheme,
  encodeBody,
  parseUrl,
  shownUrl,
} from './request-input.js';
import { describeResponse, responseOutputSchema } from './response-content.js';
import { sendOnce } from './send-once.js';

export const HTTP_REQUEST = 'http_request';
export const DEFAULT_TIMEOUT_MS = 15_000;
export const MAX_TIMEOUT_MS = 60_000;
const USER_AGENT = 'toolwire-http_request';
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const ADVICE =
  'http_request only reaches public internet hosts; an operator can allow this one with the http pack\'s "allowHosts" setting.';
/** Request headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'] as const;

export interface HttpToolOptions {
  /** Name resolution (tests replace it); default: the system resolver. */
  resolve?: Resolver;
}

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

/** Settles like `promise`, or rejects with the signal's reason as soon as it aborts (DNS lookups cannot be aborted). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The request for the next hop: 303 (and 301/302 after a POST) become GET; credentials stay with their origin. */
function nextHop(hop: Hop, status: number, url: URL): Hop {
  const toGet = status === 303 || ((status === 301 || status === 302) && hop.method === 'POST');
  const headers = { ...hop.headers };
  if (toGet) delete headers['content-type'];
  if (url.origin !== hop.url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  return {
    url,
    method: toGet && hop.method !== 'HEAD' ? 'GET' : hop.method,
    headers,
    body: toGet ? undefined : hop.body,
  };
}

export function createHttpRequestTool(
  config: HttpConfig,
  environment: PackEnvironment,
  options: HttpToolOptions = {},
): ToolConfig {
  const allow = AllowHosts.from(config.allowHosts);
  const resolve = options.resolve ?? systemResolver;
  const readOnly = config.methods.every((method) => method === 'GET' || method === 'HEAD');
  const defaultMethod: HttpMethod = config.methods.includes('GET') ? 'GET' : (config.methods[0] ?? 'GET');

  async function run(first: Hop, signal: AbortSignal, ctx: ToolContext) {
    const redirects: string[] = [];
    let hop = first;
    for (;;) {
      const refused =
        redirects.length === 0
          ? `Refused ${shownUrl(hop.url)}`
          : `Refused the redirect from ${redirects.at(-1) ?? ''} to ${shownUrl(hop.url)}`;
      checkScheme(hop.url, refused);
      let addresses: LookupAddress[];
      try {
        addresses = await untilAborted(checkDestination(hop.url, allow, resolve), signal);
      } catch (error) {
        if (error instanceof DestinationRefused)
          throw new ToolError(`${refused}: ${error.message}. ${ADVICE}`);
        throw error;
      }
      const received = await sendOnce({
        ...hop,
        addresses,
        signal,
        maxBytes: config.maxResponseBytes,
        onBytes: (bytes, expected) => ctx.progress(bytes, expected, `${bytes} bytes received`),
      });
      const location = received.headers.location;
      if (!REDIRECT_STATUSES.has(received.status) || location === undefined || config.maxRedirects === 0) {
        return describeResponse({
          ...received,
          url: shownUrl(hop.url),
          method: hop.method,
          redirects,
          maxBytes: config.maxResponseBytes,
        });
      }
      if (redirects.length === config.maxRedirects) {
        throw new ToolError(
          `Stopped after ${config.maxRedirects} redirects: ${shownUrl(hop.url)} redirects again (to ${location}); request the final URL directly`,
        );
      }
      if (!URL.canParse(location, hop.url.href)) {
        throw new ToolError(`${shownUrl(hop.url)} redirects to "${location}", which is not a valid URL`);
      }
      redirects.push(shownUrl(hop.url));
      hop = nextHop(hop, received.status, new URL(location, hop.url));
    }
  }

  return defineTool({
    name: HTTP_REQUEST,
    title: 'HTTP request',
    description:
      'Sends one HTTP request to a public internet host and returns the response: JSON and text as text (JSON also ' +
      'parsed in structuredContent.json), images as images, other binary bodies described. Redirects are followed ' +
      `(at most ${config.maxRedirects}); loopback, private, link-local and cloud metadata addresses are refused; ` +
      `bodies over ${config.maxResponseBytes} bytes are cut short. Allowed methods: ${config.methods.join(', ')}. ` +
      'Example: {"method": "GET", "url": "https://api.github.com/repos/nodejs/node", "headers": {"Accept": "application/json"}}.',
    inputSchema: {
      type: 'object',
      properties: {
        method: {
          type: 'string',
          enum: [...config.methods],
          default: defaultMethod,
          description: `HTTP method (default ${defaultMethod})`,
        },
        url: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_URL_LENGTH,
          description: 'Absolute http: or https: URL, e.g. "https://example.com/data.json"',
        },
        headers: {
          type: 'object',
          maxProperties: MAX_HEADERS,
          additionalProperties: { type: 'string', maxLength: MAX_HEADER_VALUE },
          description:
            'Request headers by name, e.g. {"Accept": "application/json"}. Host, Content-Length, Connection, ' +
            'Transfer-Encoding, Accept-Encoding and other hop-by-hop headers are set by the tool and refused here.',
        },
        body: {
          type: 'string',
          maxLength: MAX_BODY_BYTES,
          description: `Request body (UTF-8, at most ${MAX_BODY_BYTES} bytes); not allowed with GET or HEAD`,
        },
        timeoutMs: {
          type: 'integer',
          minimum: 100,
          maximum: MAX_TIMEOUT_MS,
          default: DEFAULT_TIMEOUT_MS,
          description: 'Time limit for the whole exchange, redirects included, in milliseconds',
        },
      },
      required: ['url'],
      additionalProperties: false,
    },
    outputSchema: responseOutputSchema,
    annotations: {
      readOnlyHint: readOnly,
      destructiveHint: !readOnly,
      idempotentHint: readOnly,
      openWorldHint: true,
    },
    // Above the longest timeoutMs, so the tool's own timeout answers first (with what it knows).
    timeoutMs: environment.timeouts[HTTP_REQUEST] ?? MAX_TIMEOUT_MS + 5_000,
    handler: async (args, ctx) => {
      // Types and ranges were checked against the inputSchema above.
      const method = (args.method as HttpMethod | undefined) ?? defaultMethod;
      const timeoutMs = (args.timeoutMs as number | undefined) ?? DEFAULT_TIMEOUT_MS;
      const headers = checkHeaders(args.headers as Record<string, string> | undefined);
      headers['user-agent'] ??= USER_AGENT;
      const body = encodeBody(args.body as string | undefined, method);
      const url = parseUrl(args.url as string);
      const timeout = AbortSignal.timeout(timeoutMs);
      try {
        return await run({ url, method, headers, body }, AbortSignal.any([ctx.signal, timeout]), ctx);
      } catch (error) {
        if (timeout.aborted && !ctx.signal.aborted) {
          throw new ToolError(
            `No complete response from ${shownUrl(url)} within ${timeoutMs} ms; try again later or raise timeoutMs (at most ${MAX_TIMEOUT_MS})`,
          );
        }
        throw error;
      }
    },
  }) as unknown as ToolConfig; // erase the argument types for the pack's list
}
