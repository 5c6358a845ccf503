// What an error must not tell a client (threat E5): stack frames, this machine's filesystem paths, and internal host
// names and addresses. The model still reads what went wrong; the audit keeps the original (see sanitise.ts).

import { homedir, tmpdir } from 'node:os';

export const INTERNAL_PATH = '[internal path]';
export const INTERNAL_HOST = '[internal host]';
export const STACK_REMOVED = '    [stack trace removed]';

/** A stack frame line: "    at fn (/app/x.js:1:2)", "    at async Promise.all (index 0)", Java's "at a.B.c(B.java:9)". */
const FRAME_START = /^[ \t]+at[ \t]/;
const FRAME_END = /(?::\d+(?::\d+)?\)?|\((?:native|<anonymous>|index \d+)\))[ \t]*$/;
/** Python's frames: `  File "/app/x.py", line 3, in f`. */
const PYTHON_FRAME = /^[ \t]+File "[^"\n]*", line \d+/;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first directory of a path this process knows (its cwd, home, temp dir), so "/work/…" counts when it runs there. */
function localRoots(): string[] {
  const roots = new Set<string>();
  for (const dir of [process.cwd(), homedir(), tmpdir()]) {
    const first = /^\/([^/]+)\//.exec(`${dir}/`)?.[1];
    if (first !== undefined && first.length <= 64) roots.add(escapeRegExp(first));
  }
  return [...roots];
}

/** Top directories of Unix-like systems and containers. A path must go one level below them to count. */
const ROOTS = [
  'home',
  'Users',
  'root',
  'usr',
  'var',
  'opt',
  'srv',
  'tmp',
  'etc',
  'app',
  'apps',
  'mnt',
  'proc',
  'private',
  'workspace',
  'workspaces',
  'work',
  'lib',
  'lib64',
  'bin',
  'sbin',
  'run',
  'snap',
  'nix',
  'data',
  'code',
  'builds',
  'Library',
  'Volumes',
  'media',
  'dev',
  'sys',
  'boot',
];

/** Path characters: a path ends at white space, quotes, brackets, a comma or semicolon, and a colon (":12:5" stays). */
const PATH_CHARS = String.raw`[^\s'"\`<>()\[\]{},;:]`;

const PATHS = new RegExp(
  [
    // file:… URLs, and /root/… not inside a URL or a longer word
    String.raw`(?<![\w.+-])file:/${PATH_CHARS}*`,
    String.raw`(?<![\w.~/-])/(?:${[...new Set([...ROOTS, ...localRoots()])].join('|')})/${PATH_CHARS}*`,
    // C:\… and \\server\share\…
    String.raw`(?<![\w])[A-Za-z]:\\[^\s'"\`<>()\[\]{},;:]*`,
    String.raw`(?<![\w\\])\\\\[A-Za-z0-9._-]{1,64}\\[^\s'"\`<>()\[\]{},;:]*`,
  ].join('|'),
  'g',
);

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** Private, loopback, link-local (cloud metadata) and shared (CGNAT) IPv4 addresses; ULA and link-local IPv6. */
const INTERNAL_IP = [
  `10(?:\\.${OCTET}){3}`,
  `172\\.(?:1[6-9]|2\\d|3[01])(?:\\.${OCTET}){2}`,
  `192\\.168(?:\\.${OCTET}){2}`,
  `127(?:\\.${OCTET}){3}`,
  `169\\.254(?:\\.${OCTET}){2}`,
  `100\\.(?:6[4-9]|[7-9]\\d|1[01]\\d|12[0-7])(?:\\.${OCTET}){2}`,
].join('|');
const IPV4 = `(?<![\\w.])(?:${INTERNAL_IP})(?![\\w]|\\.\\d)`;
const IPV6 = String.raw`(?<![\w:])(?:f[cd][0-9a-f]{2}|fe[89ab][0-9a-f]):[0-9a-f:]{2,40}(?![\w:])`;
/** Names under internal suffixes: .internal, .local (and .cluster.local, .svc.cluster.local), .lan, .corp, .home.arpa… */
const INTERNAL_NAME = String.raw`(?<![\w.-])(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.){1,16}(?:internal|local|localdomain|lan|corp|intranet|intra|home\.arpa|svc|private)(?![\w-]|\.[a-z0-9])`;
const HOSTS = new RegExp(`${IPV4}|${IPV6}|${INTERNAL_NAME}`, 'gi');

/** Collapses each run of stack frame lines into one line saying a trace was there. */
function removeFrames(text: string): string {
  if (!/\n[ \t]+(?:at|File)[ \t]/.test(text) && !/^[ \t]+(?:at|File)[ \t]/.test(text)) return text;
  const out: string[] = [];
  let inTrace = false;
  let afterPythonFrame = false;
  for (const line of text.split('\n')) {
    const python = PYTHON_FRAME.test(line);
    const frame = python || (FRAME_START.test(line) && FRAME_END.test(line));
    // Python prints the source line, indented deeper, under each frame: it belongs to the trace.
    if (frame || (afterPythonFrame && /^[ \t]{4,}\S/.test(line))) {
      if (!inTrace) out.push(STACK_REMOVED);
      inTrace = true;
      afterPythonFrame = python;
      continue;
    }
    inTrace = false;
    afterPythonFrame = false;
    out.push(line);
  }
  return out.join('\n');
}

/** The text with stack frames, local paths and internal hosts masked; the same string when there was none. */
export function maskInternals(text: string): string {
  const framesGone = removeFrames(text);
  const pathsGone = framesGone.replace(PATHS, INTERNAL_PATH);
  return pathsGone.replace(HOSTS, INTERNAL_HOST);
}
