// URI templates through the gateway: a client that expands the rewritten template (RFC 6570, levels 1–4) gets a URI
// that fromGatewayUri maps back to exactly the URI the upstream's own template gives for the same variables.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { UriTemplate } from '@modelcontextprotocol/client';
import { fromGatewayUri, SEPARATOR, toGatewayTemplate } from './index.js';

type Value = string | readonly string[] | ReadonlyMap<string, string> | undefined;

// A reference RFC 6570 expander (section 3 and appendix A), checked below against the RFC's own examples.
const OPERATORS: Record<
  string,
  { first: string; sep: string; named: boolean; ifemp: string; reserved: boolean }
> = {
  '': { first: '', sep: ',', named: false, ifemp: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifemp: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifemp: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifemp: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifemp: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifemp: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifemp: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifemp: '=', reserved: false },
};
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const RESERVED = /^[:/?#[\]@!$&'()*+,;=]$/;
const utf8 = new TextEncoder();
const pct = (char: string): string =>
  [...utf8.encode(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');

function encode(value: string, reserved: boolean): string {
  let out = '';
  for (let i = 0; i < value.length;) {
    const char = String.fromCodePoint(value.codePointAt(i) ?? 0);
    if (reserved && char === '%' && /^[0-9A-Fa-f]{2}$/.test(value.slice(i + 1, i + 3))) {
      out += value.slice(i, i + 3);
      i += 3;
      continue;
    }
    out += UNRESERVED.test(char) || (reserved && RESERVED.test(char)) ? char : pct(char);
    i += char.length;
  }
  return out;
}

function expand(template: string, vars: Readonly<Record<string, Value>>): string {
  let out = '';
  for (let i = 0; i < template.length;) {
    const open = template.indexOf('{', i);
    out += encode(template.slice(i, open === -1 ? undefined : open), true); // literals: copied when allowed
    if (open === -1) break;
    const close = template.indexOf('}', open);
    const body = template.slice(open + 1, close);
    const op = '+#./;?&'.includes(body[0] ?? '') ? (body[0] as string) : '';
    const spec = OPERATORS[op] as (typeof OPERATORS)[string];
    const enc = (text: string): string => encode(text, spec.reserved);
    let first = true;
    for (const varspec of body.slice(op.length).split(',')) {
      const [, name = '', prefix, star] = /^([^:*]+)(?::(\d+)|(\*))?$/.exec(varspec) ?? [];
      const value = vars[name];
      if (
        value === undefined ||
        (typeof value !== 'string' && ('size' in value ? value.size : value.length) === 0)
      ) {
        continue;
      }
      out += first ? spec.first : spec.sep;
      first = false;
      if (typeof value === 'string') {
        if (spec.named) out += value === '' ? name + spec.ifemp : `${name}=`;
        if (!spec.named || value !== '')
          out += enc(prefix === undefined ? value : [...value].slice(0, Number(prefix)).join(''));
      } else if (star === undefined) {
        if (spec.named) out += `${name}=`;
        out += ('size' in value ? [...value].flat() : value).map(enc).join(',');
      } else if ('size' in value) {
        const pairs = [...(value as ReadonlyMap<string, string>)];
        out += pairs
          .map(([k, v]) => (spec.named && v === '' ? enc(k) + spec.ifemp : `${enc(k)}=${enc(v)}`))
          .join(spec.sep);
      } else {
        const items = value as readonly string[];
        out += items
          .map((v) => (!spec.named ? enc(v) : v === '' ? name + spec.ifemp : `${name}=${enc(v)}`))
          .join(spec.sep);
      }
    }
    i = close + 1;
  }
  return out;
}

// RFC 6570 section 3.2's variables and a sample of its examples, one or more per operator and level.
const RFC_VARS: Record<string, Value> = {
  count: ['one', 'two', 'three'],
  dom: ['example', 'com'],
  dub: 'me/too',
  hello: 'Hello World!',
  half: '50%',
  var: 'value',
  who: 'fred',
  base: 'http://example.com/home/',
  path: '/foo/bar',
  list: ['red', 'green', 'blue'],
  keys: new Map([
    ['semi', ';'],
    ['dot', '.'],
    ['comma', ','],
  ]),
  v: '6',
  x: '1024',
  y: '768',
  empty: '',
  empty_keys: new Map(),
  undef: undefined,
};
const RFC_EXAMPLES: [string, string][] = [
  ['{var}', 'value'],
  ['{hello}', 'Hello%20World%21'],
  ['{half}', '50%25'],
  ['O{empty}X', 'OX'],
  ['O{undef}X', 'OX'],
  ['?{x,empty}', '?1024,'],
  ['{var:3}', 'val'],
  ['{keys}', 'semi,%3B,dot,.,comma,%2C'],
  ['{keys*}', 'semi=%3B,dot=.,comma=%2C'],
  ['{+hello}', 'Hello%20World!'],
  ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
  ['{+base}index', 'http://example.com/home/index'],
  ['{+path:6}/here', '/foo/b/here'],
  ['{+keys*}', 'semi=;,dot=.,comma=,'],
  ['foo{#empty}', 'foo#'],
  ['{#path,x}/here', '#/foo/bar,1024/here'],
  ['www{.dom*}', 'www.example.com'],
  ['X{.keys*}', 'X.semi=%3B.dot=..comma=%2C'],
  ['X{.empty_keys*}', 'X'],
  ['{/who,dub}', '/fred/me%2Ftoo'],
  ['{/var,empty}', '/value/'],
  ['{/list*,path:4}', '/red/green/blue/%2Ffoo'],
  ['{/count*}', '/one/two/three'],
  ['{;v,empty,who}', ';v=6;empty;who=fred'],
  ['{;list*}', ';list=red;list=green;list=blue'],
  ['{;keys*}', ';semi=%3B;dot=.;comma=%2C'],
  ['{?x,y,empty}', '?x=1024&y=768&empty='],
  ['{?list}', '?list=red,green,blue'],
  ['{?count*}', '?count=one&count=two&count=three'],
  ['{?keys*}', '?semi=%3B&dot=.&comma=%2C'],
  ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
  ['{&x,y,empty}', '&x=1024&y=768&empty='],
];

const TEMPLATES = [
  'file:///{path}', // level 1
  'file:///{+path}', // level 2
  'http://example.com/{+path}{#frag}',
  'search://items{?q,lang}', // level 3
  'search://items{?q,lang}{&page}',
  'mail://{user}@{domain}/{folder}',
  'repo://{owner}/{repo}{/segments*}', // level 4
  'x://{var:3}{.ext}{;params*}{?keys*}',
  '{+base}{/segments*}{?q}',
  'http://[::1]:8080/{path}', // an IP-literal host
  'file:///my docs/{name}', // literals RFC 6570 percent-encodes
  'x://é/{name}#{+frag}',
];
const NAMES = ['path', 'frag', 'q', 'lang', 'page', 'user', 'domain', 'folder', 'owner', 'repo', 'segments'];
const ALL_NAMES = [...NAMES, 'var', 'ext', 'params', 'keys', 'base', 'name'];
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 10 }),
  fc.string({
    unit: fc.constantFrom('%', '2', 'F', '/', '#', '?', '[', ']', ' ', 'a', 'é', ':', '&', '=', ','),
    maxLength: 8,
  }),
);
const value: fc.Arbitrary<Value> = fc.oneof(
  fc.constant(undefined),
  text,
  fc.array(text, { maxLength: 3 }),
  fc.array(fc.tuple(text, text), { maxLength: 3 }).map((pairs) => new Map(pairs)),
);
const serverName = fc
  .stringMatching(/^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,30}[A-Za-z0-9-])?$/)
  .filter((name) => !name.includes(SEPARATOR));

