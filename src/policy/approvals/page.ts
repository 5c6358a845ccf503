// The approval page: server-rendered HTML without scripts, every value escaped (tool names and arguments come from
// the caller), and forms carrying a token bound to the approver and the approval (CSRF) that expires.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Caller } from '../../protocol/index.js';
import { principalDigest } from '../../server/index.js';
import type { Approval } from './store.js';

/** How long a page's form token stays good. */
export const FORM_TOKEN_TTL_MS = 15 * 60_000;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made inert in HTML text and in quoted attributes. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

/** The form token for `approver` on approval `id`, issued at `now`. */
export function formToken(key: Buffer, approver: Caller, id: string, now: number): string {
  const issued = String(now);
  return `${issued}.${mac(key, approver, id, issued)}`;
}

function mac(key: Buffer, approver: Caller, id: string, issued: string): string {
  return createHmac('sha256', key)
    .update(`${principalDigest(approver)}\0${id}\0${issued}`)
    .digest('base64url');
}

/** Whether `token` was issued to this approver for this approval, and recently enough. */
export function checkFormToken(
  key: Buffer,
  approver: Caller,
  id: string,
  token: unknown,
  now: number,
): boolean {
  if (typeof token !== 'string' || token.length > 100) return false;
  const [issued, given, extra] = token.split('.');
  if (issued === undefined || given === undefined || extra !== undefined || !/^\d{1,16}$/.test(issued))
    return false;
  const at = Number(issued);
  if (at > now || now - at > FORM_TOKEN_TTL_MS) return false;
  const expected = Buffer.from(mac(key, approver, id, issued));
  const received = Buffer.from(given);
  return expected.length === received.length && timingSafeEqual(expected, received);
}

const when = (ms: number | undefined): string => (ms === undefined ? '' : new Date(ms).toISOString());

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title></head>
<body>
${body}
</body></html>
`;
}

/** One approval: what was asked, by whom, and (while pending) the approve and deny forms. */
export function approvalPage(approval: Approval, token: string, action: string, notice?: string): string {
  const rows: [string, string][] = [
    ['Approval', approval.id],
    ['Status', approval.status],
    ['Tool', approval.tool],
    ['Caller', `${approval.caller.subject} (${approval.caller.via})`],
    ['Asked at', when(approval.created)],
    ['Expires at', when(approval.expiresAt)],
    ['Policy version', approval.policyVersion],
    ['Rule', String(approval.rule)],
  ];
  if (approval.approver !== undefined)
    rows.push(['Decided by', approval.approver], ['Decided at', when(approval.decidedAt)]);
  if (approval.reason !== undefined) rows.push(['Reason', approval.reason]);
  const table = rows
    .map(([name, value]) => `<tr><th>${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`)
    .join('\n');
  const forms =
    approval.status !== 'pending'
      ? ''
      : `<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<label>Reason (optional) <input type="text" name="reason" maxlength="500"></label>
<button type="submit" name="decision" value="approve">Approve</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`;
  return layout(
    `Approval ${approval.id}`,
    `<h1>Tool call waiting for approval</h1>
${notice === undefined ? '' : `<p><strong>${escapeHtml(notice)}</strong></p>`}
<table>
${table}
</table>
<h2>Arguments</h2>
<pre>${escapeHtml(approval.argumentsPreview)}</pre>
${forms}`,
  );
}

/** The pending approvals, each linking to its page. */
export function listPage(approvals: readonly Approval[], base: string): string {
  const items = approvals
    .map(
      (approval) =>
        `<li><a href="${escapeHtml(`${base}/${approval.id}`)}">${escapeHtml(approval.tool)}</a> by ${escapeHtml(approval.caller.subject)}, ${escapeHtml(approval.status)}, asked ${escapeHtml(when(approval.created))}</li>`,
    )
    .join('\n');
  return layout('Approvals', `<h1>Approvals waiting</h1>\n<ul>\n${items}\n</ul>`);
}

/** A short page for a refusal (the status says what kind). */
export const messagePage = (title: string, message: string): string =>
  layout(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>`);
