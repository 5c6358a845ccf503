// The calc pack: arithmetic as written, every error the model can cause (with its exact message), bounded work
// against expression bombs, and the pack's configuration.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { JsonObject } from '../src/jsonrpc/index.js';
import type { CallToolResult } from '../src/protocol/index.js';
import { silentLogger } from '../src/server/index.js';
import { CALC_DEFAULT_TIMEOUT_MS, CalcError, calcPack, calculate } from '../src/tools/calc/index.js';
import { ConfigError } from '../src/tools/pack.js';
import { Roots } from '../src/tools/roots.js';
import { connect, modern, testServer, type RawClient } from './support/harness.js';

async function calcClient(timeouts: Record<string, number> = {}): Promise<RawClient> {
  const server = testServer();
  const roots = await Roots.create([process.cwd()]);
  const config = calcPack.parseConfig(undefined, 'packs.calc');
  for (const tool of calcPack.create(config, { roots, logger: silentLogger, timeouts })) server.tool(tool);
  return connect(server);
}

async function call(client: RawClient, args: JsonObject): Promise<CallToolResult> {
  const response = await client.request('tools/call', modern({ name: 'calculate', arguments: args }));
  assert.equal(response.error, undefined, JSON.stringify(response.error));
  const { resultType: _type, _meta, ...result } = response.result ?? {};
  return result as unknown as CallToolResult; // the wire shape of a tools/call result
}

const success = (expression: string, result: number): CallToolResult => ({
  content: [{ type: 'text', text: `${expression} = ${result}` }],
  structuredContent: { expression, result },
});

const failure = (message: string): CallToolResult => ({
  content: [{ type: 'text', text: message }],
  isError: true,
});

describe('calc pack: configuration', () => {
  it('takes no options: undefined and {} are accepted', () => {
    assert.deepEqual(calcPack.parseConfig(undefined, 'packs.calc'), {});
    assert.deepEqual(calcPack.parseConfig({}, 'packs.calc'), {});
  });

  it('refuses an unknown key, naming it and the allowed keys', () => {
    assert.throws(
      () => calcPack.parseConfig({ precision: 3 }, 'packs.calc'),
      new ConfigError(
        'packs.calc.precision is not an option: the calc pack takes no options (allowed keys: none)',
      ),
    );
  });

  it('refuses a config that is not an object', () => {
    for (const [raw, got] of [
      [null, 'null'],
      [[], 'an array'],
      ['x', 'string'],
    ] as const) {
      assert.throws(
        () => calcPack.parseConfig(raw, 'packs.calc'),
        new ConfigError(
          `packs.calc must be an object (got ${got}); the calc pack takes no options, so use {}`,
        ),
      );
    }
  });

  it('creates one tool with a 5 s default time limit, which the operator may change', async () => {
    const roots = await Roots.create([process.cwd()]);
    const [tool, ...rest] = calcPack.create({}, { roots, logger: silentLogger, timeouts: {} });
    assert.equal(rest.length, 0);
    assert.equal(tool?.name, 'calculate');
    assert.equal(tool?.timeoutMs, CALC_DEFAULT_TIMEOUT_MS);
    const [changed] = calcPack.create({}, { roots, logger: silentLogger, timeouts: { calculate: 250 } });
    assert.equal(changed?.timeoutMs, 250);
  });
});

