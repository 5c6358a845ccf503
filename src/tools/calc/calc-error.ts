// The error every stage of the calculator throws: a message for the model, plus where in the expression it was.

/** A mistake in an expression, or a result that is not a finite real number. Positions count characters from 1. */
export class CalcError extends Error {
  readonly position: number | undefined;

  constructor(message: string, position?: number) {
    super(message);
    this.name = 'CalcError';
    this.position = position;
  }
}

/** Limits that keep the work for one expression small, whatever the model sends. */
export const CALC_LIMITS = {
  /** Characters in the expression. */
  maxLength: 1000,
  /** Parentheses and function calls open at the same time. */
  maxDepth: 64,
  /** Numbers, names, operators and parentheses. */
  maxTokens: 500,
} as const;
