// Small checks shared by the pack configs: a plain object with known keys, and whole numbers in a range.

import { ConfigError } from '../pack.js';

const describeValue = (value: unknown): string => {
  const json = JSON.stringify(value);
  return json === undefined ? String(value) : json.length > 60 ? `${json.slice(0, 60)}…` : json;
};

/** The config object itself: undefined means "all defaults"; anything else must be a plain object of known keys. */
export function configObject(raw: unknown, key: string, allowed: readonly string[]): Record<string, unknown> {
  if (raw === undefined) return {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(
      `${key} must be an object with the optional keys ${allowed.join(', ')}; got ${describeValue(raw)}`,
    );
  }
  for (const name of Object.keys(raw)) {
    if (!allowed.includes(name)) {
      throw new ConfigError(`${key} has an unknown key "${name}"; allowed keys: ${allowed.join(', ')}`);
    }
  }
  return raw as Record<string, unknown>; // checked just above: a non-array object
}

/** An optional whole number in [min, max]; `unit` ends the message ("bytes", "ms"). */
export function integerSetting(
  object: Record<string, unknown>,
  key: string,
  name: string,
  range: { min: number; max: number; fallback: number; unit: string },
): number {
  const value = object[name];
  if (value === undefined) return range.fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
    throw new ConfigError(
      `${key}.${name} must be a whole number of ${range.unit} from ${range.min} to ${range.max}; got ${describeValue(value)}`,
    );
  }
  return value;
}
