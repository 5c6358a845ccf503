// The handle a registration returns: enable, disable, update or remove one catalog entry at runtime.

import type { Catalog, CatalogEntry } from './catalog.js';
import type { ToolConfig } from './tool-definition.js';

/** A handle on a registered tool, prompt or resource, to change it at runtime (clients are told of every change). */
export interface Registered<Config> {
  /** The tool or prompt name, the resource URI or the URI template. */
  readonly name: string;
  enable(): void;
  disable(): void;
  update(changes: Partial<Config>): void;
  remove(): void;
}

export type RegisteredTool = Registered<ToolConfig>;

/** The handle of the entry `key` of `catalog`; an update compiles the merged config again, as registration did. */
export function handleFor<Config, E extends CatalogEntry & { config: Config }>(
  catalog: Catalog<E>,
  key: string,
  compile: (config: Config) => E,
): Registered<Config> {
  let current = key;
  return {
    get name() {
      return current;
    },
    enable: () => catalog.setEnabled(current, true),
    disable: () => catalog.setEnabled(current, false),
    update: (changes) => {
      current = catalog.replace(current, compile({ ...catalog.record(current).config, ...changes })).key;
    },
    remove: () => {
      catalog.remove(current);
    },
  };
}
