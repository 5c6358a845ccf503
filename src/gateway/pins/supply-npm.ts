// Supply-chain findings for the npm family (threat C8): npx, npm exec / npm x, pnpm dlx / pnpx, yarn dlx, bunx /
// bun x fetch a package at every start; a package spec without an exact version runs whatever was published last.

import { walkOptions, type Launch, type OptionSpec, type Unpinned, type Word } from './supply-words.js';

const EXACT_VERSION = /^[v=]?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const COMMIT = /#[0-9a-f]{40}$/i;

const json = (text: string): string => JSON.stringify(text);

/** Why an npm package spec is not pinned, or undefined when it is (an exact version, a commit, a local path). */
export function npmSpecProblem(spec: string): string | undefined {
  if (/^(?:\.{0,2}\/|~\/|file:|[A-Za-z]:\\)/.test(spec) || spec === '.' || spec === '..') return undefined;
  const bare = spec.startsWith('npm:') ? spec.slice(4) : spec;
  if (
    /^(?:git\+|git:|github:|gitlab:|bitbucket:|gist:)/.test(bare) ||
    /^[\w.-]+\/[\w.-]+(?:#.*)?$/.test(bare)
  ) {
    return COMMIT.test(bare)
      ? undefined
      : `${json(spec)} is a git reference, which moves: pin a commit (${json(`${bare.replace(/#.*$/, '')}#<40-hex commit>`)})`;
  }
  if (/^https?:\/\//.test(bare)) {
    return `${json(spec)} is fetched from a URL whose content can change: install from the registry with an exact version`;
  }
  const at = bare.indexOf('@', bare.startsWith('@') ? 1 : 0);
  const name = at < 0 ? bare : bare.slice(0, at);
  const version = at < 0 ? undefined : bare.slice(at + 1);
  if (version !== undefined && EXACT_VERSION.test(version)) return undefined;
  const given = version === undefined ? 'no version' : `version ${json(version)}, not an exact one`;
  return `${json(spec)} has ${given}: pin it as ${json(`${name}@<exact version>`)} (npm view ${name} version gives the latest)`;
}

const NPX: OptionSpec = {
  values: new Set([
    '--package',
    '-p',
    '--call',
    '-c',
    '--registry',
    '--cache',
    '--userconfig',
    '--workspace',
    '-w',
    '--node-options',
    '--shell',
    '--script-shell',
    '--loglevel',
    '--prefix',
  ]),
  shortFlags: new Set(['-y', '-q', '-s', '-d']),
  collect: new Set(['--package', '-p']),
};

const PNPM_DLX: OptionSpec = {
  values: new Set(['--package', '--allow-build', '--reporter', '--dir', '-C', '--registry']),
  shortFlags: new Set(['-c', '-s']),
  collect: new Set(['--package']),
};

const YARN_DLX: OptionSpec = {
  values: new Set(['--package', '-p']),
  shortFlags: new Set(['-q']),
  collect: new Set(['--package', '-p']),
};

const BUNX: OptionSpec = {
  values: new Set(['--package', '-p', '--registry', '--cwd']),
  collect: new Set(['--package', '-p']),
};

/** The launcher's package specs: those of --package when given (the positional is then a bin name), else the positional. */
function specs(words: readonly Word[], spec: OptionSpec): Unpinned[] {
  const walked = walkOptions(words, spec);
  const packages =
    walked.collected.length > 0
      ? walked.collected
      : walked.positional === undefined
        ? []
        : [walked.positional];
  const out: Unpinned[] = [];
  for (const word of packages) {
    const problem = npmSpecProblem(word.text);
    if (problem !== undefined) out.push({ word, detail: problem });
  }
  return out;
}

/**
 * The unpinned specs of an npm-family launch, or undefined when `program` is not one that fetches. `words` are the
 * arguments after the program.
 */
export function npmFamily(program: string, words: readonly Word[]): Launch | undefined {
  const first = walkOptions(words, { values: new Set() }).positional;
  const after = first === undefined ? [] : words.slice(words.indexOf(first) + 1);
  const launch = (tool: string, unpinned: Unpinned[]): Launch => ({
    tool,
    rule: 'unpinned-package',
    unpinned,
  });
  switch (program) {
    case 'npx':
      return launch('npx', specs(words, NPX));
    case 'npm':
      return first?.text === 'exec' || first?.text === 'x'
        ? launch(`npm ${first.text}`, specs(after, NPX))
        : undefined;
    case 'pnpx':
      return launch('pnpx', specs(words, PNPM_DLX));
    case 'pnpm':
      return first?.text === 'dlx' ? launch('pnpm dlx', specs(after, PNPM_DLX)) : undefined;
    case 'yarn':
      return first?.text === 'dlx' ? launch('yarn dlx', specs(after, YARN_DLX)) : undefined;
    case 'bunx':
      return launch('bunx', specs(words, BUNX));
    case 'bun':
      return first?.text === 'x' ? launch('bun x', specs(after, BUNX)) : undefined;
    default:
      return undefined;
  }
}
