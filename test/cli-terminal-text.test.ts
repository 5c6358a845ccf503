// Threat E1: a server's text reaches the terminal only neutralised. The sanitiser on its own (every class of character
// and what it becomes), then `toolwire list` and `toolwire call` as real processes against a fixture server that puts
// escapes, C1 controls, bidi overrides and zero-width characters in every string it sends (--json stays lossless).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inertJson, terminalLine, terminalText } from '../src/cli/terminal-text.js';
import { fixtureTarget, runCli } from './fixtures/client/harness.js';

const TEST_MS = 120_000; // a hang guard: a test runs several CLI processes, each allowed CLI_LIMIT_MS on a loaded machine
const TARGET = fixtureTarget('cli-fixture-server.mjs', 'hostile');

/** The fixture's HOSTILE string (test/fixtures/client/cli-fixture-server.mjs). */
const HOSTILE =
  'A\x1b[2JB\x1b]0;PWNED\x07C\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\D\x1b]52;c;cm0gLXJmIH4=\x07' +
  'E\u009b31mF\u202Egnp.exe\u202CG\u2066x\u2069H\u200Bi\u200Fj\u2060K\x7fL\r!M 中文 👍';
/** HOSTILE as a terminal shows it: every control visible and inert, the CJK and the emoji unchanged. */
const SAFE =
  'A␛[2JB␛]0;PWNED␇C␛]8;;https://evil.example␛\\link␛]8;;␛\\D␛]52;c;cm0gLXJmIH4=␇' +
  'E<U+009B>31mF<U+202E>gnp.exe<U+202C>G<U+2066>x<U+2069>H<U+200B>i<U+200F>j<U+2060>K␡L␍!M 中文 👍';

/** Any character a terminal would act on or hide (newline and tab aside). */
// eslint-disable-next-line no-control-regex
const ACTIVE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/u;

const DROPPED_WARNING =
  'toolwire: warning: dropped tool "drop␛]52;c;QUJD␇me": invalid x-mcp-header: "Bad Region" at /properties/region ' +
  'is not a valid header name: it must be an RFC 9110 token ' +
  "(letters, digits and !#$%&'*+-.^_`|~; no spaces, colons, control or non-ASCII characters)\n";

describe('E1: the sanitiser', () => {
  it('E1: escapes (CSI, OSC title, OSC 8 link, OSC 52 clipboard) become visible control pictures', () => {
    assert.equal(terminalText('\x1b[2J'), '␛[2J');
    assert.equal(terminalText('\x1b]0;PWNED\x07'), '␛]0;PWNED␇');
    assert.equal(terminalText('\x1b]8;;https://x\x1b\\y\x1b]8;;\x1b\\'), '␛]8;;https://x␛\\y␛]8;;␛\\');
    assert.equal(terminalText('\x1b]52;c;Zm9v\x07'), '␛]52;c;Zm9v␇');
    assert.equal(terminalText('\x00\x08\x7f'), '␀␈␡');
  });

  it('E1: C1 controls, bidi controls, zero-width and format characters become <U+XXXX>', () => {
    assert.equal(terminalText('\u0080\u009b\u009f'), '<U+0080><U+009B><U+009F>');
    assert.equal(
      terminalText('\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c'),
      '<U+202A><U+202B><U+202C><U+202D><U+202E><U+2066><U+2067><U+2068><U+2069><U+200E><U+200F><U+061C>',
    );
    assert.equal(
      terminalText('a\u200bb\u200cc\u200dd\u2060e\ufeff'),
      'a<U+200B>b<U+200C>c<U+200D>d<U+2060>e<U+FEFF>',
    );
    assert.equal(terminalText('\u{e0041}\ud800\u2028\u3164'), '<U+E0041><U+D800><U+2028><U+3164>');
  });

  it('E1: newline and tab stay in text and show as ␤ and ␉ on one line; CRLF is a line end, a lone CR is not', () => {
    assert.equal(terminalText('a\r\nb\tc\rd'), 'a\nb\tc␍d');
    assert.equal(terminalLine('a\r\nb\tc\nd'), 'a␤b␉c␤d');
  });

  it('E1: printable Unicode is unchanged: CJK, emoji, an emoji ZWJ sequence, a subdivision flag', () => {
    const text = '中文 한국어 👍🏽 👩‍💻 🏴󠁧󠁢󠁳󠁣󠁴󠁿 café';
    assert.equal(terminalText(text), text);
    assert.equal(terminalLine(text), text);
  });

  it('E1: inertJson escapes C1, bidi, zero-width and DEL as \\u escapes and parses back to the same value', () => {
    const value = { text: HOSTILE, [`key${HOSTILE}`]: [HOSTILE] };
    const json = inertJson(value, 2);
    assert.equal(ACTIVE.test(json), false, json);
    assert.deepEqual(JSON.parse(json), value);
    assert.equal(inertJson('\u009b\u202e\u200b\x7f'), '"\\u009b\\u202e\\u200b\\u007f"');
  });
});

