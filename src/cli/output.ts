// Printing results: text content as it is, structuredContent as JSON, other blocks noted (or saved with --save).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isJsonObject } from '../jsonrpc/index.js';
import type { CallToolResult, Tool } from '../protocol/index.js';

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
        if (result.structuredContent === undefined || block.text !== JSON.stringify(result.structuredContent))
          lines.push(block.text);
        break;
      case 'image':
      case 'audio':
        lines.push(
          `[${block.type} ${block.mimeType}, ${Buffer.byteLength(block.data, 'base64')} bytes] ${save(block.data, block.mimeType)}`,
        );
        break;
      case 'resource_link':
        lines.push(`[resource link] ${block.uri}${block.name ? ` (${block.name})` : ''}`);
        break;
      case 'resource': {
        const resource = block.resource;
        if ('text' in resource) lines.push(`[resource ${resource.uri}]\n${resource.text}`);
        else
          lines.push(
            `[resource ${resource.uri}, ${resource.mimeType ?? 'binary'}] ${save(resource.blob, resource.mimeType)}`,
          );
        break;
      }
      default:
        lines.push(`[${(block as { type: string }).type} block]`);
    }
  }
  if (result.structuredContent !== undefined) lines.push(JSON.stringify(result.structuredContent, null, 2));
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
  return Array.isArray(list) && list.length > 0 ? list.join(',') : '-';
};

const truncate = (text: string, width: number): string =>
  text.length <= width ? text : `${text.slice(0, width - 1)}…`;

/** A readable table: name, title, annotations, required arguments. */
export function renderToolTable(tools: readonly Tool[]): string {
  if (tools.length === 0) return '(no tools)';
  const rows = tools.map((tool) => [
    tool.name,
    truncate(tool.title ?? (isJsonObject(tool.annotations) ? String(tool.annotations.title ?? '') : ''), 40),
    flags(tool),
    truncate(required(tool), 40),
  ]);
  const header = ['NAME', 'TITLE', 'ANNOTATIONS', 'REQUIRED'];
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
