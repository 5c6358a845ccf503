// The approvals admin endpoint, a node:http request listener apart from the MCP endpoint: a JSON API (list, show,
// approve, deny) and the approval page, both for approvers the authenticate hook establishes (API key or bearer)
// holding the decide scope; an approver may not decide its own call unless policy allows it (G1).

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from '../../protocol/index.js';
import type { HttpAuthenticate } from '../../transports/http/index.js';
import { HTML_HEADERS, authenticateApprover, readBody, requestInfo, send, sendJson } from './admin-http.js';
import type { Approvals } from './approvals.js';
import { APPROVAL_ID } from './engine.js';
import { ApprovalDecisionError } from './errors.js';
import { approvalPage, checkFormToken, formToken, listPage, messagePage } from './page.js';
import type { ApprovalStatus } from './store.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from './webhook.js';

export interface ApprovalsAdminOptions {
  /** Who the approver is: the same hook the MCP endpoint uses (API keys, bearer tokens). */
  authenticate: HttpAuthenticate;
  /** Where the page and the API live; approvalUrl should be this endpoint's origin plus basePath. Default "/approvals". */
  basePath?: string;
  /** HMAC key of the page's form tokens (≥ 32 bytes); random per process when not given. */
  formKey?: string | Uint8Array;
  /** The clock of the form tokens (ms since the epoch), for tests. */
  now?: () => number;
}

const STATUSES: readonly string[] = ['pending', 'approved', 'denied', 'expired', 'redeemed'];

type Kind = 'json' | 'html';

/** The host of an Origin header ("null" and anything unparsable have none, so they never match). */
function originHost(origin: string): string | undefined {
  try {
    return origin === 'null' ? undefined : new URL(origin).host;
  } catch {
    return undefined;
  }
}

function fail(
  response: ServerResponse,
  kind: Kind,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (kind === 'json') sendJson(response, status, { error: message }, headers);
  else
    send(
      response,
      status,
      { ...HTML_HEADERS, ...headers },
      messagePage(status >= 500 ? 'Unavailable' : 'Refused', message),
    );
}