describe('E1: toolwire list and call against a server that sends terminal escapes', () => {
  it(
    'E1: list shows names, titles and required arguments neutralised; the warning too',
    { timeout: TEST_MS },
    async () => {
      const run = await runCli(['list', TARGET]);
      const nameWidth = [...`fail${SAFE}`].length + 3; // 中, 文 and 👍 take two columns each
      const title = 'Title A␛[2JB␛]0;PWNED␇C␛]8;;https://evi…'; // cut at 40 columns
      const required = 'nA␛[2JB␛]0;PWNED␇C␛]8;;https://evil.exa…';
      const row = (name: string, titleCell: string, requiredCell: string): string =>
        `${name.padEnd(nameWidth)}  ${titleCell.padEnd(40)}  read-only,open-world  ${requiredCell}`.trimEnd();
      assert.deepEqual(run, {
        code: 0,
        stdout: [
          `${'NAME'.padEnd(nameWidth)}  ${'TITLE'.padEnd(40)}  ANNOTATIONS           REQUIRED`,
          row('work', title, required),
          `fail${SAFE}${' '.repeat(2 + 40)}  read-only,open-world  -`,
          row('rpc_error', '', '-'),
          '',
        ].join('\n'),
        stderr: DROPPED_WARNING,
      });
    },
  );

  it('E1: call prints the result and the progress message neutralised', { timeout: TEST_MS }, async () => {
    assert.deepEqual(await runCli(['call', TARGET, 'work', '--yes']), {
      code: 0,
      stdout: `Result ${SAFE}\nsecond line\n`,
      stderr: `${DROPPED_WARNING}progress: 1/2 Progress ${SAFE}\n`,
    });
  });

  it('E1: an isError result and a JSON-RPC error message are neutralised', { timeout: TEST_MS }, async () => {
    assert.deepEqual(await runCli(['call', TARGET, `fail${HOSTILE}`, '--yes']), {
      code: 1,
      stdout: '',
      stderr: `${DROPPED_WARNING}Failed ${SAFE}\n`,
    });
    assert.deepEqual(await runCli(['call', TARGET, 'rpc_error', '--yes']), {
      code: 3,
      stdout: '',
      stderr: `${DROPPED_WARNING}toolwire: ${TARGET}: server error -32000: Error ${SAFE}\n`,
    });
  });

  it(
    'E1: --json keeps every string intact, escaped so that the terminal sees none of it',
    { timeout: TEST_MS },
    async () => {
      const listed = await runCli(['list', TARGET, '--json']);
      assert.equal(listed.code, 0);
      assert.equal(ACTIVE.test(listed.stdout), false, listed.stdout);
      const tools = JSON.parse(listed.stdout) as Array<{
        name: string;
        title?: string;
        description?: string;
      }>;
      assert.deepEqual(
        tools.map((tool) => [tool.name, tool.title, tool.description]),
        [
          ['work', `Title ${HOSTILE}`, `Description ${HOSTILE}`],
          [`fail${HOSTILE}`, undefined, undefined],
          ['rpc_error', undefined, undefined],
        ],
      );

      const called = await runCli(['call', TARGET, 'work', '--yes', '--json']);
      assert.equal(called.code, 0);
      assert.equal(ACTIVE.test(called.stdout), false, called.stdout);
      assert.deepEqual(JSON.parse(called.stdout), {
        content: [{ type: 'text', text: `Result ${HOSTILE}\nsecond line` }],
      });
    },
  );
});
