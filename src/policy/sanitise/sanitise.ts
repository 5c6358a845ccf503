// Clean outputs (issue 16; threats E1, E3, E4, E5): middleware that runs after the handler on tools/call,
// prompts/get and resources/read and replaces the result with its clean form. On by default, except redaction
// (opt-in for what leaves; the audit always redacts what it stores). Every opt-out is explicit and logged once.

import { randomBytes } from 'node:crypto';
import { RpcError, isJsonObject, type JsonObject } from '../../jsonrpc/index.js';
import {
  Denial,
  stderrLogger,
  type Logger,
  type Middleware,
  type Outcome,
  type RequestView,
} from '../../server/index.js';
import { redactSecrets, type Redactor } from '../redact/index.js';
import { walkStrings } from '../redact/walk.js';
import { cleanResult, type CleanSteps } from './clean-result.js';
import { cleanText } from './clean-text.js';
import { maskInternals } from './mask-internals.js';
import { outputMismatch } from './output-check.js';

export interface SanitiseOptions {
  /** Remove escape sequences and invisible/controlling characters from text (E1). Default true. */
  readonly text?: boolean;
  /** UTF-8 bytes of text one result may carry (text blocks, resource text, structuredContent). Default 1 MiB. */
  readonly maxResultBytes?: number;
  /** Decoded bytes of binary content (images, audio, blobs) one result may carry. Default 10 MiB. */
  readonly maxBinaryBytes?: number;
  /** Replace secrets in what leaves (E3): true for redactSecrets, or a redactor of your own. Default false. */
  readonly redact?: boolean | Redactor;
  /** Mask stack traces, filesystem paths and internal hosts in tool errors and protocol errors (E5). Default true. */
  readonly maskErrors?: boolean;
  /** Told the unmasked outcome (a result or the RpcError thrown) whenever masking changed an error. */
  readonly onMasked?: (request: RequestView, original: Outcome | RpcError) => void;
  /** Where opt-out warnings and withheld-output errors go. Default: stderr. */
  readonly logger?: Logger;
}

export interface Sanitiser {
  /** Install with `server.use(…)`, after (inside) the audit, so the audit sees what the client sees and can ask for the original. */
  readonly middleware: Middleware;
  /** The outcome as the handler produced it, when cleaning changed it (for the audit; undefined otherwise). */
  originalOf(request: RequestView): Outcome | RpcError | undefined;
}

export const DEFAULT_MAX_RESULT_BYTES = 1024 * 1024;
export const DEFAULT_MAX_BINARY_BYTES = 10 * 1024 * 1024;

const OPTION_KEYS: ReadonlySet<string> = new Set([
  'text',
  'maxResultBytes',
  'maxBinaryBytes',
  'redact',
  'maskErrors',
  'onMasked',
  'logger',
]);
const CLEANED_METHODS: ReadonlySet<string> = new Set([
  'tools/call',
  'prompts/get',
  'resources/read',
  'tasks/get',
]);

function checkBound(name: string, value: number | undefined): void {
  if (value === undefined || value === Infinity) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1024) {
    throw new TypeError(
      `sanitise(): ${name} must be an integer of at least 1024 (bytes) or Infinity, got ${String(value)}`,
    );
  }
}

function checkOptions(options: SanitiseOptions): void {
  const raw: unknown = options;
  if (!isJsonObject(raw)) throw new TypeError('sanitise(): options must be an object');
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) throw new TypeError(`sanitise(): unknown option "${key}"`);
  }
  for (const key of ['text', 'maskErrors'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') {
      throw new TypeError(`sanitise(): ${key} must be true or false`);
    }
  }
  if (
    options.redact !== undefined &&
    typeof options.redact !== 'boolean' &&
    typeof options.redact !== 'function'
  ) {
    throw new TypeError('sanitise(): redact must be true, false or a redactor function');
  }
  if (options.onMasked !== undefined && typeof options.onMasked !== 'function') {
    throw new TypeError('sanitise(): onMasked must be a function (request, original) => void');
  }
  checkBound('maxResultBytes', options.maxResultBytes);
  checkBound('maxBinaryBytes', options.maxBinaryBytes);
}

/** The loud part of an opt-out: one warning per sanitiser, naming what is off and what that lets through. */
function warnOptOuts(steps: CleanSteps, maskErrors: boolean, logger: Logger): void {
  const off: string[] = [];
  if (!steps.text) off.push('text cleaning (escape sequences and invisible characters reach clients: E1)');
  if (steps.maxTextBytes === Infinity) off.push('the text size bound (results of any size: E4)');
  if (steps.maxBinaryBytes === Infinity) off.push('the binary size bound (images and blobs of any size: E4)');
  if (!maskErrors) off.push('error masking (stack traces, paths and internal hosts reach clients: E5)');
  if (off.length > 0) logger.warn(`output sanitising is partly off: ${off.join('; ')}`);
}

/** A short id that links a client's message to the server's log line. */
const newReference = (): string => randomBytes(4).toString('hex');

/** The result that replaces a tool's output when it cannot be sent as it is. */
const withheld = (message: string): JsonObject => ({
  content: [{ type: 'text', text: message }],
  isError: true,
});

/** An upper bound of a JSON value's UTF-8 size: 3 bytes per UTF-16 unit, 24 per number, 8 per separator and quotes. */
function sizeBound(value: unknown, depth: number): number {
  if (typeof value === 'string') return value.length * 3 + 8;
  if (typeof value !== 'object' || value === null) return 24;
  if (depth > 64) return Infinity;
  let bound = 8;
  if (Array.isArray(value)) for (const item of value) bound += sizeBound(item, depth + 1);
  else
    for (const [key, item] of Object.entries(value)) bound += key.length * 3 + 8 + sizeBound(item, depth + 1);
  return bound;
}

