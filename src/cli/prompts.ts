// `toolwire prompts TARGET` (a table, or JSON) and `toolwire prompt TARGET NAME [k=v …]` (the messages, each under
// its role). Arguments are checked against the prompt's own list before anything is sent; text from the server is
// made safe for the terminal first (threat E1).

import type { Prompt, PromptMessage } from '../client/index.js';
import type { JsonObject } from '../jsonrpc/index.js';
import { parseToolArguments } from './arguments.js';
import { ExitCode, UsageError } from './errors.js';
import { renderResult } from './output.js';
import { requireFeature } from './resources.js';
import { connect, fail, type CliIo, type CommonOptions, type Connected } from './session.js';
import { shellCommand } from './shell-quote.js';
import { didYouMean } from './suggest.js';
import { renderTable } from './table.js';
import { inertJson, terminalLine } from './terminal-text.js';

export interface PromptCommandOptions extends CommonOptions {
  save?: string;
}

/** The arguments as a usage line: required ones bare, optional ones in brackets. */
const argumentList = (prompt: Prompt): string =>
  (prompt.arguments ?? []).map((arg) => (arg.required === true ? arg.name : `[${arg.name}]`)).join(' ') ||
  '-';

export function renderPromptTable(prompts: readonly Prompt[]): string {
  if (prompts.length === 0) return '(no prompts)';
  return renderTable(
    ['NAME', 'ARGUMENTS', 'DESCRIPTION'],
    prompts.map((prompt) => [prompt.name, argumentList(prompt), prompt.description ?? prompt.title ?? '']),
  );
}

export async function prompts(targetText: string, options: CommonOptions, io: CliIo): Promise<number> {
  let connected: Connected | undefined;
  try {
    connected = await connect(targetText, options, io, undefined);
    const offered = connected.client.serverCapabilities.prompts !== undefined;
    const list = offered ? await connected.client.listPrompts() : [];
    if (options.json === true) io.stdout.write(`${inertJson(list, 2)}\n`);
    else if (!offered) io.stdout.write('(no prompts: the server does not offer any)\n');
    else io.stdout.write(`${renderPromptTable(list)}\n`);
    return ExitCode.Success;
  } catch (error) {
    return fail(io, error, connected, targetText);
  } finally {
    await connected?.client.close().catch(() => undefined);
  }
}

/** `k=v …` or one JSON object of strings, checked against the prompt's declared arguments. */
export function promptArguments(prompt: Prompt, words: readonly string[]): Record<string, string> {
  const declared = prompt.arguments ?? [];
  const names = declared.map((arg) => arg.name);
  const label = terminalLine(prompt.name);
  const check = (key: string): void => {
    if (names.includes(key)) return;
    const shown =
      names.length === 0 ? 'it takes none' : `its arguments: ${names.map(terminalLine).join(', ')}`;
    throw new UsageError(`prompt "${label}" has no argument "${key}"${didYouMean(key, names)}; ${shown}`);
  };
  const json = words.length === 1 && (words[0] as string).trimStart().startsWith('{');
  if (!json) for (const word of words) if (word.indexOf('=') > 0) check(word.slice(0, word.indexOf('=')));
  // Every prompt argument is a string: key=value words are taken as they are, never coerced.
  const schema: JsonObject = {
    type: 'object',
    properties: Object.fromEntries(names.map((arg) => [arg, { type: 'string' }])),
  };
  const args = parseToolArguments(words, schema, prompt.name);
  for (const [key, value] of Object.entries(args)) {
    check(key);
    if (typeof value !== 'string')
      throw new UsageError(`prompt arguments are strings, but ${key} is ${JSON.stringify(value)}`);
  }
  const missing = declared.filter((arg) => arg.required === true && !Object.hasOwn(args, arg.name));
  if (missing.length > 0)
    throw new UsageError(`prompt "${label}" needs ${missing.map((arg) => `${arg.name}=…`).join(' ')}`);
  return args as Record<string, string>; // every value checked to be a string above
}

/** Each message under its role; content blocks printed as `toolwire call` prints them. */
export function renderMessages(messages: readonly PromptMessage[], saveDir: string | undefined): string {
  return messages
    .map((message) => {
      const body = renderResult('prompt', { content: [message.content] }, saveDir);
      return `[${terminalLine(message.role)}]\n${body}`;
    })
    .join('\n\n');
}

function noSuchPrompt(
  name: string,
  prompts: readonly Prompt[],
  targetText: string,
  options: CommonOptions,
): string {
  const again = [
    'toolwire',
    'prompts',
    targetText,
    ...(options.config === undefined ? [] : ['--config', options.config]),
  ];
  const names = prompts.map((candidate) => terminalLine(candidate.name));
  return `the server has no prompt "${terminalLine(name)}"${didYouMean(name, names)}; to see its prompts, run: ${shellCommand(again)}`;
}

export async function prompt(
  targetText: string,
  name: string,
  words: readonly string[],
  options: PromptCommandOptions,
  io: CliIo,
): Promise<number> {
  let connected: Connected | undefined;
  try {
    connected = await connect(targetText, options, io, undefined);
    requireFeature(connected, 'prompts', targetText);
    const prompts = await connected.client.listPrompts();
    const known = prompts.find((candidate) => candidate.name === name);
    if (known === undefined) throw new UsageError(noSuchPrompt(name, prompts, targetText, options));
    const result = await connected.client.getPrompt(name, promptArguments(known, words));
    if (options.json === true) io.stdout.write(`${inertJson(result, 2)}\n`);
    else io.stdout.write(`${renderMessages(result.messages, options.save)}\n`);
    return ExitCode.Success;
  } catch (error) {
    return fail(io, error, connected, targetText);
  } finally {
    await connected?.client.close().catch(() => undefined);
  }
}
