// Reads a V8 .cpuprofile (node --cpu-prof) and says where the time went: self time per function and per package.

import { readFileSync } from 'node:fs';

const where = (url) => {
  if (url === '') return '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules !== null) return modules[1];
  if (url.includes('/dist/')) return 'toolwire';
  if (url.includes('/bench/')) return 'bench server';
  return url;
};

const shortUrl = (url) => url.replace(/^file:\/\//, '').replace(/^.*?(node_modules\/|dist\/|bench\/)/, '$1');

/** Top functions by self time, and time per package, as printable lines. */
export function summarizeProfile(file, top = 25) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map();
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i] ?? 0));
  }
  let total = 0;
  const functions = new Map();
  const packages = new Map();
  for (const [id, us] of selfUs) {
    const frame = byId.get(id).callFrame;
    total += us;
    const name = frame.functionName || '(anonymous)';
    const key =
      frame.url === ''
        ? name
        : `${name}  ${shortUrl(frame.url)}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
    const pkg = where(frame.url);
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
  }
  const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
  const lines = [`profile ${file}: ${(total / 1e6).toFixed(2)} s of samples`, '', 'self time by package:'];
  for (const [pkg, us] of [...packages].sort((a, b) => b[1] - a[1]).slice(0, 12))
    lines.push(`  ${pct(us)}  ${pkg}`);
  lines.push('', `top ${top} functions by self time:`);
  for (const [key, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${pct(us)}  ${key}`);
  return lines.join('\n');
}
