// Files of this package, found from its root rather than from the module asking: the code runs from src/ (tests,
// under a TypeScript loader), or bundled from dist/, where a module's code may sit in a shared chunk anywhere under
// dist/ and a path relative to its own file would point nowhere.

/** True when this code runs from the TypeScript sources (a .ts module), false from the built package. */
export const fromSource = import.meta.url.endsWith('.ts');

/** A file of this package by its path from the package root (package.json's directory). */
export function packageFile(path: string): URL {
  // The package resolves itself by name (package.json's "exports" has ./package.json): wherever it is installed.
  return new URL(path, import.meta.resolve('toolwire/package.json'));
}

/**
 * A module of this package that runs on its own (a worker thread's or a child process's entry), by its path under
 * src/ without extension: the .ts source when running from source, the built .js under dist/ otherwise.
 */
export function ownModule(path: string): URL {
  return packageFile(fromSource ? `src/${path}.ts` : `dist/${path}.js`);
}