describe('calc: the tool as a client lists it', () => {
  it('has a closed input schema, an output schema and honest annotations', async () => {
    const client = await calcClient();
    const response = await client.request('tools/list', modern());
    const [tool] = (response.result?.tools ?? []) as JsonObject[];
    assert.equal(tool?.name, 'calculate');
    assert.match(String(tool?.description), /Example: \{"expression": "2\*\(3\+4\)"\}/);
    assert.deepEqual(tool?.inputSchema, {
      type: 'object',
      properties: {
        expression: {
          type: 'string',
          minLength: 1,
          maxLength: 1000,
          description: 'The expression to evaluate, for example "sqrt(2)/2 + sin(pi/4)"',
        },
      },
      required: ['expression'],
      additionalProperties: false,
    });
    assert.deepEqual((tool?.outputSchema as JsonObject).required, ['expression', 'result']);
    assert.deepEqual(tool?.annotations, {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });
});

describe('calc: arithmetic as written', () => {
  const cases: [string, number][] = [
    ['2*(3+4)', 14],
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 - 4 - 3', 3],
    ['64 / 4 / 2', 8],
    ['-2**2', -4],
    ['(-2)**2', 4],
    ['2**3**2', 512],
    ['2**-1', 0.5],
    ['2**-2**2', 0.0625],
    ['-3 * -2', 6],
    ['+5 - -5', 10],
    ['---1', -1],
    ['10 % 3', 1],
    ['-7 % 3', -1],
    ['7.5 % 2', 1.5],
    ['1e3 + 2.5E-1', 1000.25],
    ['.5 + 5.', 5.5],
    ['sqrt(16) + abs(-3)', 7],
    ['log(1000)', 3],
    ['ln(e)', 1],
    ['sin(pi/2)', 1],
    ['cos(0)', 1],
    ['tan(0)', 0],
    ['atan(1) * 4', Math.PI],
    ['asin(1) * 2', Math.PI],
    ['acos(-1)', Math.PI],
    ['floor(2.7) + ceil(2.1)', 5],
    ['round(2.5)', 3],
    ['round(-2.5)', -3],
    ['round(2.4)', 2],
    ['-0 * 5', 0],
    ['0.1 + 0.2', 0.30000000000000004],
    ['sqrt(sqrt(sqrt(256)))', 2],
  ];
  it('evaluates each expression to the value mathematics gives, with text and structured content', async () => {
    const client = await calcClient();
    for (const [expression, result] of cases) {
      assert.deepEqual(await call(client, { expression }), success(expression, result), expression);
    }
  });

  it('reports the expression without surrounding spaces', async () => {
    const client = await calcClient();
    assert.deepEqual(await call(client, { expression: '  2 * (3 + 4)\n' }), success('2 * (3 + 4)', 14));
  });

  it('agrees with arithmetic computed directly for random expression trees', () => {
    type Tree = { value: number; text: string };
    const leaf = fc.integer({ min: 0, max: 99 }).map((n): Tree => ({ value: n, text: String(n) }));
    const { tree } = fc.letrec<{ tree: Tree }>((tie) => ({
      tree: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc
          .tuple(tie('tree'), fc.constantFrom('+', '-', '*'), tie('tree'), fc.constantFrom('', ' '))
          .map(([a, op, b, space]): Tree => ({
            value: op === '+' ? a.value + b.value : op === '-' ? a.value - b.value : a.value * b.value,
            text: `(${a.text}${space}${op}${space}${b.text})`,
          })),
      ),
    }));
    fc.assert(
      fc.property(tree, (t) => {
        if (t.text.length > 1000) return;
        assert.equal(calculate(t.text), t.value === 0 ? 0 : t.value);
      }),
      { numRuns: 300 },
    );
  });
});

describe('calc: bad expressions get a message that says what is wrong and where', () => {
  const allowed =
    'allowed functions: sin, cos, tan, asin, acos, atan, log, ln, sqrt, abs, round, floor, ceil; constants: pi, e';
  const cases: [string, string][] = [
    ['1/0', 'division by zero at position 2'],
    ['5 % (2-2)', 'division by zero at position 3'],
    ['0**-1', 'division by zero at position 2 (0 raised to a negative power)'],
    ['1e308 * 10', 'the result overflows (exceeds ±1.8e308) at position 7'],
    ['1e999', 'the number 1e999 at position 1 overflows (exceeds ±1.8e308)'],
    ['sqrt(-1)', 'sqrt of a negative number (-1) at position 1; sqrt needs a value ≥ 0'],
    ['asin(2)', 'asin of 2 at position 1 is undefined; asin needs a value from -1 to 1'],
    ['1 + acos(-1.5)', 'acos of -1.5 at position 5 is undefined; acos needs a value from -1 to 1'],
    ['log(0)', 'log of zero at position 1 is -Infinity; log needs a value > 0'],
    ['ln(-e)', 'ln of a negative number (-2.718281828459045) at position 1; ln needs a value > 0'],
    [
      '(-8)**(1/3)',
      '(-8) ** 0.3333333333333333 at position 5 is not a real number: a negative base needs a whole-number exponent',
    ],
    ['foo(2)', `unknown name "foo" at position 1; ${allowed}`],
    ['2 * PI', `unknown name "PI" at position 5; ${allowed}`],
    ['process.exit(1)', `unknown name "process" at position 1; ${allowed}`],
    ['pi(2)', '"pi" at position 1 is a constant, not a function; to multiply write pi*(…)'],
    ['sin 2', 'function "sin" at position 1 needs its argument in parentheses, for example sin(0.5)'],
    [
      '2pi',
      'malformed number "2pi" at position 1; numbers look like 42, 3.14, .5 or 1e3, and multiplication needs * (2*pi)',
    ],
    [
      '1.2.3',
      'malformed number "1.2.3" at position 1; numbers look like 42, 3.14, .5 or 1e3, and multiplication needs * (2*pi)',
    ],
    [
      '1e+',
      'malformed number "1e" at position 1; numbers look like 42, 3.14, .5 or 1e3, and multiplication needs * (2*pi)',
    ],
    ['2^3', 'unexpected character "^" at position 2; for powers write ** (2**3 = 8)'],
    ['max(1,2)', `unknown name "max" at position 1; ${allowed}`],
    [
      '1,5',
      'unexpected character "," at position 2; every function takes one argument; write decimals with a point (1.5) and numbers without thousands separators',
    ],
    ['x = 2', `unknown name "x" at position 1; ${allowed}`],
    ['2 = 2', 'unexpected character "=" at position 3; give only the expression to calculate, without "="'],
    ['"2"', 'unexpected character "\\"" at position 1; use numbers, + - * / % ** and parentheses'],
    ['2 # 3', 'unexpected character "#" at position 3; use numbers, + - * / % ** and parentheses'],
    ['   ', 'the expression is empty; give an arithmetic expression such as 2*(3+4)'],
    ['2 +', 'the expression ends too early at position 4; expected a number, a function, a constant or "("'],
    ['(2', 'missing ")" to close "(" at position 1'],
    ['sqrt(2', 'missing ")" to close "sqrt(" at position 1'],
    ['2)', 'unexpected ")" at position 2: there is no "(" to close'],
    ['()', 'empty parentheses at position 1; put an expression inside'],
    ['sin()', 'empty parentheses at position 4; put an expression inside'],
    [
      '1 2',
      'unexpected number 2 at position 3; expected an operator (+ - * / % **), ")" or the end of the expression (multiplication needs *)',
    ],
    [
      '(1) (2)',
      'unexpected "(" at position 5; expected an operator (+ - * / % **), ")" or the end of the expression (multiplication needs *)',
    ],
    ['* 2', 'unexpected "*" at position 1; expected a number, a function, a constant or "("'],
    ['2 * * 3', 'unexpected "*" at position 5; expected a number, a function, a constant or "("'],
  ];
  it('answers each with an isError result carrying the exact message', async () => {
    const client = await calcClient();
    for (const [expression, message] of cases) {
      assert.deepEqual(await call(client, { expression }), failure(message), expression);
    }
  });

  it('checks arguments against the schema first', async () => {
    const client = await calcClient();
    const invalid = (line: string) => failure(`Invalid arguments for tool "calculate":\n- ${line}`);
    assert.deepEqual(await call(client, {}), invalid('expression: is required but missing'));
    assert.deepEqual(
      await call(client, { expression: '' }),
      invalid('expression: must have at least 1 character (got 0)'),
    );
    assert.deepEqual(
      await call(client, { expression: 7 }),
      invalid('expression: must be string, got integer'),
    );
    assert.deepEqual(
      await call(client, { expression: '1', precision: 2 }),
      invalid('precision: is not allowed (unknown property)'),
    );
  });
});

describe('calc: expression bombs are refused quickly with a clear message', () => {
  const deep = (levels: number): string => '('.repeat(levels) + '1' + ')'.repeat(levels);

  it('10,000 levels of parentheses: too long for the schema', async () => {
    const client = await calcClient();
    assert.deepEqual(
      await call(client, { expression: deep(10_000) }),
      failure(
        'Invalid arguments for tool "calculate":\n- expression: must have at most 1000 characters (got 20001)',
      ),
    );
  });

  it('10,000 levels of parentheses given to calculate() directly: refused by length before any parsing', () => {
    assert.throws(
      () => calculate(deep(10_000)),
      new CalcError(
        'the expression is 20001 characters long; the limit is 1000, so split it into smaller calculations',
      ),
    );
  });

  it('65 levels of parentheses or function calls within the length limit: the depth limit', async () => {
    const client = await calcClient();
    const message =
      'the expression nests parentheses and function calls deeper than 64 levels at position 65; simplify it';
    assert.deepEqual(await call(client, { expression: deep(65) }), failure(message));
    assert.deepEqual(
      await call(client, { expression: 'abs('.repeat(65) + '1' + ')'.repeat(65) }),
      failure(
        'the expression nests parentheses and function calls deeper than 64 levels at position 257; simplify it',
      ),
    );
    assert.deepEqual(await call(client, { expression: deep(64) }), success(deep(64), 1));
  });

  it('a 1,000,000-character expression: too long for the schema', async () => {
    const client = await calcClient();
    assert.deepEqual(
      await call(client, { expression: '1+'.repeat(500_000) }),
      failure(
        'Invalid arguments for tool "calculate":\n- expression: must have at most 1000 characters (got 1000000)',
      ),
    );
    assert.throws(
      () => calculate('1+'.repeat(500_000)),
      new CalcError(
        'the expression is 1000000 characters long; the limit is 1000, so split it into smaller calculations',
      ),
    );
  });

  it('501 tokens within the length limit: the token limit', async () => {
    const client = await calcClient();
    const expression = '1+'.repeat(250) + '1';
    assert.deepEqual(
      await call(client, { expression }),
      failure(
        'the expression has more than 500 tokens (numbers, names, operators and parentheses) at position 501; split it into smaller calculations',
      ),
    );
    assert.deepEqual(
      await call(client, { expression: '1+'.repeat(249) + '1' }),
      success('1+'.repeat(249) + '1', 250),
    );
  });

  it('9**9**9**9 (right-associative, so 9**(9**387420489)): an overflow, not a hang', async () => {
    const client = await calcClient();
    assert.deepEqual(
      await call(client, { expression: '9**9**9**9' }),
      failure('the result overflows (exceeds ±1.8e308) at position 5'),
    );
  });

  it('a depth error is the first problem in reading order, even with other problems after it', () => {
    assert.throws(() => calculate(deep(70) + ' foo'), {
      message:
        'the expression nests parentheses and function calls deeper than 64 levels at position 65; simplify it',
      position: 65,
    });
  });
});
