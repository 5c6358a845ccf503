// One result made clean (threats E1, E3, E4, E5): every text a client will show or a model will read — text blocks,
// embedded and read resources, prompt messages, strings inside structuredContent — goes through the same steps,
// binary blocks are size-bound, and nothing is copied unless it changes.

import { isJsonObject, type JsonObject } from '../../jsonrpc/index.js';
import type { Redactor } from '../redact/index.js';
import { walkStrings } from '../redact/walk.js';
import { Budget, base64Size, binaryNote } from './budget.js';
import { cleanText } from './clean-text.js';
import { maskInternals } from './mask-internals.js';

export interface CleanSteps {
  /** Remove escapes and invisible characters (E1). */
  readonly text: boolean;
  /** Replace secrets (E3). */
  readonly redactor: Redactor | undefined;
  /** Mask stack traces, paths and internal hosts (E5): for tool errors only. */
  readonly mask: boolean;
  readonly maxTextBytes: number;
  readonly maxBinaryBytes: number;
}

/** What cleaning did to one result, for the caller to log, re-check and expose. */
export interface CleanReport {
  changed: boolean;
  redactions: number;
  masked: boolean;
  truncated: boolean;
  binaryLeftOut: number;
  /** structuredContent as it now is, when its strings changed (it must be checked against outputSchema again). */
  structuredChanged: boolean;
}

/** The steps one string goes through, in this order: characters (so a zero-width split secret is whole again), masking, redaction. */
function textStep(steps: CleanSteps, report: CleanReport): (text: string) => string {
  return (text) => {
    let out = steps.text ? cleanText(text) : text;
    if (steps.mask) {
      const masked = maskInternals(out);
      if (masked !== out) report.masked = true;
      out = masked;
    }
    if (steps.redactor !== undefined) {
      const redacted = steps.redactor(out);
      if (redacted.count > 0) {
        report.redactions += redacted.count;
        out = typeof redacted.value === 'string' ? redacted.value : JSON.stringify(redacted.value);
      }
    }
    return out;
  };
}

/** Cleans one string that counts against the text bound. */
function boundedText(
  raw: string,
  step: (text: string) => string,
  budget: Budget,
  setNote: (note: string) => void,
): string {
  const read = budget.readAhead(raw);
  const rawBytes = read === raw ? undefined : Buffer.byteLength(raw, 'utf8');
  return budget.fitText(step(read), rawBytes, setNote);
}

/** A content block (tool result, prompt message, embedded resource), cleaned. */
function cleanBlock(
  block: unknown,
  step: (text: string) => string,
  budget: Budget,
  report: CleanReport,
): unknown {
  if (!isJsonObject(block)) return block;
  if (block.type === 'text' && typeof block.text === 'string') {
    const copy: JsonObject = { ...block };
    copy.text = boundedText(block.text, step, budget, (note) => (copy.text = `${String(copy.text)}${note}`));
    return copy.text === block.text ? block : copy;
  }
  if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string') {
    const size = base64Size(block.data);
    if (budget.takeBinary(size)) return block;
    report.binaryLeftOut++;
    const mimeType = typeof block.mimeType === 'string' ? step(block.mimeType) : undefined;
    return { type: 'text', text: binaryNote(`an ${block.type}`, mimeType, size, budget.maxBinary) };
  }
  if (block.type === 'resource_link') {
    // A client shows a link's name, title and description: the same text rules, outside the size bound.
    let copy: JsonObject | undefined;
    for (const key of ['name', 'title', 'description']) {
      const value = block[key];
      if (typeof value !== 'string') continue;
      const cleaned = step(value);
      if (cleaned !== value) (copy ??= { ...block })[key] = cleaned;
    }
    return copy ?? block;
  }
  if (block.type === 'resource' && isJsonObject(block.resource)) {
    const resource = cleanContents(block.resource, step, budget, report);
    return resource === block.resource ? block : { ...block, resource };
  }
  return block;
}

/** One item of resources/read `contents` (or an embedded resource): its text cleaned, its blob size-bound. */
function cleanContents(
  item: JsonObject,
  step: (text: string) => string,
  budget: Budget,
  report: CleanReport,
): JsonObject {
  if (typeof item.text === 'string') {
    const copy: JsonObject = { ...item };
    copy.text = boundedText(item.text, step, budget, (note) => (copy.text = `${String(copy.text)}${note}`));
    return copy.text === item.text ? item : copy;
  }
  if (typeof item.blob === 'string') {
    const size = base64Size(item.blob);
    if (budget.takeBinary(size)) return item;
    report.binaryLeftOut++;
    const mimeType = typeof item.mimeType === 'string' ? step(item.mimeType) : undefined;
    const { blob: _blob, ...rest } = item;
    return {
      ...rest,
      mimeType: 'text/plain',
      text: binaryNote('a binary resource', mimeType, size, budget.maxBinary),
    };
  }
  return item;
}