/** Whether structuredContent is over the bound: the quick upper bound first, the exact size only when it may be. */
function structuredOver(value: unknown, limit: number): boolean {
  if (limit === Infinity || sizeBound(value, 0) <= limit) return false;
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8') > limit;
}

export function sanitise(options: SanitiseOptions = {}): Sanitiser {
  checkOptions(options);
  const logger = options.logger ?? stderrLogger;
  const redactor =
    options.redact === true ? redactSecrets : options.redact === false ? undefined : options.redact;
  const maskErrors = options.maskErrors ?? true;
  const steps: CleanSteps = {
    text: options.text ?? true,
    redactor,
    mask: maskErrors,
    maxTextBytes: options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
    maxBinaryBytes: options.maxBinaryBytes ?? DEFAULT_MAX_BINARY_BYTES,
  };
  warnOptOuts(steps, maskErrors, logger);
  const originals = new WeakMap<RequestView, Outcome | RpcError>();
  const onMasked = options.onMasked;

  /** A protocol error's message and data, masked and cleaned; Denials are policy's own words and pass as they are. */
  const cleanError = (request: RequestView, error: unknown): unknown => {
    if (!(error instanceof RpcError) || error instanceof Denial) return error;
    const clean = (text: string): string => {
      const cleaned = steps.text ? cleanText(text) : text;
      return maskErrors ? maskInternals(cleaned) : cleaned;
    };
    const message = clean(error.message);
    const data = walkStrings(error.data, { text: clean, tooDeep: null, tooLarge: null }).value;
    if (message === error.message && data === error.data) return error;
    originals.set(request, error);
    if (maskErrors) onMasked?.(request, error);
    return new RpcError(error.code, message, data);
  };

  /**
   * A task's stored tools/call result, as tasks/get reports it. The tool is not known here, so a structuredContent
   * whose strings changed cannot be checked against its outputSchema again: in the rare case of a schema constraint
   * on text that held invisible characters (a pattern, a minLength), the cleaned value may no longer match it.
   */
  const cleanTask = (request: RequestView, task: JsonObject): JsonObject => {
    const stored = task.result;
    const statusMessage =
      typeof task.statusMessage === 'string' && steps.text
        ? cleanText(task.statusMessage)
        : task.statusMessage;
    let result: unknown = stored;
    if (isJsonObject(stored) && Array.isArray(stored.content)) {
      const cleaned = cleanResult(stored, steps);
      result = cleaned.result;
      if (cleaned.report.masked) onMasked?.(request, task);
      const structured = cleaned.result.structuredContent;
      if (structured !== undefined && structuredOver(structured, steps.maxTextBytes)) {
        result = withheld(
          `The task's structured result is larger than ${steps.maxTextBytes.toLocaleString('en-US')} bytes, the limit ` +
            'for one result; it was withheld. Ask for less: a narrower query, fewer items, or a page of the data.',
        );
      }
    }
    if (result === stored && statusMessage === task.statusMessage) return task;
    originals.set(request, task);
    return { ...task, result: result as JsonObject, ...(statusMessage !== undefined && { statusMessage }) };
  };

  const middleware: Middleware = async (request, next) => {
    if (!CLEANED_METHODS.has(request.method)) return next();
    let outcome: Outcome;
    try {
      outcome = await next();
    } catch (error) {
      throw cleanError(request, error);
    }
    // Strings are serialised lists; task handles and input_required answers have no content to clean.
    if (!isJsonObject(outcome)) return outcome;
    if (request.method === 'tasks/get') return cleanTask(request, outcome);
    if (
      !Array.isArray(outcome.content) &&
      !Array.isArray(outcome.messages) &&
      !Array.isArray(outcome.contents)
    ) {
      return outcome;
    }
    const { result, report } = cleanResult(outcome, steps);
    const target = request.target;
    const toolName = target?.kind === 'tool' ? target.name : undefined;
    const tooLarge =
      result.structuredContent !== undefined && structuredOver(result.structuredContent, steps.maxTextBytes);
    if (!report.changed && !tooLarge) return outcome;
    originals.set(request, outcome);
    if (report.masked) onMasked?.(request, outcome);
    if (tooLarge) {
      logger.warn(
        `withheld the structured output of tool "${toolName ?? '?'}": over ${steps.maxTextBytes} bytes`,
      );
      return withheld(
        `Tool "${toolName ?? 'unknown'}" produced a structured result larger than ${steps.maxTextBytes.toLocaleString('en-US')} bytes, ` +
          'the limit for one result; it was withheld. Ask for less: a narrower query, fewer items, or a page of the data.',
      );
    }
    if (report.structuredChanged && result.isError !== true && target?.kind === 'tool') {
      const mismatch = await outputMismatch(target, result.structuredContent);
      if (mismatch !== undefined) {
        const reference = newReference();
        logger.error(`withheld the output of tool "${target.name}" (reference ${reference}): ${mismatch}`);
        return withheld(
          `Tool "${target.name}" produced output that no longer matches its outputSchema once unsafe characters or ` +
            `secrets were removed from it; the result was withheld (reference ${reference})`,
        );
      }
    }
    return result;
  };

  return { middleware, originalOf: (request) => originals.get(request) };
}
