// `toolwire resources TARGET` (resources and templates as tables, or JSON) and `toolwire read TARGET URI` (the
// contents: text as it is, binary noted or saved with --save). Everything a server chose is made safe for the
// terminal first (threat E1).

import type { Resource, ResourceTemplate } from '../client/index.js';
import { McpError } from '../client/errors.js';
import { ExitCode, UsageError } from './errors.js';
import { renderResult } from './output.js';
import { connect, fail, type CliIo, type CommonOptions, type Connected } from './session.js';
import { shellCommand } from './shell-quote.js';
import { renderTable } from './table.js';
import { inertJson, terminalText } from './terminal-text.js';

export interface ReadCommandOptions extends CommonOptions {
  save?: string;
}

/** The server must offer `feature` (its capabilities say so) for a command about it to make sense. */
export function requireFeature(
  connected: Connected,
  feature: 'resources' | 'prompts',
  targetText: string,
): void {
  if (connected.client.serverCapabilities[feature] !== undefined) return;
  throw new UsageError(
    `${connected.target.label} offers no ${feature} (its capabilities have no "${feature}"); to see its tools, run: ${shellCommand(['toolwire', 'list', targetText])}`,
  );
}

export function renderResources(
  resources: readonly Resource[],
  templates: readonly ResourceTemplate[],
): string {
  const blocks: string[] = [];
  blocks.push(
    resources.length === 0
      ? '(no resources)'
      : renderTable(
          ['URI', 'NAME', 'TYPE', 'DESCRIPTION'],
          resources.map((r) => [r.uri, r.title ?? r.name, r.mimeType ?? '', r.description ?? '']),
        ),
  );
  if (templates.length > 0) {
    blocks.push(
      renderTable(
        ['TEMPLATE', 'NAME', 'TYPE', 'DESCRIPTION'],
        templates.map((t) => [t.uriTemplate, t.title ?? t.name, t.mimeType ?? '', t.description ?? '']),
      ),
    );
  }
  return blocks.join('\n\n');
}

export async function resources(targetText: string, options: CommonOptions, io: CliIo): Promise<number> {
  let connected: Connected | undefined;
  try {
    connected = await connect(targetText, options, io, undefined);
    const offered = connected.client.serverCapabilities.resources !== undefined;
    const list = offered ? await connected.client.listResources() : [];
    // Servers with static resources only may not answer the templates list at all.
    const templates = offered
      ? await connected.client.listResourceTemplates().catch((error: unknown) => {
          if (error instanceof McpError && error.code === -32601) return [];
          throw error;
        })
      : [];
    if (options.json === true)
      io.stdout.write(`${inertJson({ resources: list, resourceTemplates: templates }, 2)}\n`);
    else if (!offered) io.stdout.write('(no resources: the server does not offer any)\n');
    else io.stdout.write(`${renderResources(list, templates)}\n`);
    return ExitCode.Success;
  } catch (error) {
    return fail(io, error, connected, targetText);
  } finally {
    await connected?.client.close().catch(() => undefined);
  }
}

export async function read(
  targetText: string,
  uri: string,
  options: ReadCommandOptions,
  io: CliIo,
): Promise<number> {
  let connected: Connected | undefined;
  try {
    connected = await connect(targetText, options, io, undefined);
    requireFeature(connected, 'resources', targetText);
    const result = await connected.client.readResource(uri);
    if (options.json === true) {
      io.stdout.write(`${inertJson(result, 2)}\n`);
      return ExitCode.Success;
    }
    const only = result.contents.length === 1 ? result.contents[0] : undefined;
    // One text is printed as it is (made safe), so `toolwire read … > file` keeps just the text.
    const text =
      only !== undefined && 'text' in only
        ? terminalText(only.text)
        : renderResult(
            'resource',
            { content: result.contents.map((resource) => ({ type: 'resource' as const, resource })) },
            options.save,
          );
    io.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
    return ExitCode.Success;
  } catch (error) {
    return fail(io, error, connected, targetText);
  } finally {
    await connected?.client.close().catch(() => undefined);
  }
}
