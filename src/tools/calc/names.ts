// The only names an expression may use: one-argument functions and two constants.

export const FUNCTIONS = {
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  log: Math.log10,
  ln: Math.log,
  sqrt: Math.sqrt,
  abs: Math.abs,
  // Halves round away from zero, as on a calculator (Math.round alone sends -2.5 to -2).
  round: (x: number): number => Math.sign(x) * Math.round(Math.abs(x)),
  floor: Math.floor,
  ceil: Math.ceil,
} as const satisfies Record<string, (x: number) => number>;

export type FunctionName = keyof typeof FUNCTIONS;

export const CONSTANTS = { pi: Math.PI, e: Math.E } as const satisfies Record<string, number>;

export type ConstantName = keyof typeof CONSTANTS;

export const isFunctionName = (name: string): name is FunctionName => Object.hasOwn(FUNCTIONS, name);

export const isConstantName = (name: string): name is ConstantName => Object.hasOwn(CONSTANTS, name);

/** "functions: sin, cos, …; constants: pi, e", for messages that must tell the model what it may write. */
export const ALLOWED_NAMES = `functions: ${Object.keys(FUNCTIONS).join(', ')}; constants: ${Object.keys(CONSTANTS).join(', ')}`;
