// `toolwire list TARGET`: the server's tools as a table, or JSON with --json.

import type { Tool } from '../protocol/index.js';
import { ExitCode } from './errors.js';
import { renderToolTable } from './output.js';
import { connect, fail, say, type CliIo, type CommonOptions, type Connected } from './session.js';
import { inertJson } from './terminal-text.js';

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

export async function list(targetText: string, options: CommonOptions, io: CliIo): Promise<number> {
  let connected: Connected | undefined;
  try {
    connected = await connect(targetText, options, io, undefined);
    const tools = await connected.client.listTools();
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
  }
}
