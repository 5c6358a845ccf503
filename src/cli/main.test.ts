// The CLI's entry: commands loaded only when they run must look the same in help as when loaded.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Command, Help } from 'commander';
import { COMMAND_GROUPS, main } from './main.js';
import type { CliIo } from './session.js';

const io = (): { cli: Partial<CliIo>; out: () => string } => {
  let text = '';
  const sink = {
    write: (chunk: string | Uint8Array): boolean => {
      text += String(chunk);
      return true;
    },
  } as unknown as NodeJS.WritableStream; // only write() is used by help and version
  return { cli: { stdout: sink, stderr: sink }, out: () => text };
};

test('a command group listed without loading it has the description and usage its module gives it', async () => {
  for (const group of COMMAND_GROUPS) {
    const program = new Command('toolwire');
    (await group.load())(program, io().cli as CliIo, () => {});
    const loaded = program.commands.find((command) => command.name() === group.name);
    assert.ok(loaded, `${group.name} registers itself`);
    assert.equal(group.description, loaded.description(), group.name);
    // `toolwire --help` lists the stub as `name`, or as its term: the loaded command must read the same.
    const help = new Help();
    assert.equal(group.term ?? help.subcommandTerm(new Command(group.name)), help.subcommandTerm(loaded));
  }
});

test('toolwire --help lists every command group; help NAME shows the loaded group with its subcommands', async () => {
  const top = io();
  assert.equal(await main(['--help'], top.cli), 0);
  for (const group of COMMAND_GROUPS)
    assert.ok(
      top.out().includes(`\n  ${group.term ?? group.name} `) &&
        top.out().includes(group.description.slice(0, 40)),
      `${group.name} is listed with its description`,
    );
  const keys = io();
  assert.equal(await main(['help', 'keys'], keys.cli), 0);
  assert.match(keys.out(), /Usage: toolwire keys \[options\] \[command\]/);
  assert.match(keys.out(), /revoke \[options\] <id> +Remove a key/);
});

test('serve --help lists the HTTP flags, loaded only for serve', async () => {
  const serve = io();
  assert.equal(await main(['serve', '--help'], serve.cli), 0);
  assert.match(serve.out(), /HTTP options \(with --http/);
  assert.match(serve.out(), /--allowed-hosts/);
});