/** A node:http request listener serving the approvals admin endpoint. */
export function approvalsAdmin(
  policy: Approvals,
  options: ApprovalsAdminOptions,
): (request: IncomingMessage, response: ServerResponse) => void {
  if (typeof options?.authenticate !== 'function') {
    throw new TypeError('approvalsAdmin: authenticate must be a function (request) => Caller | challenge');
  }
  const base = (options.basePath ?? '/approvals').replace(/\/+$/, '');
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(base))
    throw new TypeError('approvalsAdmin: basePath must be a path like "/approvals"');
  const key = options.formKey === undefined ? randomBytes(32) : Buffer.from(options.formKey);
  if (key.length < 32) throw new TypeError('approvalsAdmin: formKey must be at least 32 bytes');
  const now = options.now ?? Date.now;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const info = requestInfo(request);
    const rest =
      info.path === base
        ? ''
        : info.path.startsWith(`${base}/`)
          ? info.path.slice(base.length + 1)
          : undefined;
    const kind: Kind = rest === 'api' || rest?.startsWith('api/') === true ? 'json' : 'html';
    if (rest === undefined) return fail(response, kind, 404, 'not found');
    if (rest === 'webhook')
      return webhook(
        request,
        response,
        info.method,
        info.header(TIMESTAMP_HEADER),
        info.header(SIGNATURE_HEADER),
      );
    const approver = await authenticateApprover(options.authenticate, info);
    if (approver === 'failed')
      return fail(response, kind, 503, 'the approver could not be authenticated now');
    if (!('subject' in approver)) {
      return fail(response, kind, approver.status, approver.message ?? 'authentication required', {
        ...approver.headers,
      });
    }
    if (info.method === 'POST') {
      const origin = info.header('origin');
      if (origin !== undefined && originHost(origin) !== info.header('host')) {
        return fail(response, kind, 403, 'cross-origin requests are refused');
      }
    }
    const parts = rest === '' ? [] : rest.split('/');
    if (kind === 'json')
      return api(
        request,
        response,
        approver,
        info.method,
        parts.slice(1),
        info.query('status'),
        info.query('limit'),
      );
    return page(request, response, approver, info.method, parts);
  }

  /** Signed decisions from chat-ops: the signature authenticates, not the hook. */
  async function webhook(
    request: IncomingMessage,
    response: ServerResponse,
    method: string,
    timestamp: string | undefined,
    signature: string | undefined,
  ): Promise<void> {
    if (method !== 'POST') return fail(response, 'json', 405, 'use POST', { allow: 'POST' });
    const body = await readBody(request, 'application/json');
    if (body === 413) return fail(response, 'json', 413, 'the body is too large');
    if (body === 415) return fail(response, 'json', 415, 'send application/json');
    return sendJson(response, 200, { approval: await policy.fromWebhook(timestamp, signature, body) });
  }

  async function api(
    request: IncomingMessage,
    response: ServerResponse,
    approver: Caller,
    method: string,
    parts: string[],
    status: string | undefined,
    limit: string | undefined,
  ): Promise<void> {
    const [id, verb, extra] = parts;
    if (id === undefined) {
      if (method !== 'GET') return fail(response, 'json', 405, 'use GET', { allow: 'GET' });
      if (status !== undefined && !STATUSES.includes(status)) {
        return fail(response, 'json', 400, `status must be one of ${STATUSES.join(', ')}`);
      }
      if (limit !== undefined && !/^[1-9][0-9]{0,3}$/.test(limit))
        return fail(response, 'json', 400, 'limit must be 1-1000');
      const filter = {
        ...(status !== undefined && { status: status as ApprovalStatus }),
        ...(limit !== undefined && { limit: Number(limit) }),
      };
      return sendJson(response, 200, { approvals: await policy.list(approver, filter) });
    }
    if (!APPROVAL_ID.test(id) || extra !== undefined) return fail(response, 'json', 404, 'not found');
    if (verb === undefined) {
      if (method !== 'GET') return fail(response, 'json', 405, 'use GET', { allow: 'GET' });
      return sendJson(response, 200, { approval: await policy.get(approver, id) });
    }
    if (verb !== 'approve' && verb !== 'deny') return fail(response, 'json', 404, 'not found');
    if (method !== 'POST') return fail(response, 'json', 405, 'use POST', { allow: 'POST' });
    // JSON only: a cross-site form cannot send it without a preflight this endpoint never allows.
    const body = await readBody(request, 'application/json');
    if (body === 413) return fail(response, 'json', 413, 'the body is too large');
    if (body === 415) return fail(response, 'json', 415, 'send application/json');
    let parsed: unknown = {};
    if (body.trim() !== '') {
      try {
        parsed = JSON.parse(body);
      } catch {
        return fail(response, 'json', 400, 'the body is not JSON');
      }
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return fail(response, 'json', 400, 'the body must be an object like {"reason": "…"}');
    }
    const reason = (parsed as { reason?: unknown }).reason as string | undefined; // checked by the engine
    const decided =
      verb === 'approve'
        ? await policy.approve(approver, id, reason)
        : await policy.deny(approver, id, reason);
    return sendJson(response, 200, { approval: decided });
  }

  async function page(
    request: IncomingMessage,
    response: ServerResponse,
    approver: Caller,
    method: string,
    parts: string[],
  ): Promise<void> {
    const [id, extra] = parts;
    if (id === undefined) {
      if (method !== 'GET') return fail(response, 'html', 405, 'use GET', { allow: 'GET' });
      return send(
        response,
        200,
        HTML_HEADERS,
        listPage(await policy.list(approver, { status: 'pending' }), base),
      );
    }
    if (!APPROVAL_ID.test(id) || extra !== undefined) return fail(response, 'html', 404, 'not found');
    const action = `${base}/${id}`;
    if (method === 'GET') {
      const approval = await policy.get(approver, id);
      return send(
        response,
        200,
        HTML_HEADERS,
        approvalPage(approval, formToken(key, approver, id, now()), action),
      );
    }
    if (method !== 'POST') return fail(response, 'html', 405, 'use GET or POST', { allow: 'GET, POST' });
    const body = await readBody(request, 'application/x-www-form-urlencoded');
    if (body === 413) return fail(response, 'html', 413, 'the form is too large');
    if (body === 415)
      return fail(response, 'html', 415, 'send the form as application/x-www-form-urlencoded');
    const form = new URLSearchParams(body);
    if (!checkFormToken(key, approver, id, form.get('token'), now())) {
      return fail(
        response,
        'html',
        403,
        'the form has expired or was not issued to you; open the approval page again',
      );
    }
    const decision = form.get('decision');
    if (decision !== 'approve' && decision !== 'deny')
      return fail(response, 'html', 400, 'decision must be approve or deny');
    const reason = form.get('reason') ?? undefined;
    const decided =
      decision === 'approve'
        ? await policy.approve(approver, id, reason)
        : await policy.deny(approver, id, reason);
    const notice = decided.status === 'approved' ? 'Approved: the caller may now retry the call.' : 'Denied.';
    return send(response, 200, HTML_HEADERS, approvalPage(decided, '', action, notice));
  }

  return (request, response) => {
    handle(request, response).catch((error: unknown) => {
      const url = request.url ?? '';
      const kind: Kind = url.startsWith(`${base}/api`) || url.startsWith(`${base}/webhook`) ? 'json' : 'html';
      if (error instanceof ApprovalDecisionError) fail(response, kind, error.status, error.message);
      else fail(response, kind, 500, 'internal error');
    });
  };
}
