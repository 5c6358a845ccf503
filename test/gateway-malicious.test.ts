// The assembled gateway (with a policy in front, so clean outputs are on) against the malicious upstream fixture
// over stdio, beside a well-behaved toolwire server: each attack is contained to its own upstream, and the gateway
// keeps serving the rest. C1 poisoning, C2 a rug pull announced by list_changed, C3 a plain name landing on an alias,
// C5 a remote $ref and a schema bomb, C6 an absurd listing and a repeating cursor, E1 ANSI in results, F5 a crash
// mid-call.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../src/client/index.js';
import { readGatewayConfig } from '../src/gateway/config.js';
import { createGateway, type Gateway } from '../src/gateway/gateway.js';
import { memoryPinStore } from '../src/gateway/pins/index.js';
import { McpServer, silentLogger, type Logger } from '../src/server/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import { createLinkedPair } from '../src/transports/memory/index.js';
import { CLIENT_INFO, within } from './fixtures/client/harness.js';
import { CHILD_LIMIT_MS, serverArgs } from './fixtures/malicious-upstream/harness.js';

const STEP_MS = 30_000;

/** Keeps what the gateway logs; `waitFor` resolves at the first line (already logged, or to come) that matches. */
function recordingLogger(): Logger & { lines: string[]; waitFor(pattern: RegExp): Promise<void> } {
  const lines: string[] = [];
  const waiters = new Set<{ pattern: RegExp; resolve: () => void }>();
  const keep = (message: string): void => {
    lines.push(message);
    for (const waiter of waiters) {
      if (!waiter.pattern.test(message)) continue;
      waiters.delete(waiter);
      waiter.resolve();
    }
  };
  return {
    lines,
    debug: keep,
    info: keep,
    warn: keep,
    error: keep,
    waitFor: (pattern) =>
      lines.some((line) => pattern.test(line))
        ? Promise.resolve()
        : new Promise((resolve) => waiters.add({ pattern, resolve })),
  };
}

const malicious = (behaviours: string[]): object => ({
  command: process.execPath,
  args: serverArgs(behaviours),
  listTimeoutMs: CHILD_LIMIT_MS,
});

