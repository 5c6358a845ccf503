// `toolwire list TARGET`: the server's tools as a table, or JSON with --json.

import { ExitCode } from './errors.js';
import { renderToolTable } from './output.js';
import { connect, explain, type CliIo, type CommonOptions, type Connected } from './session.js';

export async function list(targetText: string, options: CommonOptions, io: CliIo): Promise<number> {
  let connected: Connected | undefined;
  try {
    connected = await connect(targetText, options, io, undefined);
    const tools = await connected.client.listTools();
    io.stdout.write(`${options.json === true ? JSON.stringify(tools, null, 2) : renderToolTable(tools)}\n`);
    return ExitCode.Success;
  } catch (error) {
    const { message, code } = explain(error, connected?.target, targetText);
    io.stderr.write(`toolwire: ${message}\n`);
    return code;
  } finally {
    await connected?.client.close().catch(() => undefined);
  }
}
