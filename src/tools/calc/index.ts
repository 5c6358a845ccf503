// The calc pack: a calculator tool that parses arithmetic itself (no eval), with bounded work per call.

import { ConfigError, type ToolPack } from '../pack.js';
import { calculateTool } from './calculate-tool.js';

export { CalcError, CALC_LIMITS } from './calc-error.js';
export { calculate } from './evaluate.js';
export { parse, type Node } from './parser.js';
export { calculateTool } from './calculate-tool.js';

/** The calc pack has no options: its config is `{}` (or absent). */
export type CalcConfig = Readonly<Record<string, never>>;

/** Per call; an expression is at most 1,000 characters, so this is a safety net, not a budget. */
export const CALC_DEFAULT_TIMEOUT_MS = 5_000;

const describeValue = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

export const calcPack: ToolPack<CalcConfig> = {
  name: 'calc',
  description:
    'calculate: evaluates arithmetic expressions (operators, functions, pi and e) safely, without eval.',
  parseConfig(raw, key) {
    if (raw === undefined) return {};
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new ConfigError(
        `${key} must be an object (got ${describeValue(raw)}); the calc pack takes no options, so use {}`,
      );
    }
    const [unknown] = Object.keys(raw);
    if (unknown !== undefined) {
      throw new ConfigError(
        `${key}.${unknown} is not an option: the calc pack takes no options (allowed keys: none)`,
      );
    }
    return {};
  },
  create(_config, environment) {
    return [calculateTool(environment.timeouts['calculate'] ?? CALC_DEFAULT_TIMEOUT_MS)];
  },
};
