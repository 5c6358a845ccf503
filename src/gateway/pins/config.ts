// Where the gateway's pin store is: toolwire.json's "gateway.pins" (a path, relative to the config file's directory),
// by default <config dir>/.toolwire/pins.sqlite. The config reader is the gateway core's; this reads only that member.

import { join, resolve } from 'node:path';
import { PinError } from './types.js';

export const DEFAULT_PIN_STORE = join('.toolwire', 'pins.sqlite');

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The pin store's absolute path for a parsed toolwire.json (`config`) read from `configDir`. */
export function pinStorePath(config: unknown, configDir: string): string {
  const gateway = isObject(config) && Object.hasOwn(config, 'gateway') ? config.gateway : undefined;
  if (gateway !== undefined && !isObject(gateway)) {
    throw new PinError('config', '"gateway" in toolwire.json must be an object');
  }
  const pins = gateway !== undefined && Object.hasOwn(gateway, 'pins') ? gateway.pins : undefined;
  if (pins === undefined) return resolve(configDir, DEFAULT_PIN_STORE);
  if (typeof pins !== 'string' || pins.trim() === '' || pins.includes('\0')) {
    throw new PinError('config', '"gateway.pins" in toolwire.json must be a file path (a non-empty string)');
  }
  return resolve(configDir, pins);
}
