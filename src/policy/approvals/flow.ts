// The approval middleware: a tools/call that needs a human waits for an approver's decision. Modern clients get
// input_required with a URL-mode elicitation to the approval page (the approval's id sealed in requestState) and
// retry; other clients get a tool error that says where to approve and to call again. The tool runs once per
// approval (single-use redemption), only for the caller, tool and arguments that were approved (G2).

import { isJsonObject, type JsonObject } from '../../jsonrpc/index.js';
import type { ElicitRequestUrlParams, InputRequest } from '../../protocol/index.js';
import type { Middleware, Next, Outcome, RequestView, ToolTarget } from '../../server/index.js';
import { APPROVAL_ID, type ApprovalEngine } from './engine.js';
import type { Approval, ApprovalBinding } from './store.js';

/** The middleware's name for its sealed state, and the key of its input request. */
const OWNER = 'approvals';
const KEY = 'approval';

const toolError = (text: string): object => ({ content: [{ type: 'text', text }], isError: true });

const isInputRequired = (outcome: Outcome): boolean =>
  typeof outcome === 'object' && (outcome as { resultType?: unknown }).resultType === 'input_required';

/** Whether the client said it takes URL-mode elicitation (per request on the modern wire, per session on legacy). */
const takesUrl = (request: RequestView): boolean => {
  const elicitation = request.clientCapabilities.elicitation;
  return isJsonObject(elicitation) && elicitation.url !== undefined;
};

export function approvalMiddleware(engine: ApprovalEngine): Middleware {
  return (request, next) => {
    if (request.method !== 'tools/call') return next();
    const target = request.target;
    if (target?.kind !== 'tool') return next(); // unknown or unseen: the handler answers it as unknown
    const given = request.params?.arguments;
    const args = given === undefined ? {} : given;
    if (!isJsonObject(args)) return next(); // the handler refuses it (-32602)
    const decision = engine.decide(target, args);
    if (!decision.require) return next();
    return gate(engine, request, next, target, args, decision.rule);
  };
}

async function gate(
  engine: ApprovalEngine,
  request: RequestView,
  next: Next,
  target: ToolTarget,
  args: unknown,
  rule: number | 'default',
): Promise<Outcome> {
  const binding = engine.binding(request.caller, target.name, args);
  const now = engine.options.now;
  const store = engine.options.store;
  // The id from this call's own sealed state (bound to caller, tool and arguments by the codec), else the live
  // approval for the same binding (clients without URL mode call again after approving).
  const state = request.era === 'modern' ? request.inputState(OWNER) : undefined;
  const sealedId = typeof state?.id === 'string' && APPROVAL_ID.test(state.id) ? state.id : undefined;
  let approval = sealedId !== undefined ? await store.get(sealedId, now()) : await store.find(binding, now());
  await engine.sweep();
  if (sealedId !== undefined && approval === undefined) {
    return toolError(
      `Approval ${sealedId} for tool "${target.name}" is no longer known; call the tool again to ask for a new one`,
    );
  }
  if (approval !== undefined) {
    const mismatch = bindingMismatch(approval, binding);
    if (mismatch !== undefined) {
      engine.emit('refused', approval, mismatch);
      return toolError(`Approval ${approval.id} does not cover this call: ${mismatch}`);
    }
    const live = approval.status === 'pending' || approval.status === 'approved';
    if (sealedId !== undefined && live && declined(request)) {
      // The user dismissed the approval page on the client: nothing runs now, whatever the approver decides.
      return toolError(
        `The approval of tool "${target.name}" was dismissed on the client; nothing ran (approval ${approval.id} stays open at ${engine.urlFor(approval.id)})`,
      );
    }
    if (sealedId !== undefined && approval.status === 'pending') {
      const answered = selfApproval(engine, request, approval);
      if (answered !== undefined) approval = await answered;
    }
  }
  if (approval === undefined) {
    const made = await engine.request(request.caller, binding, args, rule);
    if (typeof made === 'string') return toolError(`Tool "${target.name}" needs approval, but ${made}`);
    approval = made;
  }
  if (approval.status === 'pending' && request.era === 'legacy' && takesUrl(request)) {
    const waited = await waitOnLegacy(engine, request, target, approval);
    if ('reply' in waited) return waited.reply;
    approval = waited.approval;
  }
  switch (approval.status) {
    case 'pending':
      return ask(engine, request, target, approval);
    case 'approved':
      return run(engine, next, approval);
    case 'denied':
      engine.emit('refused', approval, 'denied');
      return toolError(
        `Tool "${target.name}" was not run: approval ${approval.id} was denied` +
          (approval.reason === undefined ? '' : ` (${approval.reason})`),
      );
    case 'expired':
      engine.emit('refused', approval, 'expired');
      return toolError(
        `Tool "${target.name}" was not run: approval ${approval.id} expired; call the tool again (without this requestState) to ask for a new one`,
      );
    case 'redeemed':
      engine.emit('refused', approval, 'already used');
      return toolError(
        `Tool "${target.name}" was not run again: approval ${approval.id} was already used; call the tool again (without this requestState) to ask for a new one`,
      );
  }
}

