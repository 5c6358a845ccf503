// Supply-chain findings for one upstream (threat C8: "registration pins an image digest, package version or URL"):
// a stdio command that fetches code at every start without pinning what it fetches — npx/npm exec/pnpm dlx/yarn
// dlx/bunx of a package without an exact version, uvx/uv tool run/pipx run without ==, docker/podman run of an image
// without @sha256: — is reported, naming exactly what to pin. A pure function of the configured command line.

import type { Finding } from '../scan/index.js';
import type { UpstreamConfig } from '../upstream/index.js';
import { dockerFamily } from './supply-docker.js';
import { npmFamily } from './supply-npm.js';
import { pythonFamily } from './supply-python.js';
import type { Launch, Word } from './supply-words.js';
import { visibleLine } from './visible.js';

export interface SupplyChainOptions {
  /** What an unpinned fetch is: 'warn' (the default) reports it and starts the server; 'deny' does not start it. */
  unpinned?: 'warn' | 'deny';
}

/** How deep wrappers (`cmd /c`, `env`, `sh -c`) are looked through: a config nests one, a loop must end. */
const MAX_WRAPPERS = 4;

/** The program's name as launchers are told apart: no directory, no Windows extension, lower case. */
const programName = (command: string): string =>
  (command.split(/[\\/]/).pop() ?? command).toLowerCase().replace(/\.(?:cmd|exe|bat|ps1)$/, '');

function launches(program: string, words: readonly Word[], depth: number): Launch | undefined {
  const name = programName(program);
  if (depth < MAX_WRAPPERS) {
    // cmd /c PROGRAM ARGS… (how Windows configs start npx), env [-i] [NAME=VALUE…] PROGRAM ARGS…
    if (name === 'cmd' && /^\/c$/i.test(words[0]?.text ?? '') && words[1] !== undefined) {
      return launches(words[1].text, words.slice(2), depth + 1);
    }
    if (name === 'env') {
      let at = 0;
      while (at < words.length && /^(?:-|[A-Za-z_][A-Za-z0-9_]*=)/.test(words[at]?.text ?? '')) at++;
      const inner = words[at];
      if (inner !== undefined) return launches(inner.text, words.slice(at + 1), depth + 1);
    }
    // sh -c 'npx pkg': the script's words, split at blanks (a heuristic; quotes inside it are not read).
    if (/^(?:sh|bash|zsh|dash)$/.test(name) && words[0]?.text === '-c' && words[1] !== undefined) {
      const script = words[1];
      const parts = script.text
        .trim()
        .split(/\s+/)
        .map((text) => ({ text, index: script.index }));
      const head = parts[0];
      if (head !== undefined) return launches(head.text, parts.slice(1), depth + 1);
    }
  }
  return npmFamily(name, words) ?? pythonFamily(name, words) ?? dockerFamily(name, words);
}

/** The findings for `config` (none for an HTTP upstream: its URL is pinned by the server pin itself). */
export function supplyChainFindings(
  config: Pick<UpstreamConfig, 'command' | 'args'>,
  options: SupplyChainOptions = {},
): Finding[] {
  if (config.command === undefined) return [];
  const words = (config.args ?? []).map((text, index) => ({ text, index }));
  const found = launches(config.command, words, 0);
  if (found === undefined) return [];
  const severity = options.unpinned ?? 'warn';
  return found.unpinned.map(({ word, detail }) => ({
    rule: found.rule,
    severity,
    where: word.index < 0 ? 'command' : `args[${word.index}]`,
    detail: visibleLine(`${found.tool} fetches code at every start: ${detail}`),
  }));
}