describe('gateway against the malicious upstream', () => {
  const logger = recordingLogger();
  // Stdio upstreams start in the config file's folder: it must exist.
  const directory = mkdtempSync(join(tmpdir(), 'toolwire-gateway-malicious-'));
  const good = new McpServer({ name: 'good', version: '1.0.0' }, { logger: silentLogger });
  good.tool({ name: 'works', annotations: { readOnlyHint: true }, handler: () => 'yes' });
  let goodHttp: HttpListening;
  let gateway: Gateway;
  let client: McpClient;

  before(async () => {
    goodHttp = await listenHttp(good, { port: 0 });
    const raw = {
      mcpServers: {
        good: { url: goodHttp.url, trusted: true },
        hostile: malicious(['poisoned', 'remote-ref', 'ansi']),
        bomb: malicious(['schema-bomb']),
        many: malicious(['many-tools=3000']),
        loop: malicious(['repeat-cursor']),
        crash: malicious(['crash-on-call']),
        clash: malicious(['alias-collide=clash']),
        // Its re-listing also lands a plain name on an alias: the rebuild must still hold the pulled echo back.
        rug: malicious(['rug-pull', 'notify-changes', 'alias-collide=rug']),
      },
      gateway: { limits: { maxTools: 1000 }, debounceMs: 0 },
      policy: { anonymous: true, scopes: { rules: [{ tools: ['*'], see: [] }] } },
    };
    gateway = await createGateway(readGatewayConfig(raw, join(directory, 'toolwire.json')), {
      logger,
      pinStore: memoryPinStore(),
    });
    await within(gateway.start(), CHILD_LIMIT_MS * 2, 'the gateway to start');
    const [clientSide, serverSide] = createLinkedPair();
    await gateway.server.connect(serverSide);
    client = new McpClient(CLIENT_INFO, { approve: 'always' });
    await within(client.connect(clientSide), STEP_MS, 'connect');
  });

  after(async () => {
    await client?.close();
    await gateway?.close();
    await goodHttp?.close();
    await good.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const names = async (): Promise<string[]> =>
    (await client.listTools({ refresh: true })).map((tool) => tool.name);
  const logged = (pattern: RegExp): void =>
    assert.ok(
      logger.lines.some((line) => pattern.test(line)),
      `no log line matches ${pattern}:\n${logger.lines.join('\n')}`,
    );

  it('C1 C5 the poisoned tool and the remote $ref are left out with a reason; the rest is served', async () => {
    const served = await names();
    for (const name of ['hostile___echo', 'hostile___slow', 'good___works'])
      assert.ok(served.includes(name), name);
    for (const name of ['hostile___add', 'hostile___remote_ref'])
      assert.ok(!served.includes(name), `${name} is not served`);
    logged(/upstream "hostile" tool "add" is not served/);
    logged(/upstream "hostile" tool "remote_ref" is not served/);
  });

  it('C5 a listing carrying a schema bomb is refused whole (JSON deeper than the client reads), and said', async () => {
    assert.ok(!(await names()).some((name) => name.startsWith('bomb___')));
    logged(/listing the tools of upstream "bomb" failed/);
  });

  it('C3 F5 an upstream naming a tool as the alias of another stops neither the gateway nor its own other tools', async () => {
    // The gateway started (before): the pair is left out, reported naming both sides; the rest of clash is served.
    const served = await names();
    assert.ok(served.includes('clash___echo') && served.includes('clash___slow'), served.join(','));
    assert.ok(!served.some((name) => name.startsWith('clash___lookup_')), served.join(','));
    logged(
      /upstream "clash" tool "lookup_x+_[0-9a-f]{8}": collision as clash___lookup_x+_[0-9a-f]{8} \(clash\/lookup_x+_[0-9a-f]{8} and clash\/lookup_x+ \(alias\) both become clash___lookup_x+_[0-9a-f]{8}, so none of them is served\)/,
    );
  });

  it('C6 an absurd listing and a repeating cursor serve nothing of those upstreams, and say why', async () => {
    const served = await names();
    assert.ok(
      !served.some((name) => name.startsWith('many___') || name.startsWith('loop___')),
      served.join(','),
    );
    logged(/upstream "many" listed \d+ tools, over the limit of 1000/);
    logged(/listing the tools of upstream "loop" failed/);
  });

  it('E1 ANSI escapes in an upstream result do not reach the caller (clean outputs are on with a policy)', async () => {
    const result = await client.callTool('hostile___echo', { text: 'hi' });
    const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
    assert.ok(text.length > 0);
    assert.ok(!text.includes('\u001b'), JSON.stringify(text));
  });

  it('F5 an upstream crashing mid-call is a tool error naming it; the others keep answering', async () => {
    const result = await within(client.callTool('crash___echo', { text: 'x' }), STEP_MS, 'the crashing call');
    assert.equal(result.isError, true);
    assert.match(result.content[0]?.type === 'text' ? result.content[0].text : '', /upstream "crash"/);
    assert.deepEqual((await client.callTool('good___works', {})).content, [{ type: 'text', text: 'yes' }]);
  });

  it('C2 a rug pull announced with list_changed is held back: neither listed nor callable', async () => {
    // The pulled definition is held back: quarantined by the pin book, or refused before that by the scan (this
    // fixture's new description also asks for a secret file); either way it is the same tool no longer served.
    const heldBack = /upstream "rug" tool "echo" is not served/;
    await within(logger.waitFor(heldBack), STEP_MS, 'the gateway to hold the pulled tool back');
    await within(gateway.settled(), STEP_MS, 'the re-listing to be applied');
    const served = await names();
    assert.ok(!served.includes('rug___echo'), served.join(','));
    assert.ok(served.includes('rug___slow'));
    await assert.rejects(client.callTool('rug___echo', { text: 'x' }), /Unknown tool/);
  });
});
