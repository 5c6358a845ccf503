// no-import-cycle: fails on any cycle of relative imports among the files under a root (src/ by default),
// counting type-only imports too: a type-level cycle still means two files are one idea or a seam is missing.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const SOURCE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;
// Only a file that may hold `import(` (call or type) needs a full walk; the rest are read at the top level.
const IMPORT_CALL = /\bimport\s*\(/;

/**
 * Every module a file refers to: import and export-from declarations of every kind (type-only, side-effect,
 * `export * [as x]`), `import x = require()`, and `import('…')` with a literal, as a call or as a type.
 * One extractor for every file, the linted one included, so the report and the graph cannot disagree.
 */
function moduleReferences(text, fileName) {
  const options = {
    languageVersion: ts.ScriptTarget.Latest,
    jsDocParsingMode: ts.JSDocParsingMode.ParseNone,
  };
  const file = ts.createSourceFile(fileName, text, options, false, scriptKind(fileName));
  const found = [];
  const add = (node, specifier) => {
    if (specifier !== undefined && ts.isStringLiteralLike(specifier))
      found.push({ specifier: specifier.text, start: node.getStart(file), end: node.end });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node, node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node, node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(node, node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      add(node, node.argument.literal);
    if (deep) ts.forEachChild(node, visit);
  };
  const deep = IMPORT_CALL.test(text);
  for (const statement of file.statements) visit(statement);
  return found;
}

function scriptKind(fileName) {
  if (/\.[cm]?ts$/.test(fileName)) return ts.ScriptKind.TS;
  if (fileName.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (fileName.endsWith('.jsx')) return ts.ScriptKind.JSX;
  return ts.ScriptKind.JS;
}

/** The file a relative specifier names (.js → .ts as NodeNext maps it; extensionless and folders too), if in `files`. */
function resolveSpecifier(specifier, fromFile, files) {
  if (!(specifier === '.' || specifier === '..' || specifier.startsWith('./') || specifier.startsWith('../')))
    return undefined;
  const base = resolve(dirname(fromFile), specifier);
  const stem = base.replace(/\.[cm]?jsx?$/, '');
  const candidates = /\.jsx?$/.test(base)
    ? [`${stem}.ts`, `${stem}.tsx`, `${stem}.d.ts`, base]
    : base.endsWith('.mjs')
      ? [`${stem}.mts`, `${stem}.d.mts`, base]
      : base.endsWith('.cjs')
        ? [`${stem}.cts`, `${stem}.d.cts`, base]
        : [
            base,
            `${base}.ts`,
            `${base}.tsx`,
            `${base}.d.ts`,
            ...['index.ts', 'index.tsx', 'index.js'].map((n) => join(base, n)),
          ];
  return candidates.find((candidate) => files.has(candidate));
}

/**
 * The import graph of everything under one root, built once per lint process: ESLint lints the files one by one,
 * and rebuilding it per file would read the whole tree again for each. The linted file's own text replaces its
 * entry, so an unsaved editor buffer is judged as it is; the other files of a cycle found are read again before it
 * is reported, so a long-lived process (an editor) never reports a cycle that is no longer there.
 */
class ImportGraph {
  /** @type {Map<string, { text: string, references: ReturnType<typeof moduleReferences>, targets: (string|undefined)[] }>} */
  files = new Map();

  constructor(root) {
    this.root = root;
    const walk = (dir) => {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        return; // a root that does not exist has no cycles
      }
      for (const entry of entries) {
        if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.isFile() && SOURCE.test(entry.name)) this.files.set(path, undefined);
      }
    };
    walk(root);
    for (const path of [...this.files.keys()]) this.update(path, readFileSync(path, 'utf8'));
  }

  update(path, text) {
    const known = this.files.get(path);
    if (known !== undefined && known.text === text) return known;
    const references = moduleReferences(text, path);
    this.files.set(path, { text, references, targets: [] });
    const entry = this.files.get(path);
    entry.targets = references.map((reference) => resolveSpecifier(reference.specifier, path, this.files));
    return entry;
  }

  /** The files of `paths` whose text on disk is not what the graph holds, read again; true when there were any. */
  refresh(paths) {
    let changed = false;
    for (const path of paths) {
      let text = '';
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        // deleted since: it imports nothing now
      }
      if (this.files.get(path)?.text === text) continue;
      this.update(path, text);
      changed = true;
    }
    return changed;
  }

  /** The shortest chain of imports from `from` back to `to` (both included), or undefined when there is none. */
  pathBack(from, to) {
    const previous = new Map([[from, undefined]]);
    const queue = [from];
    for (let head = 0; head < queue.length; head++) {
      const current = queue[head];
      if (current === to) {
        const path = [];
        for (let at = current; at !== undefined; at = previous.get(at)) path.unshift(at);
        return path;
      }
      for (const next of this.files.get(current)?.targets ?? []) {
        if (next === undefined || previous.has(next)) continue;
        previous.set(next, current);
        queue.push(next);
      }
    }
    return undefined;
  }

  name(path) {
    return relative(this.root, path).split(sep).join('/');
  }
}

const graphs = new Map();

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow import cycles among the files under a root, type-only imports included (see docs/architecture.md).',
    },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string', description: 'The folder whose files form the graph (default src).' },
        },
        additionalProperties: false,
      },
    ],
    messages: { cycle: 'Import cycle: {{cycle}}' },
  },
  create(context) {
    const root = resolve(context.cwd, context.options[0]?.root ?? 'src');
    const file = context.filename;
    if (relative(root, file).startsWith('..') || !SOURCE.test(file)) return {};
    return {
      Program() {
        let graph = graphs.get(root);
        if (graph === undefined) graphs.set(root, (graph = new ImportGraph(root)));
        const { sourceCode } = context;
        const entry = graph.update(file, sourceCode.text);
        entry.references.forEach((reference, index) => {
          const target = entry.targets[index];
          if (target === undefined) return;
          let back = graph.pathBack(target, file);
          // Bounded: a file rewritten on every read would otherwise keep this going.
          for (let round = 0; back !== undefined && round < 3 && graph.refresh(back.slice(0, -1)); round++)
            back = graph.pathBack(target, file);
          if (back === undefined) return;
          context.report({
            loc: {
              start: sourceCode.getLocFromIndex(reference.start),
              end: sourceCode.getLocFromIndex(reference.end),
            },
            messageId: 'cycle',
            data: { cycle: [file, ...back].map((path) => graph.name(path)).join(' → ') },
          });
        });
      },
    };
  },
};
