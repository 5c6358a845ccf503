// Supply-chain findings for containers (threat C8): `docker run` (and podman, nerdctl) of an image named by a tag
// runs whatever the tag points at today; only `@sha256:` names one image for good.

import { walkOptions, type Launch, type OptionSpec, type Word } from './supply-words.js';

const DIGEST = /@sha256:[0-9a-f]{64}$/;

/** Why an image reference is not pinned, or undefined when it names a digest. */
export function imageProblem(image: string): string | undefined {
  if (DIGEST.test(image)) return undefined;
  const repository = image.replace(/@.*$/, '').replace(/:[^/:]*$/, '');
  return `image ${JSON.stringify(image)} is named by a tag, which its publisher can move: pin it by digest as ${JSON.stringify(`${repository}@sha256:<digest>`)} (docker buildx imagetools inspect ${repository} shows it)`;
}

/** The value-taking options of `docker run` (and podman's, nerdctl's common ones); the rest are flags. */
const RUN: OptionSpec = {
  values: new Set(
    [
      'add-host',
      'annotation',
      'attach',
      'blkio-weight',
      'blkio-weight-device',
      'cap-add',
      'cap-drop',
      'cgroup-parent',
      'cgroupns',
      'cidfile',
      'cpu-period',
      'cpu-quota',
      'cpu-rt-period',
      'cpu-rt-runtime',
      'cpu-shares',
      'cpus',
      'cpuset-cpus',
      'cpuset-mems',
      'detach-keys',
      'device',
      'device-cgroup-rule',
      'device-read-bps',
      'device-read-iops',
      'device-write-bps',
      'device-write-iops',
      'dns',
      'dns-option',
      'dns-search',
      'domainname',
      'entrypoint',
      'env',
      'env-file',
      'expose',
      'gpus',
      'group-add',
      'health-cmd',
      'health-interval',
      'health-retries',
      'health-start-interval',
      'health-start-period',
      'health-timeout',
      'hostname',
      'ip',
      'ip6',
      'ipc',
      'isolation',
      'kernel-memory',
      'label',
      'label-file',
      'link',
      'link-local-ip',
      'log-driver',
      'log-opt',
      'mac-address',
      'memory',
      'memory-reservation',
      'memory-swap',
      'memory-swappiness',
      'mount',
      'name',
      'network',
      'net',
      'network-alias',
      'net-alias',
      'oom-score-adj',
      'pid',
      'pids-limit',
      'platform',
      'publish',
      'pull',
      'restart',
      'runtime',
      'security-opt',
      'shm-size',
      'stop-signal',
      'stop-timeout',
      'storage-opt',
      'sysctl',
      'tmpfs',
      'ulimit',
      'user',
      'userns',
      'uts',
      'volume',
      'volume-driver',
      'volumes-from',
      'workdir',
      'arch',
      'os',
      'variant',
      'secret',
      'pod',
      'cgroups',
    ]
      .map((name) => `--${name}`)
      .concat(['-a', '-c', '-e', '-h', '-l', '-m', '-p', '-u', '-v', '-w']),
  ),
};

/** Global options of docker/podman that take a value, before the subcommand. */
const GLOBAL: OptionSpec = {
  values: new Set([
    '--config',
    '--context',
    '-c',
    '--host',
    '-H',
    '--log-level',
    '-l',
    '--tlscacert',
    '--tlscert',
    '--tlskey',
    '--root',
    '--runroot',
    '--url',
    '--connection',
    '--namespace',
    '-n',
    '--address',
    '-a',
  ]),
};

const ENGINES = new Set(['docker', 'podman', 'nerdctl']);

/** The unpinned image of a container launch, or undefined when `program` is not a container engine running one. */
export function dockerFamily(program: string, words: readonly Word[]): Launch | undefined {
  if (!ENGINES.has(program)) return undefined;
  let walked = walkOptions(words, GLOBAL);
  let tool = program;
  if (walked.positional?.text === 'container') {
    tool += ' container';
    walked = walkOptions(walked.rest, { values: new Set() });
  }
  if (walked.positional?.text !== 'run') return undefined;
  tool += ' run';
  const image = walkOptions(walked.rest, RUN).positional;
  if (image === undefined) return { tool, rule: 'unpinned-image', unpinned: [] };
  const problem = imageProblem(image.text);
  return {
    tool,
    rule: 'unpinned-image',
    unpinned: problem === undefined ? [] : [{ word: image, detail: problem }],
  };
}
