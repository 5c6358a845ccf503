// structuredContent checked again after cleaning changed its strings: against the tool's outputSchema, compiled at
// first use with the project's schema compiler and kept per target (targets are made once per registration).

import { compileSchema, formatIssues, type CompiledSchema } from '../../schema/index.js';
import type { ToolTarget } from '../../server/index.js';

/** A compiled schema, or the reason it could not be compiled (then no changed output can be trusted to fit). */
type Checker = CompiledSchema | { readonly failed: string };

const checkers = new WeakMap<ToolTarget, Checker>();

function checkerFor(target: ToolTarget): Checker | undefined {
  const schema = target.definition.outputSchema;
  if (schema === undefined) return undefined;
  let checker = checkers.get(target);
  if (checker === undefined) {
    try {
      checker = compileSchema(schema, {
        role: 'output',
        owner: `tool "${target.name}"`,
      });
    } catch (error) {
      checker = { failed: error instanceof Error ? error.message : String(error) };
    }
    checkers.set(target, checker);
  }
  return checker;
}

/** Undefined when the value still fits the tool's outputSchema (or it has none); otherwise why not. */
export async function outputMismatch(target: ToolTarget, value: unknown): Promise<string | undefined> {
  const checker = checkerFor(target);
  if (checker === undefined) return undefined;
  if ('failed' in checker) return checker.failed;
  const outcome = checker.validate(value);
  const checked = outcome instanceof Promise ? await outcome : outcome;
  if (checked.ok) return undefined;
  return formatIssues(
    checked.issues,
    `Cleaned output of tool "${target.name}" does not match its outputSchema`,
  );
}
