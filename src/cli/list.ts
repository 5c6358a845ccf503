// `toolwire list TARGET`: the server's tools as a table, JSON with --json, or as a model API takes them with
// --format (definitions on stdout, the repair report on stderr).

import type { ProfileId } from '../llm/index.js';
import type { Tool } from '../protocol/index.js';
import { ExitCode, UsageError } from './errors.js';
import { renderToolTable } from './output.js';
import { connect, fail, say, type CliIo, type CommonOptions, type Connected } from './session.js';
import { inertJson, terminalText } from './terminal-text.js';

/**
 * Said on a terminal under the table of an untrusted server: "read-only" in the table is the server's word, and
 * `call` does not take it (a newcomer otherwise sees read-only here and a refusal there). Not said into a pipe, where
 * the table is data.
 */
const CLAIMS_NOTE =
  'note: ANNOTATIONS are the server\'s own claims and this server is not trusted, so "toolwire call" asks ' +
  'before calling any of its tools (--trust trusts its annotations; --yes calls without asking)';

const claimsSomething = (tools: readonly Tool[]): boolean =>
  tools.some((tool) => tool.annotations?.readOnlyHint === true);

/** `--format` names: the API's short name, `-strict` for strict mode (the profile ids are accepted too). */
export const LIST_FORMATS: Readonly<Record<string, ProfileId>> = {
  openai: 'openai-chat',
  'openai-strict': 'openai-chat-strict',
  'openai-chat': 'openai-chat',
  'openai-chat-strict': 'openai-chat-strict',
  'openai-responses': 'openai-responses',
  'openai-responses-strict': 'openai-responses-strict',
  anthropic: 'anthropic',
  'anthropic-strict': 'anthropic-strict',
};

export interface ListOptions extends CommonOptions {
  format?: string;
}

function formatProfile(format: string | undefined): ProfileId | undefined {
  if (format === undefined) return undefined;
  const id = Object.hasOwn(LIST_FORMATS, format) ? LIST_FORMATS[format] : undefined;
  if (id === undefined) {
    const names = [
      'openai',
      'openai-strict',
      'openai-responses',
      'openai-responses-strict',
      'anthropic',
      'anthropic-strict',
    ];
    throw new UsageError(`--format expects one of ${names.join(', ')}; got ${JSON.stringify(format)}`);
  }
  return id;
}

export async function list(targetText: string, options: ListOptions, io: CliIo): Promise<number> {
  let connected: Connected | undefined;
  try {
    const profile = formatProfile(options.format);
    connected = await connect(targetText, options, io, undefined);
    const tools = await connected.client.listTools();
    if (profile !== undefined) {
      // The model-API compilers load only for --format: a plain list does not pay their startup time.
      const { compileTools, formatReport } = await import('../llm/index.js');
      const compiled = compileTools(tools, profile);
      io.stdout.write(`${inertJson(compiled.definitions, 2)}\n`);
      io.stderr.write(`${terminalText(formatReport(compiled.report))}\n`);
      return ExitCode.Success;
    }
    if (options.json === true) {
      io.stdout.write(`${inertJson(tools, 2)}\n`);
      return ExitCode.Success;
    }
    io.stdout.write(`${renderToolTable(tools)}\n`);
    if (io.stderr.isTTY === true && !connected.trusted && claimsSomething(tools)) say(io, CLAIMS_NOTE);
    return ExitCode.Success;
  } catch (error) {
    return fail(io, error, connected, targetText);
  } finally {
    await connected?.client.close().catch(() => undefined);
    connected?.pins?.close();
  }
}
