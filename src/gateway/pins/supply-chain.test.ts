// C8 supply-chain findings: commands that fetch code at start without pinning it, in the spellings configs use.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { supplyChainFindings } from './supply-chain.js';

/** The `where` of each finding for `command args…`. */
const where = (command: string, ...args: string[]): string[] =>
  supplyChainFindings({ command, args }).map((finding) => finding.where);

const flagged = (command: string, ...args: string[]): boolean => where(command, ...args).length > 0;

describe('supplyChainFindings', () => {
  test('C8 npx of a package without an exact version is reported, naming what to pin', () => {
    assert.deepEqual(
      supplyChainFindings({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'] }),
      [
        {
          rule: 'unpinned-package',
          severity: 'warn',
          where: 'args[1]',
          detail:
            'npx fetches code at every start: "@modelcontextprotocol/server-github" has no version: pin it as "@modelcontextprotocol/server-github@<exact version>" (npm view @modelcontextprotocol/server-github version gives the latest)',
        },
      ],
    );
    assert.equal(
      supplyChainFindings({ command: 'npx', args: ['pkg@latest'] })[0]?.detail,
      'npx fetches code at every start: "pkg@latest" has version "latest", not an exact one: pin it as "pkg@<exact version>" (npm view pkg version gives the latest)',
    );
  });

  test('C8 npm-family spellings: flags before the package, -y, --package=, scoped packages', () => {
    const unpinned: Array<[string, ...string[]]> = [
      ['npx', 'pkg'],
      ['npx', 'pkg@latest'],
      ['npx', 'pkg@^1'],
      ['npx', 'pkg@~1.2.3'],
      ['npx', 'pkg@1'],
      ['npx', 'pkg@1.2'],
      ['npx', 'pkg@1.x'],
      ['npx', 'pkg@>=1.0.0'],
      ['npx', '-y', 'pkg'],
      ['npx', '--yes', '@scope/pkg'],
      ['npx', '-y', '@scope/pkg@next'],
      ['npx', '--registry', 'https://r.example', 'pkg'],
      ['npx', '--package=pkg', 'bin-name'],
      ['npx', '-p', '@scope/pkg@^2', 'bin'],
      ['npx', '--', 'pkg', '--flag'],
      ['npx', 'npm:pkg@latest'],
      ['npx', 'github:owner/repo'],
      ['npx', 'owner/repo#main'],
      ['npx', 'https://example.com/pkg.tgz'],
      ['/usr/local/bin/npx', 'pkg'],
      ['npx.cmd', '-y', 'pkg'],
      ['NPX.EXE', 'pkg'],
      ['npm', 'exec', 'pkg'],
      ['npm', 'exec', '--yes', '--', 'pkg@latest'],
      ['npm', 'x', '--package=@scope/pkg', '--', 'bin'],
      ['npm', '--yes', 'exec', 'pkg'],
      ['pnpm', 'dlx', 'pkg'],
      ['pnpm', 'dlx', '--package', 'pkg@^1', 'bin'],
      ['pnpx', 'pkg'],
      ['yarn', 'dlx', '-q', 'pkg'],
      ['yarn', 'dlx', '-p', 'pkg', 'bin'],
      ['bunx', 'pkg'],
      ['bunx', '--bun', '@scope/pkg@latest'],
      ['bun', 'x', 'pkg'],
      ['cmd', '/c', 'npx', '-y', 'pkg'],
      ['cmd.exe', '/C', 'npx', 'pkg'],
      ['env', 'NODE_ENV=production', 'npx', 'pkg'],
      ['sh', '-c', 'npx -y pkg --port 3'],
    ];
    for (const [command, ...args] of unpinned) {
      assert.ok(flagged(command, ...args), `${command} ${args.join(' ')} is reported`);
    }
    const pinned: Array<[string, ...string[]]> = [
      ['npx', 'pkg@1.2.3'],
      ['npx', '-y', '@scope/pkg@1.2.3'],
      ['npx', '--yes', '@scope/pkg@1.2.3-beta.1'],
      ['npx', 'pkg@1.2.3+build.5'],
      ['npx', 'pkg@v1.2.3'],
      ['npx', '--package=pkg@1.0.0', 'bin-name'],
      ['npx', '-p', '@scope/pkg@2.0.0', '-p', 'other@1.0.0', 'bin'],
      ['npx', './local-package'],
      ['npx', '/abs/package'],
      ['npx', 'file:../pkg'],
      ['npx', 'github:owner/repo#0123456789abcdef0123456789abcdef01234567'],
      ['npx', '-y', 'pkg@1.2.3', 'latest', '^1'],
      ['npm', 'exec', '--', 'pkg@1.2.3'],
      ['npm', 'install', 'pkg'],
      ['npm', 'run', 'start'],
      ['pnpm', 'dlx', 'pkg@1.2.3'],
      ['pnpm', 'exec', 'pkg'],
      ['yarn', 'dlx', 'pkg@1.2.3'],
      ['yarn', 'start'],
      ['bunx', 'pkg@1.2.3'],
      ['bun', 'run', 'server.ts'],
      ['node', 'server.js', 'npx', 'pkg'],
      ['npx'],
    ];
    for (const [command, ...args] of pinned) {
      assert.deepEqual(where(command, ...args), [], `${command} ${args.join(' ')} is not reported`);
    }
  });

  test('C8 the finding points at the word to pin', () => {
    assert.deepEqual(where('npx', '--registry', 'https://r.example', '-y', 'pkg', 'arg'), ['args[3]']);
    assert.deepEqual(where('npx', '-p', 'a@1.0.0', '-p', 'b', 'bin'), ['args[3]']);
    assert.deepEqual(where('npx', '--package=a', '--package=b@1.0.0', 'bin'), ['args[0]']);
    assert.deepEqual(where('cmd', '/c', 'npx', '-y', 'pkg'), ['args[3]']);
    assert.deepEqual(where('uvx', '--from', 'pkg', '--with', 'extra', 'cmd'), ['args[1]', 'args[3]']);
  });

  test('C8 uvx, uv tool run and pipx run without == are reported', () => {
    assert.equal(
      supplyChainFindings({ command: 'uvx', args: ['mcp-server-fetch'] })[0]?.detail,
      'uvx fetches code at every start: "mcp-server-fetch" has no version: pin it as "mcp-server-fetch==<exact version>"',
    );
    const unpinned: Array<[string, ...string[]]> = [
      ['uvx', 'pkg'],
      ['uvx', 'pkg>=1.0'],
      ['uvx', 'pkg~=1.0'],
      ['uvx', 'pkg==1.*'],
      ['uvx', 'pkg@latest'],
      ['uvx', '--python', '3.12', 'pkg'],
      ['uvx', '-q', '--from', 'pkg', 'cmd'],
      ['uvx', '--from=pkg[extra]>=2', 'cmd'],
      ['uvx', '--with', 'other', 'pkg==1.0'],
      ['uvx', '--from', 'git+https://github.com/o/r', 'cmd'],
      ['uvx', 'pkg @ git+https://github.com/o/r@main'],
      ['uv', 'tool', 'run', 'pkg'],
      ['uv', '--offline', 'tool', 'run', '--from', 'pkg', 'cmd'],
      ['pipx', 'run', 'pkg'],
      ['pipx', 'run', '--spec', 'pkg>=1', 'app'],
      ['pipx', 'run', '--python', 'python3.12', 'pkg'],
    ];
    for (const [command, ...args] of unpinned) {
      assert.ok(flagged(command, ...args), `${command} ${args.join(' ')} is reported`);
    }
    const pinned: Array<[string, ...string[]]> = [
      ['uvx', 'pkg==1.2.3'],
      ['uvx', 'pkg[cli]==1.2.3'],
      ['uvx', 'pkg===1.2.3'],
      ['uvx', 'pkg@1.2.3'],
      ['uvx', '--from', 'pkg==1.2.3', 'cmd', 'pkg'],
      ['uvx', '--from', 'git+https://github.com/o/r@0123456789abcdef0123456789abcdef01234567', 'cmd'],
      ['uvx', '--from', './local', 'cmd'],
      ['uv', 'run', 'server.py'],
      ['uv', 'tool', 'run', 'pkg==2.0.0'],
      ['pipx', 'run', 'pkg==1.0.0'],
      ['pipx', 'run', '--spec', 'pkg==1.0.0', 'app'],
      ['pipx', 'install', 'pkg'],
      ['python', '-m', 'pkg'],
    ];
    for (const [command, ...args] of pinned) {
      assert.deepEqual(where(command, ...args), [], `${command} ${args.join(' ')} is not reported`);
    }
  });

  test('C8 docker run of an image without @sha256: is reported, whatever the options before it', () => {
    assert.deepEqual(
      supplyChainFindings({ command: 'docker', args: ['run', '-i', '--rm', 'mcp/github:latest'] }),
      [
        {
          rule: 'unpinned-image',
          severity: 'warn',
          where: 'args[3]',
          detail:
            'docker run fetches code at every start: image "mcp/github:latest" is named by a tag, which its publisher can move: pin it by digest as "mcp/github@sha256:<digest>" (docker buildx imagetools inspect mcp/github shows it)',
        },
      ],
    );
    const digest = `sha256:${'a'.repeat(64)}`;
    const unpinned: Array<[string, ...string[]]> = [
      ['docker', 'run', 'img'],
      ['docker', 'run', '-it', '--rm', 'img:1.2'],
      ['docker', 'run', '-i', '-e', 'TOKEN', '-e', 'A=b', 'img'],
      ['docker', 'run', '-eTOKEN=x', '-p8080:80', 'img'],
      ['docker', 'run', '--env=TOKEN', '--volume', '/a:/b', '--name', 'x', 'ghcr.io/o/img:v1'],
      ['docker', 'run', '--rm', '--init', '--pull', 'always', 'localhost:5000/img'],
      ['docker', '--context', 'remote', 'run', 'img'],
      ['docker', 'container', 'run', 'img'],
      ['podman', 'run', '--rm', '-i', 'quay.io/o/img'],
      ['nerdctl', 'run', 'img'],
      ['/usr/bin/docker', 'run', 'img@sha256:short'],
    ];
    for (const [command, ...args] of unpinned) {
      assert.ok(flagged(command, ...args), `${command} ${args.join(' ')} is reported`);
    }
    const pinned: Array<[string, ...string[]]> = [
      ['docker', 'run', `img@${digest}`],
      ['docker', 'run', '-i', '--rm', '-e', 'TOKEN', `ghcr.io/o/img:v1@${digest}`, 'latest'],
      ['docker', 'run', '-eTOKEN', `img@${digest}`],
      ['podman', 'run', `img@${digest}`],
      ['docker', 'exec', 'container', 'cmd'],
      ['docker', 'start', 'x'],
    ];
    for (const [command, ...args] of pinned) {
      assert.deepEqual(where(command, ...args), [], `${command} ${args.join(' ')} is not reported`);
    }
  });

  test('C8 findings can be made to deny, and an HTTP upstream has none', () => {
    assert.equal(
      supplyChainFindings({ command: 'npx', args: ['pkg'] }, { unpinned: 'deny' })[0]?.severity,
      'deny',
    );
    assert.deepEqual(supplyChainFindings({ args: ['pkg'] }), []);
  });

  test('C8 a hostile spec shows no control or invisible character in the finding', () => {
    const [finding] = supplyChainFindings({ command: 'npx', args: ['pkg\u202e\u001b[2J'] });
    assert.ok(finding !== undefined);
    assert.ok(!finding.detail.includes('\u202e') && !finding.detail.includes('\u001b'));
    assert.match(finding.detail, /\\u202e/);
  });

  test('C8 wrappers nested without end stop', () => {
    const args = [...Array<string>(50).fill('env'), 'npx', 'pkg'];
    assert.deepEqual(where('env', ...args), []);
  });

  test('C8 any command line gives findings without throwing, each pointing at an argument that exists', () => {
    const word = fc.oneof(
      fc.constantFrom(
        'npx',
        'npm',
        'exec',
        'x',
        'pnpm',
        'dlx',
        'yarn',
        'bunx',
        'bun',
        'uvx',
        'uv',
        'tool',
        'run',
      ),
      fc.constantFrom(
        'pipx',
        'docker',
        'container',
        'cmd',
        '/c',
        'env',
        'sh',
        '-c',
        '--',
        '-p',
        '--package',
        '-y',
      ),
      fc.constantFrom(
        '--from',
        '--with',
        '--spec',
        '-e',
        '-it',
        '--package=',
        'pkg',
        'pkg@1.2.3',
        '@s/p@^1',
        'A=1',
      ),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(word, fc.array(word, { maxLength: 12 }), (command, args) => {
        for (const finding of supplyChainFindings({ command, args })) {
          const index = /^args\[(\d+)\]$/.exec(finding.where)?.[1];
          assert.ok(index !== undefined && Number(index) < args.length, finding.where);
        }
      }),
      { numRuns: 2000, seed: 8 },
    );
  });
});
