// The files pack: read_file and list_directory against hostile paths, special files, encodings, binary data and caps.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/index.js';
import type { CallToolResult, ContentBlock, ResourceLink } from '../src/protocol/index.js';
import { silentLogger } from '../src/server/index.js';
import { filesPack } from '../src/tools/files/index.js';
import { ConfigError } from '../src/tools/pack.js';
import { readServeConfig, loadServeConfig } from '../src/tools/serve-config.js';
import { Roots, type RootsOptions } from '../src/tools/roots.js';
import { connect, isNotification, modern, testServer, type RawClient } from './support/harness.js';

const CALL_WAIT_MS = 10_000;
const MiB = 1024 * 1024;

let base: string; // holds the root and a directory outside it
let root: string;
let outside: string;
let client: RawClient;

async function filesClient(
  rootDirectories: string[],
  raw?: JsonObject,
  options: RootsOptions = {},
): Promise<RawClient> {
  const roots = await Roots.create(rootDirectories, options);
  const server = testServer();
  const config = filesPack.parseConfig(raw, 'packs.files');
  for (const tool of filesPack.create(config, { roots, logger: silentLogger, timeouts: {} }))
    server.tool(tool);
  return connect(server);
}

async function call(
  target: RawClient,
  name: string,
  args: JsonObject,
  meta: JsonObject = {},
): Promise<CallToolResult> {
  const response = await target.request('tools/call', modern({ name, arguments: args }, meta), {
    timeoutMs: CALL_WAIT_MS,
  });
  assert.equal(response.error, undefined, JSON.stringify(response.error));
  return response.result as unknown as CallToolResult;
}

const read = (args: JsonObject, target = client): Promise<CallToolResult> => call(target, 'read_file', args);
const list = (args: JsonObject, target = client): Promise<CallToolResult> =>
  call(target, 'list_directory', args);

const texts = (result: CallToolResult): string[] =>
  result.content.flatMap((block) => (block.type === 'text' ? [block.text] : []));
const links = (result: CallToolResult): ResourceLink[] =>
  result.content.filter((block: ContentBlock): block is ResourceLink => block.type === 'resource_link');

/** The one text an isError result carries: what the model reads to correct itself. */
function errorText(result: CallToolResult): string {
  assert.equal(result.isError, true, `expected an error, got ${JSON.stringify(result)}`);
  assert.equal(result.content.length, 1);
  return texts(result)[0] as string;
}

const utf16be = (value: string): Buffer => Buffer.from(value, 'utf16le').swap16();

