// Log levels (RFC 5424 severities, as MCP names them) and their order.

export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

const rank: Record<string, number> = Object.fromEntries(LOGGING_LEVELS.map((level, index) => [level, index]));

export const isLoggingLevel = (value: unknown): value is LoggingLevel =>
  typeof value === 'string' && rank[value] !== undefined;

/** True when a message at `level` passes a threshold of `threshold`. */
export const levelPasses = (level: LoggingLevel, threshold: LoggingLevel): boolean =>
  (rank[level] ?? 0) >= (rank[threshold] ?? 0);
