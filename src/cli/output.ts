// Printing results: text content as it is, structuredContent as JSON, other blocks noted (or saved with --save).
// Everything a server chose passes through terminal-text.ts first (threat E1).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { isJsonObject } from '../jsonrpc/index.js';
import type { CallToolResult, Tool } from '../protocol/index.js';
import { inertJson, terminalLine, terminalText } from './terminal-text.js';
import { displayWidth, fitWidth, padWidth } from './terminal-width.js';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'application/json': 'json',
  'text/plain': 'txt',
};

const extensionFor = (mimeType: string | undefined): string => EXTENSIONS[mimeType ?? ''] ?? 'bin';

/** Whether a text block only repeats structuredContent (compact or pretty-printed): then it is printed once. */
function repeatsStructured(text: string, structured: unknown): boolean {
  if (structured === undefined) return false;
  try {
    return isDeepStrictEqual(JSON.parse(text), structured);
  } catch {
    return false;
  }
}

/** The lines to print for a result; binary blocks are written to `saveDir` when given. */
export function renderResult(tool: string, result: CallToolResult, saveDir: string | undefined): string {
  const lines: string[] = [];
  let saved = 0;
  const save = (data: string, mimeType: string | undefined): string => {
    if (saveDir === undefined) return '(use --save DIR to write it to a file)';
    mkdirSync(saveDir, { recursive: true });
    const file = join(saveDir, `${tool}-${++saved}.${extensionFor(mimeType)}`);
    writeFileSync(file, Buffer.from(data, 'base64'));
    return `saved to ${file}`;
  };
  for (const block of result.content) {
    switch (block.type) {
      case 'text':
        if (!repeatsStructured(block.text, result.structuredContent)) lines.push(terminalText(block.text));
        break;
      case 'image':
      case 'audio':
        lines.push(
          `[${block.type} ${terminalLine(block.mimeType)}, ${Buffer.byteLength(block.data, 'base64')} bytes] ${save(block.data, block.mimeType)}`,
        );
        break;
      case 'resource_link':
        lines.push(
          `[resource link] ${terminalLine(block.uri)}${block.name ? ` (${terminalLine(block.name)})` : ''}`,
        );
        break;
      case 'resource': {
        const resource = block.resource;
        const uri = terminalLine(resource.uri);
        if ('text' in resource) lines.push(`[resource ${uri}]\n${terminalText(resource.text)}`);
        else
          lines.push(
            `[resource ${uri}, ${terminalLine(resource.mimeType ?? 'binary')}] ${save(resource.blob, resource.mimeType)}`,
          );
        break;
      }
      default:
        lines.push(`[${terminalLine(String((block as { type: unknown }).type))} block]`); // a type newer than us
    }
  }
  if (result.structuredContent !== undefined) lines.push(inertJson(result.structuredContent, 2));
  return lines.join('\n');
}

const flags = (tool: Tool): string => {
  const a = tool.annotations ?? {};
  const marks: string[] = [];
  if (a.readOnlyHint === true) marks.push('read-only');
  else {
    if (a.destructiveHint !== false) marks.push('destructive');
    if (a.idempotentHint === true) marks.push('idempotent');
  }
  if (a.openWorldHint !== false) marks.push('open-world');
  return marks.join(',');
};

const required = (tool: Tool): string => {
  const list = tool.inputSchema.required;
  return Array.isArray(list) && list.length > 0 ? list.map(String).join(',') : '-';
};

const title = (tool: Tool): string =>
  tool.title ?? (isJsonObject(tool.annotations) ? String(tool.annotations.title ?? '') : '');

/** 2025-11-25 task support, when the server declares any: "required", "optional" or "-". */
const taskSupport = (tool: Tool): string => {
  const support = tool.execution?.taskSupport;
  return support === 'required' || support === 'optional' ? support : '-';
};

/** A readable table: name, title, annotations, required arguments (and TASK when any tool runs as a task). */
export function renderToolTable(tools: readonly Tool[]): string {
  if (tools.length === 0) return '(no tools)';
  const tasks = tools.some((tool) => taskSupport(tool) !== '-');
  const rows = tools.map((tool) => [
    terminalLine(tool.name),
    fitWidth(terminalLine(title(tool)), 40),
    flags(tool),
    ...(tasks ? [taskSupport(tool)] : []),
    fitWidth(terminalLine(required(tool)), 40),
  ]);
  const header = ['NAME', 'TITLE', 'ANNOTATIONS', ...(tasks ? ['TASK'] : []), 'REQUIRED'];
  const widths = header.map((name, i) =>
    Math.max(name.length, ...rows.map((row) => displayWidth(row[i] ?? ''))),
  );
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => padWidth(cell, widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
