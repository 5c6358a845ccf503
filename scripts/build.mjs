// Builds dist/: tsc compiles src/ (type-checked, with declarations) into a staging directory, then esbuild bundles
// the package's entry points into ES modules that share chunks. A server or the CLI then loads a handful of files
// instead of ~90: `import 'toolwire'` + `toolwire/stdio` took 41 ms over a bare `node -e 0`, 16 ms bundled (see
// docs/architecture.md, "dist/ is bundled"). Declarations are copied as tsc wrote them, so types do not change.
//
// Entry points: every "exports" target of package.json, the CLI (bin/toolwire.js imports dist/cli/main.js), and the
// modules started on their own by path (src/own-files.ts's ownModule). Dependencies stay imports (packages:
// 'external'); code shared by two entries lives once, in dist/chunks/, so a class or a module-level registry is
// the same object whichever subpath a program imports it through.

import { cpSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const STAGE = join(ROOT, '.build-tsc');
const DIST = join(ROOT, 'dist');
/** Modules run by path, not imported: a worker thread's entry, a child process's entry. */
const RUN_BY_PATH = ['cli/main', 'cli/dev-child', 'policy/audit/sqlite-thread-worker'];

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const exported = Object.values(manifest.exports)
  .map((target) => (typeof target === 'string' ? target : target.default))
  .filter((target) => target.startsWith('./dist/') && target.endsWith('.js'))
  .map((target) => target.slice('./dist/'.length, -'.js'.length));
const entries = [...new Set([...exported, ...RUN_BY_PATH])].map((path) => join(STAGE, `${path}.js`));

rmSync(DIST, { recursive: true, force: true });
rmSync(STAGE, { recursive: true, force: true });
try {
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', STAGE],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);

  await build({
    entryPoints: entries,
    outdir: DIST,
    outbase: STAGE,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
    legalComments: 'none',
    logLevel: 'warning',
  });

  // The declarations, where tsc put them (dist/index.d.ts and the files it refers to).
  const copyDeclarations = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) copyDeclarations(path);
      else if (name.endsWith('.d.ts')) cpSync(path, join(DIST, relative(STAGE, path)));
    }
  };
  copyDeclarations(STAGE);
} finally {
  rmSync(STAGE, { recursive: true, force: true });
}
