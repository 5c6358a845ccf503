// Supply-chain findings for Python launchers (threat C8): uvx / uv tool run and pipx run install a package at start;
// a requirement without `==` (or uvx's `@version`) runs whatever was published last.

import { walkOptions, type Launch, type OptionSpec, type Unpinned, type Word } from './supply-words.js';

const json = (text: string): string => JSON.stringify(text);

const NAME = /^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?/;

/** Why a Python requirement is not pinned, or undefined when it is (==/=== an exact version, a commit, a local path). */
export function pythonSpecProblem(spec: string, atVersion: boolean): string | undefined {
  const text = spec.trim();
  if (/^(?:\.{0,2}\/|~\/|file:|[A-Za-z]:\\)/.test(text) || text === '.' || text === '..') return undefined;
  const direct = /^(?:[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[^\]]*\])?\s*@\s*)?(git\+\S+|https?:\/\/\S+)$/.exec(
    text,
  );
  if (direct !== null) {
    return /@[0-9a-f]{40}(?:#.*)?$/i.test(direct[1] ?? '')
      ? undefined
      : `${json(spec)} is fetched from a URL or git reference that can move: pin a commit (…@<40-hex commit>) or a registry version with ==`;
  }
  const name = NAME.exec(text);
  if (name === null)
    return `${json(spec)} is not a requirement toolwire can read: pin it as "<package>==<exact version>"`;
  const rest = text.slice(name[0].length).trim();
  if (/^===?\s*[^*,;\s]+$/.test(rest)) return undefined;
  if (atVersion && /^@\d[\w.+!-]*$/.test(rest)) return undefined;
  const given = rest === '' ? 'no version' : `${json(rest)}, not an exact version`;
  return `${json(spec)} has ${given}: pin it as ${json(`${name[1] ?? ''}${name[2] ?? ''}==<exact version>`)}`;
}

const UVX: OptionSpec = {
  values: new Set([
    '--from',
    '--with',
    '--with-editable',
    '--with-requirements',
    '--python',
    '-p',
    '--index',
    '--index-url',
    '-i',
    '--extra-index-url',
    '--default-index',
    '--find-links',
    '-f',
    '--cache-dir',
    '--directory',
    '--project',
    '--config-file',
    '--constraints',
    '--constraint',
    '-c',
    '--overrides',
    '--build-constraints',
    '-b',
    '--color',
    '--index-strategy',
    '--keyring-provider',
    '--resolution',
    '--prerelease',
    '--exclude-newer',
    '--link-mode',
    '--env-file',
    '--allow-insecure-host',
    '--python-platform',
    '--upgrade-package',
    '-P',
    '--reinstall-package',
    '--refresh-package',
  ]),
  collect: new Set(['--from', '--with']),
};

const PIPX_RUN: OptionSpec = {
  values: new Set(['--spec', '--python', '--pip-args', '--index-url', '-i', '--backend', '--fetch-python']),
  collect: new Set(['--spec']),
};

function check(words: readonly Word[], atVersion: boolean): Unpinned[] {
  const out: Unpinned[] = [];
  const push = (word: Word): void => {
    const problem = pythonSpecProblem(word.text, atVersion);
    if (problem !== undefined) out.push({ word, detail: problem });
  };
  for (const word of words) push(word);
  return out;
}

/** The unpinned requirements of a Python launch, or undefined when `program` is not one that fetches. */
export function pythonFamily(program: string, words: readonly Word[]): Launch | undefined {
  const first = walkOptions(words, { values: new Set() }).positional;
  const after = first === undefined ? [] : words.slice(words.indexOf(first) + 1);
  const uvx = (tool: string, rest: readonly Word[]): Launch => {
    const walked = walkOptions(rest, UVX);
    const from = walked.collected.filter((word) => word.option === '--from');
    const withs = walked.collected.filter((word) => word.option === '--with');
    // With --from, the positional word is the command the package provides, not a requirement.
    const main = from.length > 0 ? from : walked.positional === undefined ? [] : [walked.positional];
    return { tool, rule: 'unpinned-package', unpinned: [...check(main, true), ...check(withs, false)] };
  };
  if (program === 'uvx') return uvx('uvx', words);
  if (program === 'uv' && first?.text === 'tool') {
    const second = walkOptions(after, { values: new Set() }).positional;
    if (second?.text !== 'run') return undefined;
    return uvx('uv tool run', after.slice(after.indexOf(second) + 1));
  }
  if (program === 'pipx' && first?.text === 'run') {
    const walked = walkOptions(after, PIPX_RUN);
    const main =
      walked.collected.length > 0
        ? walked.collected
        : walked.positional === undefined
          ? []
          : [walked.positional];
    return { tool: 'pipx run', rule: 'unpinned-package', unpinned: check(main, false) };
  }
  return undefined;
}