describe('toGatewayTemplate', () => {
  it('the reference expander agrees with the RFC 6570 examples', () => {
    for (const [template, expected] of RFC_EXAMPLES)
      assert.equal(expand(template, RFC_VARS), expected, template);
  });

  it('keeps every expression: {path}, {+path}, {/segments*}, {?q,lang} stay variables after the server', () => {
    assert.equal(toGatewayTemplate('fs', 'file:///{+path}'), 'toolwire-gw:fs/file:///{+path}');
    assert.equal(
      toGatewayTemplate('repo', 'repo://{owner}/{repo}{/segments*}{?q,lang}'),
      'toolwire-gw:repo/repo://{owner}/{repo}{/segments*}{?q,lang}',
    );
    const vars = { path: 'a b/c', segments: ['x', 'y z'], q: '1+1', lang: 'en' };
    const made = expand(toGatewayTemplate('fs', 'file:///{+path}{/segments*}{?q,lang}'), vars);
    assert.equal(made, 'toolwire-gw:fs/file:///a%20b/c/x/y%20z?q=1%2B1&lang=en');
    assert.deepEqual(fromGatewayUri(made), { server: 'fs', uri: 'file:///a%20b/c/x/y%20z?q=1%2B1&lang=en' });
  });

  it("property: expanding the rewritten template maps back to the upstream template's expansion (levels 1–4)", () => {
    fc.assert(
      fc.property(
        serverName,
        fc.constantFrom(...TEMPLATES),
        fc.record(Object.fromEntries(ALL_NAMES.map((name) => [name, value]))),
        (server, template, vars) => {
          const made = expand(toGatewayTemplate(server, template), vars);
          assert.deepEqual(fromGatewayUri(made), { server, uri: expand(template, vars) });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('encodes literal characters the expansion would encode anyway, so a literal-copying expander works too', () => {
    assert.equal(
      toGatewayTemplate('fs', 'file:///my docs/é/{name}'),
      'toolwire-gw:fs/file:///my%20docs/%C3%A9/{name}',
    );
    assert.equal(toGatewayTemplate('fs', 'x://100%/{a b}{'), 'toolwire-gw:fs/x://100%25/{a b}{');
    assert.equal(toGatewayTemplate('fs', '%41{x}%zz'), 'toolwire-gw:fs/%41{x}%25zz');
    const vars = { name: 'a.txt' };
    assert.equal(
      expand(toGatewayTemplate('fs', 'file:///my docs/{name}'), vars),
      'toolwire-gw:fs/file:///my%20docs/a.txt',
    );
    // The official SDK v2 client copies literals as they are: through the gateway it still gets the RFC's URI.
    const viaSdk = new UriTemplate(toGatewayTemplate('fs', 'file:///my docs/{name}')).expand(vars);
    assert.deepEqual(fromGatewayUri(viaSdk), { server: 'fs', uri: expand('file:///my docs/{name}', vars) });
  });

  it('a hostile template (200 000 unclosed "{", a 1 MB literal) is rewritten in one pass, expressions untouched', () => {
    const braces = '{'.repeat(200_000);
    assert.equal(toGatewayTemplate('fs', braces), `toolwire-gw:fs/${braces}`);
    const spaces = `${' '.repeat(1_000_000)}{x}`;
    assert.equal(toGatewayTemplate('fs', spaces), `toolwire-gw:fs/${'%20'.repeat(1_000_000)}{x}`);
  });

  it('property: the same holds with the official SDK v2 client expanding the templates', () => {
    const sdkValue = fc.oneof(text, fc.array(text, { minLength: 1, maxLength: 3 }));
    // Templates whose literals are URI characters already (where the SDK and the RFC agree on literals).
    const sdkTemplates = TEMPLATES.filter((template) => !/[ é]/.test(template));
    fc.assert(
      fc.property(
        serverName,
        fc.constantFrom(...sdkTemplates),
        fc.record(Object.fromEntries(ALL_NAMES.map((name) => [name, sdkValue]))),
        (server, template, vars) => {
          const upstream = new UriTemplate(template).expand(vars);
          const made = new UriTemplate(toGatewayTemplate(server, template)).expand(vars);
          assert.deepEqual(fromGatewayUri(made), { server, uri: upstream });
        },
      ),
      { numRuns: 500 },
    );
  });
});