before(async () => {
  base = await fs.realpath(await fs.mkdtemp(join(tmpdir(), 'toolwire-files-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  await fs.mkdir(join(root, 'sub', 'deeper'), { recursive: true });
  await fs.mkdir(join(root, 'empty-dir'));
  await fs.mkdir(join(root, '.config'));
  await fs.mkdir(outside);
  await fs.writeFile(join(outside, 'secret.txt'), 'top secret\n');
  const put = (name: string, data: string | Uint8Array): Promise<void> =>
    fs.writeFile(join(root, name), data);
  await put('hello.txt', 'line1\nline2\nline3\n');
  await put('crlf.txt', 'one\r\ntwo\r\n');
  await put('no-newline.md', '# Title\nlast line');
  await put('empty.txt', '');
  await put('.hidden', 'hidden\n');
  await put('sub/nested.ts', 'export const x = 1;\n');
  await put('utf8-bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('bom text\n')]));
  await put(
    'utf16le.txt',
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\nwörld\n', 'utf16le')]),
  );
  await put('utf16be.txt', Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be('big endian ✓\n')]));
  await put('latin1.txt', Buffer.from('café\nnaïve\n', 'latin1'));
  await put(
    'binary.bin',
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
  );
  await put(
    'controls.dat',
    Buffer.from(Array.from({ length: 200 }, (_, index) => (index % 3 === 0 ? 0x01 : 0x41))),
  );
  // 1.5 MiB of numbered lines: "line 000001\n" is 12 bytes.
  const lines = Array.from(
    { length: (1.5 * MiB) / 12 },
    (_, index) => `line ${String(index + 1).padStart(6, '0')}\n`,
  );
  await put('big.txt', lines.join(''));
  await put(
    'late-latin1.txt',
    Buffer.concat([Buffer.from(`${'a'.repeat(9000)}\n`), Buffer.from('é\n', 'latin1')]),
  );
  await put('long-line.txt', `${'x'.repeat(500)}\nshort\n`);
  await fs.symlink(join(outside, 'secret.txt'), join(root, 'link-out'));
  await fs.symlink(outside, join(root, 'linkdir-out'));
  await fs.symlink('hello.txt', join(root, 'link-in'));
  await fs.symlink('loop-b', join(root, 'loop-a'));
  await fs.symlink('loop-a', join(root, 'loop-b'));
  await fs.symlink('/dev/null', join(root, 'devnull'));
  execFileSync('mkfifo', [join(root, 'fifo')]);
  client = await filesClient([root]);
});

after(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe('files pack: config', () => {
  it('defaults to a 1 MiB read limit', () => {
    assert.deepEqual(filesPack.parseConfig(undefined, 'packs.files'), { maxReadBytes: MiB });
  });

  it('rejects an unknown key, naming it and the allowed keys', () => {
    assert.throws(
      () => filesPack.parseConfig({ maxReadByte: 10 }, 'packs.files'),
      new ConfigError('packs.files has an unknown key "maxReadByte"; allowed keys: maxReadBytes'),
    );
  });

  it('rejects a bad value and a config that is not an object', () => {
    assert.throws(
      () => filesPack.parseConfig({ maxReadBytes: '1MB' }, 'packs.files'),
      new ConfigError(
        'packs.files.maxReadBytes must be a whole number of bytes from 1 to 67108864; got "1MB"',
      ),
    );
    assert.throws(
      () => filesPack.parseConfig([], 'packs.files'),
      new ConfigError('packs.files must be an object with the optional keys maxReadBytes; got []'),
    );
  });
});

describe('files pack: tool definitions', () => {
  it('lists both tools with closed input schemas and read-only, idempotent, closed-world annotations', async () => {
    const response = await client.request('tools/list', modern());
    const tools = response.result?.tools as { name: string; annotations: unknown; inputSchema: JsonObject }[];
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['read_file', 'list_directory'],
    );
    for (const tool of tools) {
      assert.deepEqual(tool.annotations, {
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      assert.equal(tool.inputSchema.additionalProperties, false);
    }
  });
});

describe('read_file: text', () => {
  it('returns the whole file, structured content and a resource link to the real path', async () => {
    const result = await read({ path: 'hello.txt' });
    assert.equal(result.isError, undefined);
    assert.deepEqual(texts(result), ['line1\nline2\nline3']);
    assert.deepEqual(result.structuredContent, {
      path: 'hello.txt',
      encoding: 'utf-8',
      startLine: 1,
      endLine: 3,
      totalLines: 3,
      truncated: false,
      content: 'line1\nline2\nline3',
    });
    assert.deepEqual(links(result), [
      {
        type: 'resource_link',
        uri: pathToFileURL(join(root, 'hello.txt')).href,
        name: 'hello.txt',
        mimeType: 'text/plain',
        size: 18,
      },
    ]);
  });

  it('reads a range of lines and says which part of the file it is', async () => {
    const result = await read({ path: 'hello.txt', startLine: 2, endLine: 3 });
    assert.deepEqual(texts(result), ['line2\nline3', 'Lines 2–3 of 3 shown.']);
    assert.deepEqual(result.structuredContent, {
      path: 'hello.txt',
      encoding: 'utf-8',
      startLine: 2,
      endLine: 3,
      totalLines: 3,
      truncated: false,
      content: 'line2\nline3',
    });
  });

  it('reads from startLine to the end, and one line when both ends are equal', async () => {
    assert.deepEqual(texts(await read({ path: 'hello.txt', startLine: 3 })), [
      'line3',
      'Lines 3–3 of 3 shown.',
    ]);
    assert.deepEqual(texts(await read({ path: 'hello.txt', startLine: 2, endLine: 2 })), [
      'line2',
      'Lines 2–2 of 3 shown.',
    ]);
    assert.deepEqual(texts(await read({ path: 'hello.txt', endLine: 1 })), [
      'line1',
      'Lines 1–1 of 3 shown.',
    ]);
  });

  it('refuses an inverted range and a range past the end, saying how to fix it', async () => {
    assert.equal(
      errorText(await read({ path: 'hello.txt', startLine: 3, endLine: 2 })),
      'endLine (2) must be greater than or equal to startLine (3); to read one line give the same number for both',
    );
    assert.equal(
      errorText(await read({ path: 'hello.txt', startLine: 9 })),
      'startLine 9 is past the end of file "hello.txt", which has 3 lines',
    );
  });

  it('answers schema violations with the field and what it accepts', async () => {
    assert.equal(
      errorText(await read({ path: 'hello.txt', startLine: 0 })),
      'Invalid arguments for tool "read_file":\n- startLine: must be >= 1 (got 0)',
    );
    assert.equal(
      errorText(await read({ path: 'hello.txt', encoding: 'ascii' })),
      'Invalid arguments for tool "read_file":\n- encoding: must be one of "auto", "utf-8", "utf-16le", "latin1" (got "ascii")',
    );
    assert.equal(
      errorText(await read({ path: '' })),
      'Invalid arguments for tool "read_file":\n- path: must have at least 1 character (got 0)',
    );
    assert.equal(
      errorText(await read({ file: 'hello.txt' })),
      'Invalid arguments for tool "read_file":\n- file: is not allowed (unknown property)\n- path: is required but missing',
    );
  });

  it('joins CRLF lines with "\\n" and counts a last line without a newline', async () => {
    assert.deepEqual((await read({ path: 'crlf.txt' })).structuredContent, {
      path: 'crlf.txt',
      encoding: 'utf-8',
      startLine: 1,
      endLine: 2,
      totalLines: 2,
      truncated: false,
      content: 'one\ntwo',
    });
    const result = await read({ path: 'no-newline.md' });
    assert.deepEqual(texts(result), ['# Title\nlast line']);
    assert.equal(links(result)[0]?.mimeType, 'text/markdown');
  });

  it('says an empty file is empty', async () => {
    const result = await read({ path: 'empty.txt' });
    assert.deepEqual(texts(result), ['The file is empty.']);
    assert.deepEqual(result.structuredContent, {
      path: 'empty.txt',
      encoding: 'utf-8',
      startLine: 1,
      endLine: 0,
      totalLines: 0,
      truncated: false,
      content: '',
    });
  });

  it('follows a symbolic link that stays inside the root and shows the real path', async () => {
    const result = await read({ path: 'link-in' });
    assert.deepEqual(texts(result), ['line1\nline2\nline3']);
    assert.equal(links(result)[0]?.name, 'hello.txt');
  });

  it('accepts an absolute path inside the root', async () => {
    assert.deepEqual(texts(await read({ path: join(root, 'sub', 'nested.ts') })), ['export const x = 1;']);
  });
});

describe('read_file: encodings', () => {
  const readAs = async (path: string, encoding?: string): Promise<unknown> => {
    const result = await read(encoding === undefined ? { path } : { path, encoding });
    const structured = result.structuredContent as { encoding: string; content: string };
    return { encoding: structured.encoding, content: structured.content };
  };

  it('detects UTF-16LE and UTF-16BE by their byte order marks', async () => {
    assert.deepEqual(await readAs('utf16le.txt'), { encoding: 'utf-16le', content: 'héllo\nwörld' });
    assert.deepEqual(await readAs('utf16be.txt'), { encoding: 'utf-16be', content: 'big endian ✓' });
  });

  it('strips a UTF-8 byte order mark', async () => {
    assert.deepEqual(await readAs('utf8-bom.txt'), { encoding: 'utf-8', content: 'bom text' });
  });

  it('falls back to latin1 for bytes that are not UTF-8', async () => {
    assert.deepEqual(await readAs('latin1.txt'), { encoding: 'latin1', content: 'café\nnaïve' });
  });

  it('uses an explicit encoding as given', async () => {
    assert.deepEqual(await readAs('utf8-bom.txt', 'latin1'), { encoding: 'latin1', content: 'ï»¿bom text' });
    assert.deepEqual(await readAs('utf16le.txt', 'utf-16le'), {
      encoding: 'utf-16le',
      content: 'héllo\nwörld',
    });
  });

  it('falls back to latin1 when invalid UTF-8 appears after the first 8 KiB (read again from the start)', async () => {
    const result = await read({ path: 'late-latin1.txt', startLine: 2 });
    assert.deepEqual(result.structuredContent, {
      path: 'late-latin1.txt',
      encoding: 'latin1',
      startLine: 2,
      endLine: 2,
      totalLines: 2,
      truncated: false,
      content: 'é',
    });
  });
});

describe('read_file: binary files and size limits', () => {
  it('refuses a file with NUL bytes', async () => {
    assert.equal(
      errorText(await read({ path: 'binary.bin' })),
      'file "binary.bin" is a binary file (NUL bytes in its first 8 KiB); read_file only returns text',
    );
  });

  it('refuses UTF-16 without a byte order mark, and says how to read it', async () => {
    const path = join(root, 'sub', 'deeper', 'utf16-no-bom.txt');
    await fs.writeFile(path, Buffer.from('plain words\n', 'utf16le'));
    try {
      assert.equal(
        errorText(await read({ path: 'sub/deeper/utf16-no-bom.txt' })),
        'file "sub/deeper/utf16-no-bom.txt" is a binary file (NUL bytes in its first 8 KiB); if it is UTF-16 text without a byte order mark, read it with encoding "utf-16le"',
      );
      assert.deepEqual(texts(await read({ path: 'sub/deeper/utf16-no-bom.txt', encoding: 'utf-16le' })), [
        'plain words',
      ]);
    } finally {
      await fs.rm(path);
    }
  });

  it('refuses a file that is mostly control characters', async () => {
    assert.equal(
      errorText(await read({ path: 'controls.dat' })),
      'file "controls.dat" is a binary file (34% control characters in its first 8 KiB); read_file only returns text',
    );
  });

  it('refuses a whole file over the limit and shows how to read it by lines', async () => {
    assert.equal(
      errorText(await read({ path: 'big.txt' })),
      'file "big.txt" is 1.5 MiB, over the 1 MiB limit for reading a whole file; read it in parts with startLine and endLine, for example {"path": "big.txt", "startLine": 1, "endLine": 200}',
    );
  });

  it('reads a range deep inside a file over the limit, streaming only what it needs', async () => {
    const result = await read({ path: 'big.txt', startLine: 100_000, endLine: 100_002 });
    assert.deepEqual(texts(result), [
      'line 100000\nline 100001\nline 100002',
      'Lines 100000–100002 shown; read on with startLine 100003.',
    ]);
    assert.deepEqual(result.structuredContent, {
      path: 'big.txt',
      encoding: 'utf-8',
      startLine: 100_000,
      endLine: 100_002,
      truncated: false,
      content: 'line 100000\nline 100001\nline 100002',
    });
  });

  it('reports progress while streaming a large range', async () => {
    const response = await client.request(
      'tools/call',
      modern(
        { name: 'read_file', arguments: { path: 'big.txt', startLine: 130_000 } },
        { progressToken: 'p1' },
      ),
      { timeoutMs: CALL_WAIT_MS },
    );
    assert.equal(response.result?.isError, undefined);
    const progress = client
      .notifications()
      .filter((message) => isNotification('notifications/progress')(message));
    assert.ok(progress.length > 0, 'at least one progress notification');
    assert.equal(progress.at(-1)?.params?.progressToken, 'p1');
    assert.equal(progress.at(-1)?.params?.total, 1.5 * MiB);
  });

  it('cuts a range at the output limit and says where to go on', async () => {
    const small = await filesClient([root], { maxReadBytes: 30 });
    const result = await read({ path: 'big.txt', startLine: 1 }, small);
    // Each line is 11 bytes plus the joining "\n": two lines are 23 bytes, a third would make 35.
    assert.deepEqual(texts(result), [
      'line 000001\nline 000002',
      'Lines 1–2 shown: the output reached the 30 bytes limit; read on with startLine 3.',
    ]);
    assert.deepEqual(result.structuredContent, {
      path: 'big.txt',
      encoding: 'utf-8',
      startLine: 1,
      endLine: 2,
      truncated: true,
      content: 'line 000001\nline 000002',
    });
  });

  it('cuts a single line longer than the limit', async () => {
    const small = await filesClient([root], { maxReadBytes: 100 });
    const result = await read({ path: 'long-line.txt', startLine: 1 }, small);
    assert.deepEqual(texts(result), [
      'x'.repeat(100),
      'Line 1 is longer than the 100 bytes output limit and was cut; read on with startLine 2.',
    ]);
    assert.equal((result.structuredContent as { truncated: boolean }).truncated, true);
    assert.equal(
      errorText(await read({ path: 'long-line.txt' }, small)),
      'file "long-line.txt" is 507 bytes, over the 100 bytes limit for reading a whole file; read it in parts with startLine and endLine, for example {"path": "long-line.txt", "startLine": 1, "endLine": 200}',
    );
  });
});

describe('read_file: hostile paths', () => {
  const outsideMessage = (path: string): string =>
    `path "${path}" is outside the allowed roots (${root}); use a path inside them`;

  it('refuses ../ traversal, lexically, before touching the file system', async () => {
    assert.equal(
      errorText(await read({ path: '../outside/secret.txt' })),
      outsideMessage('../outside/secret.txt'),
    );
    assert.equal(errorText(await read({ path: '../../etc/passwd' })), outsideMessage('../../etc/passwd'));
    assert.equal(
      errorText(await read({ path: 'sub/../../outside/secret.txt' })),
      outsideMessage('sub/../../outside/secret.txt'),
    );
  });

  it('treats backslashes as part of a name, not as separators', async () => {
    assert.equal(
      errorText(await read({ path: '..\\..\\etc\\passwd' })),
      'path "..\\..\\etc\\passwd" does not exist; list the directory to see what is there',
    );
  });

  it('refuses an absolute path outside the roots', async () => {
    assert.equal(errorText(await read({ path: '/etc/passwd' })), outsideMessage('/etc/passwd'));
  });

  it('refuses percent-encoded traversal', async () => {
    assert.equal(
      errorText(await read({ path: '%2e%2e%2fetc%2fpasswd' })),
      'path "%2e%2e%2fetc%2fpasswd" looks percent-encoded; give the plain path (for example "docs/a.txt")',
    );
  });

  it('refuses symbolic links that point outside, to a file or through a directory', async () => {
    const refused = (path: string): string =>
      `path "${path}" resolves outside the allowed roots through a symbolic link; it is refused`;
    assert.equal(errorText(await read({ path: 'link-out' })), refused('link-out'));
    assert.equal(
      errorText(await read({ path: 'linkdir-out/secret.txt' })),
      refused('linkdir-out/secret.txt'),
    );
  });

  it('refuses a symbolic link loop', async () => {
    assert.equal(errorText(await read({ path: 'loop-a' })), 'path "loop-a" is a symbolic link loop');
  });

  it('refuses a FIFO without blocking on it', async () => {
    assert.equal(
      errorText(await read({ path: 'fifo' })),
      'path "fifo" is a FIFO, not a regular file or directory; it is refused',
    );
  });

  it('refuses /dev/null reached through a link inside the root', async () => {
    assert.equal(
      errorText(await read({ path: 'devnull' })),
      'path "devnull" resolves outside the allowed roots through a symbolic link; it is refused',
    );
  });

  it('refuses a device inside a root', async () => {
    const devices = await filesClient(['/dev']);
    assert.equal(
      errorText(await read({ path: 'null' }, devices)),
      'path "null" is a device, not a regular file or directory; it is refused',
    );
  });

  it('refuses a directory, pointing to list_directory', async () => {
    assert.equal(
      errorText(await read({ path: 'sub' })),
      'path "sub" is a directory, not a file; use list_directory',
    );
  });

  it('refuses a missing file, pointing to list_directory', async () => {
    assert.equal(
      errorText(await read({ path: 'missing.txt' })),
      'path "missing.txt" does not exist; list the directory to see what is there',
    );
  });

  it('refuses NUL bytes in the path', async () => {
    assert.equal(errorText(await read({ path: 'hello.txt\u0000.png' })), 'path must not contain NUL bytes');
  });
});

describe('files pack: hard links (D1)', () => {
  let linked: string;

  before(async () => {
    linked = join(base, 'hard-root');
    await fs.mkdir(linked);
    await fs.link(join(outside, 'secret.txt'), join(linked, 'hard.txt'));
    await fs.writeFile(join(linked, 'single.txt'), 'one name\n');
  });

  it('reads a hard link to a file outside the root by default: it is that same file, under a name inside', async () => {
    const plain = await filesClient([linked]);
    assert.deepEqual(texts(await read({ path: 'hard.txt' }, plain)), ['top secret']);
  });

  it('D1 refuses a file with more than one hard link when refuseHardLinks is on, and still lists it', async () => {
    const strict = await filesClient([linked], undefined, { refuseHardLinks: true });
    assert.equal(
      errorText(await read({ path: 'hard.txt' }, strict)),
      'file "hard.txt" has 2 hard links, so it may be the same file as one outside the allowed roots; hard-linked files are refused here (refuseHardLinks is on)',
    );
    assert.deepEqual(texts(await read({ path: 'single.txt' }, strict)), ['one name']);
    assert.deepEqual(texts(await list({}, strict)), [
      'Directory ".": 2 entries.\n- hard.txt (file, 11 bytes)\n- single.txt (file, 9 bytes)',
    ]);
  });

  it('takes refuseHardLinks from the config file, for the roots every pack shares', async () => {
    const file = join(base, 'hard-links.json');
    await fs.writeFile(file, JSON.stringify({ roots: [linked], refuseHardLinks: true }));
    const loaded = await loadServeConfig({ config: file, cwd: base, logger: silentLogger, tools: ['files'] });
    assert.equal(loaded.roots.confinement.refuseHardLinks, true);
    assert.equal(readServeConfig({}, file).refuseHardLinks, false);
    assert.throws(
      () => readServeConfig({ refuseHardLinks: 'yes' }, file),
      new ConfigError('refuseHardLinks must be true or false; got "yes"'),
    );
  });
});

describe('files pack: several roots', () => {
  it('resolves relative paths in the first root, accepts absolute paths in any, and shows absolute paths', async () => {
    const second = join(base, 'second-root');
    await fs.mkdir(second);
    await fs.writeFile(join(second, 'other.txt'), 'in the second root\n');
    const both = await filesClient([root, second]);
    const first = await read({ path: 'hello.txt' }, both);
    assert.equal((first.structuredContent as { path: string }).path, join(root, 'hello.txt'));
    assert.deepEqual(texts(await read({ path: join(second, 'other.txt') }, both)), ['in the second root']);
    assert.equal(
      errorText(await read({ path: 'other.txt' }, both)),
      'path "other.txt" does not exist; list the directory to see what is there',
    );
    assert.equal(
      errorText(await read({ path: join(outside, 'secret.txt') }, both)),
      `path "${join(outside, 'secret.txt')}" is outside the allowed roots (${root}, ${second}); use a path inside them`,
    );
  });
});

describe('list_directory', () => {
  it('lists the root sorted by name with types and sizes, hiding dot entries and linking each file', async () => {
    const result = await list({});
    const [summary] = texts(result);
    assert.equal(
      summary,
      [
        'Directory ".": 22 entries.',
        '2 hidden entries (names starting with ".") not shown; set includeHidden to true to list them.',
        '- big.txt (file, 1.5 MiB)',
        '- binary.bin (file, 12 bytes)',
        '- controls.dat (file, 200 bytes)',
        '- crlf.txt (file, 10 bytes)',
        '- devnull (symbolic link, not followed)',
        '- empty-dir/ (directory)',
        '- empty.txt (file, 0 bytes)',
        '- fifo (other: device, FIFO or socket)',
        '- hello.txt (file, 18 bytes)',
        '- late-latin1.txt (file, 8.8 KiB)',
        '- latin1.txt (file, 11 bytes)',
        '- link-in (symbolic link, not followed)',
        '- link-out (symbolic link, not followed)',
        '- linkdir-out (symbolic link, not followed)',
        '- long-line.txt (file, 507 bytes)',
        '- loop-a (symbolic link, not followed)',
        '- loop-b (symbolic link, not followed)',
        '- no-newline.md (file, 17 bytes)',
        '- sub/ (directory)',
        '- utf16be.txt (file, 28 bytes)',
        '- utf16le.txt (file, 26 bytes)',
        '- utf8-bom.txt (file, 12 bytes)',
      ].join('\n'),
    );
    const structured = result.structuredContent as {
      entries: unknown[];
      totalEntries: number;
      truncated: boolean;
    };
    assert.equal(structured.totalEntries, 22);
    assert.equal(structured.truncated, false);
    assert.deepEqual(structured.entries.slice(0, 2), [
      { name: 'big.txt', type: 'file', size: 1.5 * MiB },
      { name: 'binary.bin', type: 'file', size: 12 },
    ]);
    assert.deepEqual(
      links(result).map((link) => link.name),
      [
        'big.txt',
        'binary.bin',
        'controls.dat',
        'crlf.txt',
        'empty.txt',
        'hello.txt',
        'late-latin1.txt',
        'latin1.txt',
        'long-line.txt',
        'no-newline.md',
        'utf16be.txt',
        'utf16le.txt',
        'utf8-bom.txt',
      ],
    );
  });

  it('shows hidden entries when asked', async () => {
    const result = await list({ path: '.', includeHidden: true, maxEntries: 2 });
    assert.deepEqual(texts(result), [
      [
        'Directory ".": 24 entries, showing the first 2 by name (raise maxEntries, up to 5000, to see more).',
        '- .config/ (directory)',
        '- .hidden (file, 7 bytes)',
      ].join('\n'),
    ]);
    assert.deepEqual(result.structuredContent, {
      path: '.',
      entries: [
        { name: '.config', type: 'directory' },
        { name: '.hidden', type: 'file', size: 7 },
      ],
      totalEntries: 24,
      hiddenOmitted: 0,
      truncated: true,
    });
    assert.deepEqual(links(result), [
      { type: 'resource_link', uri: pathToFileURL(join(root, '.hidden')).href, name: '.hidden', size: 7 },
    ]);
  });

  it('lists a subdirectory with paths relative to the root in links, and an empty one', async () => {
    const result = await list({ path: 'sub' });
    assert.deepEqual(texts(result), [
      'Directory "sub": 2 entries.\n- deeper/ (directory)\n- nested.ts (file, 20 bytes)',
    ]);
    assert.deepEqual(links(result), [
      {
        type: 'resource_link',
        uri: pathToFileURL(join(root, 'sub', 'nested.ts')).href,
        name: 'sub/nested.ts',
        mimeType: 'text/x-typescript',
        size: 20,
      },
    ]);
    assert.deepEqual(texts(await list({ path: 'empty-dir' })), ['Directory "empty-dir" is empty.']);
    assert.deepEqual(texts(await list({ path: '.config' })), ['Directory ".config" is empty.']);
  });

  it('caps resource links at the first 100 files', async () => {
    const many = join(root, 'many');
    await fs.mkdir(many);
    await Promise.all(
      Array.from({ length: 120 }, (_, index) =>
        fs.writeFile(join(many, `f${String(index).padStart(3, '0')}.txt`), 'x'),
      ),
    );
    try {
      const result = await list({ path: 'many', maxEntries: 5000 });
      assert.equal((result.structuredContent as { entries: unknown[] }).entries.length, 120);
      assert.equal(links(result).length, 100);
      assert.equal(links(result).at(-1)?.name, 'many/f099.txt');
    } finally {
      await fs.rm(many, { recursive: true });
    }
  });

  it('refuses a file, hostile paths, links out and bad limits with exact messages', async () => {
    assert.equal(errorText(await list({ path: 'hello.txt' })), 'path "hello.txt" is a file, not a directory');
    assert.equal(
      errorText(await list({ path: '..' })),
      `path ".." is outside the allowed roots (${root}); use a path inside them`,
    );
    assert.equal(
      errorText(await list({ path: 'linkdir-out' })),
      'path "linkdir-out" resolves outside the allowed roots through a symbolic link; it is refused',
    );
    assert.equal(errorText(await list({ path: 'loop-a' })), 'path "loop-a" is a symbolic link loop');
    assert.equal(
      errorText(await list({ path: 'fifo' })),
      'path "fifo" is a FIFO, not a regular file or directory; it is refused',
    );
    assert.equal(
      errorText(await list({ maxEntries: 0 })),
      'Invalid arguments for tool "list_directory":\n- maxEntries: must be >= 1 (got 0)',
    );
    assert.equal(
      errorText(await list({ maxEntries: 5001 })),
      'Invalid arguments for tool "list_directory":\n- maxEntries: must be <= 5000 (got 5001)',
    );
    assert.equal(
      errorText(await list({ includeHidden: 'yes' })),
      'Invalid arguments for tool "list_directory":\n- includeHidden: must be boolean, got string',
    );
  });
});
