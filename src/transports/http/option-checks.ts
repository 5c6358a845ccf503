// The checks every numeric HTTP transport option goes through: positive integers, Infinity only loudly, and limits
// that must hold another limit.

import { DefinitionError, type Logger } from '../../server/index.js';

/** A positive integer, or Infinity to turn the limit off (with a warning). */
export function limit(value: number | undefined, fallback: number, name: string, logger: Logger): number {
  if (value === undefined) return fallback;
  if (value === Infinity) {
    logger.warn(`HTTP transport: ${name} is Infinity, so this limit is off`);
    return value;
  }
  if (!Number.isInteger(value) || value <= 0) {
    throw new DefinitionError(
      `HTTP transport: ${name} must be a positive integer (or Infinity to turn it off)`,
    );
  }
  return value;
}

/** A limit that must be at least `floor` (another limit it has to hold). */
export function atLeast(value: number, floor: number, name: string, floorName: string): number {
  if (value < floor) {
    throw new DefinitionError(`HTTP transport: ${name} (${value}) must be at least ${floorName} (${floor})`);
  }
  return value;
}

export const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** The Retry-After of 503 answers: a positive integer (it cannot be turned off). */
export function retryAfter(value: number | undefined): number {
  if (value === undefined) return DEFAULT_RETRY_AFTER_SECONDS;
  if (!Number.isInteger(value) || value <= 0) {
    throw new DefinitionError('HTTP transport: retryAfterSeconds must be a positive integer');
  }
  return value;
}