const mapArray = (items: unknown[], each: (item: unknown) => unknown): unknown[] => {
  let copy: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const after = each(items[i]);
    if (after !== items[i] && copy === undefined) copy = items.slice(0, i);
    if (copy !== undefined) copy.push(after);
  }
  return copy ?? items;
};

export interface Cleaned {
  readonly result: JsonObject;
  readonly report: CleanReport;
}

/**
 * Cleans a tools/call, prompts/get or resources/read result (by its shape: `content`, `messages`, `contents`).
 * Error masking applies only to a tool result with `isError: true`.
 */
/** What cleaning reports for a result it left as it was. Frozen: shared by every such result. */
const UNTOUCHED: CleanReport = Object.freeze({
  changed: false,
  redactions: 0,
  masked: false,
  truncated: false,
  binaryLeftOut: 0,
  structuredChanged: false,
});

/**
 * True when cleaning would leave `result` as it is, known without the general walk: only text blocks, each free of
 * anything the character step removes, short enough to fit the bound even at three UTF-8 bytes per code unit, and
 * no step that reads them further (masking a tool error, redaction). Most tools answer this way, so this is what
 * each of their calls costs (the walk makes a report, a copy of the result and closures per call).
 */
function untouched(result: JsonObject, steps: CleanSteps): boolean {
  if (steps.redactor !== undefined || (steps.mask && result.isError === true)) return false;
  if (
    result.structuredContent !== undefined ||
    result.messages !== undefined ||
    result.contents !== undefined
  ) {
    return false;
  }
  const content = result.content;
  if (!Array.isArray(content)) return false;
  let left = steps.maxTextBytes;
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    if (!isJsonObject(block) || block.type !== 'text') return false;
    const text = block.text;
    if (typeof text !== 'string') return false;
    left -= text.length * 3;
    if (left < 0 || (steps.text && cleanText(text) !== text)) return false;
  }
  return true;
}

export function cleanResult(result: JsonObject, steps: CleanSteps): Cleaned {
  if (untouched(result, steps)) return { result, report: UNTOUCHED };
  const report: CleanReport = { ...UNTOUCHED };
  const isToolError = Array.isArray(result.content) && result.isError === true;
  const step = textStep({ ...steps, mask: steps.mask && isToolError }, report);
  const budget = new Budget(steps.maxTextBytes, steps.maxBinaryBytes);
  const out: JsonObject = { ...result };
  let mirror: { before: string; after: string } | undefined;
  if (result.structuredContent !== undefined) {
    // Characters and masking string by string; redaction over the whole value, as it knows which keys name secrets.
    const stringStep = textStep({ ...steps, redactor: undefined, mask: steps.mask && isToolError }, report);
    let walked = walkStrings(result.structuredContent, {
      text: stringStep,
      tooDeep: '[too deep]',
      tooLarge: '[too large]',
    }).value;
    if (steps.redactor !== undefined) {
      const redacted = steps.redactor(walked);
      report.redactions += redacted.count;
      if (redacted.count > 0) walked = redacted.value;
    }
    if (walked !== result.structuredContent) {
      out.structuredContent = walked as JsonObject;
      report.structuredChanged = true;
      // The text block that mirrors structuredContent (as the server writes it) must say the same as the new value.
      mirror = { before: JSON.stringify(result.structuredContent), after: JSON.stringify(walked) };
    }
  }
  if (Array.isArray(result.content)) {
    out.content = mapArray(result.content, (block) => {
      if (
        mirror !== undefined &&
        isJsonObject(block) &&
        block.type === 'text' &&
        block.text === mirror.before
      ) {
        const replaced = { ...block, text: mirror.after };
        return cleanBlock(replaced, (text) => text, budget, report);
      }
      return cleanBlock(block, step, budget, report);
    }) as JsonObject[];
  }
  if (Array.isArray(result.messages)) {
    out.messages = mapArray(result.messages, (message) => {
      if (!isJsonObject(message)) return message;
      const content = cleanBlock(message.content, step, budget, report);
      return content === message.content ? message : { ...message, content };
    }) as JsonObject[];
  }
  if (Array.isArray(result.contents)) {
    out.contents = mapArray(result.contents, (item) =>
      isJsonObject(item) ? cleanContents(item, step, budget, report) : item,
    ) as JsonObject[];
  }
  if (typeof result.description === 'string' && Array.isArray(result.messages)) {
    out.description = step(result.description);
  }
  budget.finish();
  report.truncated = budget.truncated;
  report.changed =
    out.structuredContent !== result.structuredContent ||
    out.content !== result.content ||
    out.messages !== result.messages ||
    out.contents !== result.contents ||
    out.description !== result.description;
  return { result: report.changed ? out : result, report };
}