/** What differs between an approval and this call (G2), or undefined when it covers the call. */
function bindingMismatch(approval: Approval, binding: ApprovalBinding): string | undefined {
  if (approval.principal !== binding.principal) return 'it was asked for by another caller';
  if (approval.tool !== binding.tool) return 'it was asked for another tool';
  if (approval.argsDigest !== binding.argsDigest) return 'it was asked for other arguments';
  if (approval.policyVersion !== binding.policyVersion) {
    return `it was asked under policy version ${approval.policyVersion}, and the policy is now ${binding.policyVersion}`;
  }
  return undefined;
}

/** The client's own answer to the approval request (modern retry), when it is an object with an action. */
function clientAnswer(request: RequestView): JsonObject | undefined {
  const responses = request.params?.inputResponses;
  const answer = isJsonObject(responses) ? responses[KEY] : undefined;
  return isJsonObject(answer) ? (answer as JsonObject) : undefined;
}

const declined = (request: RequestView): boolean => {
  const action = clientAnswer(request)?.action;
  return action === 'decline' || action === 'cancel';
};

/** G1: the client's "accept" approves only when policy allows self-approval. */
function selfApproval(
  engine: ApprovalEngine,
  request: RequestView,
  approval: Approval,
): Promise<Approval> | undefined {
  if (!engine.options.allowSelfApproval || clientAnswer(request)?.action !== 'accept') return undefined;
  return engine.selfApprove(approval, request.caller);
}

/** Redeems the approval once, then runs the call; a tool that asks for input keeps its approval for the retry. */
async function run(engine: ApprovalEngine, next: Next, approval: Approval): Promise<Outcome> {
  const store = engine.options.store;
  if (!(await store.redeem(approval.id, engine.options.now()))) {
    engine.emit('refused', approval, 'already used');
    return toolError(`Tool "${approval.tool}" was not run again: approval ${approval.id} was already used`);
  }
  engine.emit('redeemed', approval);
  // A protocol error after redemption leaves the approval used: the call reached the handler.
  const outcome = await next();
  if (isInputRequired(outcome)) await store.release(approval.id, engine.options.now());
  return outcome;
}

/** How long a legacy call waits for a decision: the tool's own time limit, else a minute (never past the TTL). */
const LEGACY_WAIT_MS = 60_000;

/**
 * Legacy sessions whose client takes URL elicitation: the approval page goes to the client as elicitation/create,
 * then the call waits for the decision. Answers the approval as it then is, a tool error when the client dismissed
 * it, or no reply at all when the request ended (cancelled, or its time ran out) while waiting.
 */
async function waitOnLegacy(
  engine: ApprovalEngine,
  request: RequestView,
  target: ToolTarget,
  approval: Approval,
): Promise<{ approval: Approval } | { reply: Outcome }> {
  const url = engine.urlFor(approval.id);
  const params: ElicitRequestUrlParams = {
    mode: 'url',
    message: message(target, url),
    url,
    elicitationId: approval.id,
  };
  let answer: unknown;
  try {
    answer = (await request.askClient({ [KEY]: { method: 'elicitation/create', params } }))[KEY];
  } catch (error) {
    if (request.signal.aborted) return { reply: undefined };
    throw error;
  }
  const action = (answer as { action?: unknown }).action; // checked by askClient: accept, decline or cancel
  if (action !== 'accept') {
    return {
      reply: toolError(
        `The approval of tool "${target.name}" was dismissed on the client; nothing ran (approval ${approval.id} stays open at ${url})`,
      ),
    };
  }
  if (engine.options.allowSelfApproval)
    return { approval: await engine.selfApprove(approval, request.caller) };
  const waitMs = Math.min(target.timeoutMs ?? LEGACY_WAIT_MS, engine.options.ttlMs);
  const decided = await engine.waitForDecision(approval.id, request.signal, waitMs);
  return request.signal.aborted ? { reply: undefined } : { approval: decided ?? approval };
}

const message = (target: ToolTarget, url: string): string =>
  `Tool "${target.name}" needs a human's approval. An approver opens ${url} to approve or deny it; then this call goes on.`;

/** Asks for the approval: input_required with a URL elicitation when the client takes URLs, else a tool error. */
function ask(engine: ApprovalEngine, request: RequestView, target: ToolTarget, approval: Approval): Outcome {
  const url = engine.urlFor(approval.id);
  if (request.era === 'modern' && takesUrl(request)) {
    const params: ElicitRequestUrlParams = { mode: 'url', message: message(target, url), url };
    const elicitation: InputRequest = { method: 'elicitation/create', params };
    return request.requireInput(OWNER, { [KEY]: elicitation }, { id: approval.id });
  }
  return toolError(
    `Tool "${target.name}" was not run: it needs a human's approval (approval ${approval.id}). An approver opens ${url} to approve or deny it; once approved, call the tool again with the same arguments.`,
  );
}
