// What a built-in tool pack is: a name, its configuration (validated at startup) and the tools it creates.

import type { Logger, ToolConfig } from '../server/index.js';
import type { Roots } from './roots.js';

/** A configuration mistake, found at startup; the message names the key and what it accepts. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface PackEnvironment {
  roots: Roots;
  logger: Logger;
  /** Per-tool time limits from the operator's config, by tool name. */
  timeouts: Readonly<Record<string, number>>;
}

export interface ToolPack<Config> {
  readonly name: string;
  readonly description: string;
  /** Turns the raw `packs.<name>` object of the config file (or undefined) into a checked config; `key` names it in errors. */
  parseConfig(raw: unknown, key: string): Config;
  create(config: Config, environment: PackEnvironment): ToolConfig[];
}
