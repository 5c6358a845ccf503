// The github pack against a local server that behaves like GET/POST /repos/:owner/:repo/issues: the requests it
// sends, every error path's message, and that the token never shows up in a result or a log line.

import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/index.js';
import type { CallToolResult } from '../src/protocol/index.js';
import { githubPack } from '../src/tools/github/index.js';
import { ConfigError } from '../src/tools/pack.js';
import { Roots } from '../src/tools/roots.js';
import {
  capturingLogger,
  connect,
  modern,
  testServer,
  type CapturingLogger,
  type RawClient,
} from './support/harness.js';

const TOKEN_ENV = 'TOOLWIRE_TEST_GITHUB_TOKEN';
const TOKEN = 'ghp_TestToken0123456789abcdefSECRET';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the fake GitHub does next: answer with this handler (default: a small issue list / the created issue). */
type Behaviour = (response: ServerResponse, request: Seen) => void;

const ISSUES = [
  {
    number: 2,
    title: 'Crash on empty input',
    state: 'open',
    html_url: 'https://github.com/octo/hello/issues/2',
    user: { login: 'alice' },
    labels: [{ name: 'bug' }, { name: 'ui' }],
    comments: 3,
    created_at: '2026-01-02T00:00:00Z',
    updated_at: '2026-01-03T00:00:00Z',
    body: 'x'.repeat(1_200),
  },
  {
    number: 1,
    title: 'Add docs',
    state: 'open',
    html_url: 'https://github.com/octo/hello/pull/1',
    user: { login: 'bob' },
    labels: [],
    comments: 1,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    body: null,
    pull_request: { url: 'https://api.github.com/repos/octo/hello/pulls/1' },
  },
];

const json = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
};

const defaultBehaviour: Behaviour = (response, request) => {
  if (request.method === 'POST') {
    const sent = JSON.parse(request.body) as { title: string; labels?: string[] };
    json(response, 201, {
      number: 42,
      title: sent.title,
      state: 'open',
      html_url: 'https://github.com/octo/hello/issues/42',
      labels: (sent.labels ?? []).map((name) => ({ name })),
    });
    return;
  }
  json(response, 200, ISSUES, { link: '<https://api.github.com/repositories/1/issues?page=2>; rel="next"' });
};

let server: Server;
let baseUrl: string;
let behaviour: Behaviour = defaultBehaviour;
const seen: Seen[] = [];
let roots: Roots;

before(async () => {
  roots = await Roots.create([process.cwd()]);
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(entry);
      if (!/^\/api\/v3\/repos\/[^/]+\/[^/]+\/issues(\?|$)/.test(entry.url)) {
        json(response, 404, { message: 'Not Found' });
        return;
      }
      behaviour(response, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

beforeEach(() => {
  behaviour = defaultBehaviour;
  seen.length = 0;
  process.env[TOKEN_ENV] = TOKEN;
});

interface Harness {
  client: RawClient;
  logger: CapturingLogger;
}

async function githubClient(raw: JsonObject = {}): Promise<Harness> {
  const config = githubPack.parseConfig({ baseUrl, tokenEnv: TOKEN_ENV, ...raw }, 'packs.github');
  const logger = capturingLogger();
  const test = testServer({ logger });
  for (const tool of githubPack.create(config, { roots, logger, timeouts: {} })) test.tool(tool);
  return { client: await connect(test), logger };
}

type Result = CallToolResult & { structuredContent?: JsonObject };

async function call({ client }: Harness, name: string, args: JsonObject): Promise<Result> {
  const response = await client.request('tools/call', modern({ name, arguments: args }), {
    timeoutMs: 10_000,
  });
  assert.equal(response.error, undefined, JSON.stringify(response.error));
  return response.result as unknown as Result;
}

/** Asserts an isError result whose only content is `message`, and that the token appears nowhere. */
async function assertError(harness: Harness, name: string, args: JsonObject, message: string): Promise<void> {
  const result = await call(harness, name, args);
  assert.deepEqual(result.content, [{ type: 'text', text: message }]);
  assert.equal(result.isError, true);
  assertNoToken(harness);
}

function assertNoToken({ client, logger }: Harness): void {
  assert.doesNotMatch(JSON.stringify(client.traffic), new RegExp(TOKEN));
  assert.doesNotMatch(logger.text(), new RegExp(TOKEN));
}

const LIST = 'github_list_issues';
const CREATE = 'github_create_issue';
const REPO = { owner: 'octo', repo: 'hello' };

describe('github pack: configuration', () => {
  it('has defaults for everything', () => {
    assert.deepEqual(githubPack.parseConfig(undefined, 'packs.github'), {
      tokenEnv: 'GITHUB_TOKEN',
      baseUrl: 'https://api.github.com',
      timeoutMs: 15_000,
      userAgent: 'toolwire-github',
    });
    assert.equal(
      githubPack.parseConfig({ baseUrl: 'https://ghe.example.com/api/v3/' }, 'packs.github').baseUrl,
      'https://ghe.example.com/api/v3',
    );
  });

  const baseUrlMessage = (got: string) =>
    `packs.github.baseUrl must be an https: URL like "https://api.github.com" or "https://github.example.com/api/v3" (http: only on loopback); got ${got}`;
  const refusals: [string, unknown, string][] = [
    [
      'an unknown key',
      { token: 'ghp_x' },
      'packs.github has an unknown key "token"; allowed keys: tokenEnv, baseUrl, timeoutMs, userAgent',
    ],
    [
      'a token variable that is not a name',
      { tokenEnv: '$GITHUB_TOKEN' },
      'packs.github.tokenEnv must be an environment variable name like "GITHUB_TOKEN"; got "$GITHUB_TOKEN"',
    ],
    [
      'plain http to a remote host',
      { baseUrl: 'http://github.example.com/api/v3' },
      baseUrlMessage('"http://github.example.com/api/v3"'),
    ],
    [
      'a base URL with a query',
      { baseUrl: 'https://api.github.com/?x=1' },
      baseUrlMessage('"https://api.github.com/?x=1"'),
    ],
    ['a base URL that is not a URL', { baseUrl: 'api.github.com' }, baseUrlMessage('"api.github.com"')],
    [
      'a time limit out of range',
      { timeoutMs: 10 },
      'packs.github.timeoutMs must be a whole number of ms from 100 to 120000; got 10',
    ],
  ];
  for (const [what, raw, message] of refusals) {
    it(`refuses ${what}`, () => {
      assert.throws(() => githubPack.parseConfig(raw, 'packs.github'), { name: ConfigError.name, message });
    });
  }

  it('lists both tools with honest annotations', async () => {
    const { client } = await githubClient();
    const tools = (await client.request('tools/list', modern())).result?.tools as JsonObject[];
    assert.deepEqual(
      tools.map((tool) => [tool.name, tool.annotations]),
      [
        [LIST, { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true }],
        [CREATE, { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true }],
      ],
    );
  });
});

describe('github pack: github_list_issues', () => {
  it('sends the documented headers and the token as a Bearer, and returns a page of issues', async () => {
    const harness = await githubClient();
    const result = await call(harness, LIST, REPO);
    assert.equal(seen.length, 1);
    const request = seen[0];
    assert.equal(request?.method, 'GET');
    assert.equal(request.url, '/api/v3/repos/octo/hello/issues?state=open&per_page=30&page=1');
    assert.equal(request.headers.accept, 'application/vnd.github+json');
    assert.equal(request.headers['x-github-api-version'], '2022-11-28');
    assert.equal(request.headers['user-agent'], 'toolwire-github');
    assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(result.isError, undefined);
    assert.equal(
      (result.content[0] as { text: string }).text,
      '2 open issues in octo/hello (page 1, 30 per page; more on page 2)\n' +
        '#2 Crash on empty input [bug, ui] by alice, 3 comments — https://github.com/octo/hello/issues/2\n' +
        '#1 Add docs (pull request) by bob, 1 comment — https://github.com/octo/hello/pull/1',
    );
    const structured = result.structuredContent as { issues: JsonObject[] } & JsonObject;
    assert.equal(structured.hasNextPage, true);
    assert.equal(structured.issues[0]?.body, `${'x'.repeat(1_000)}…`);
    assert.deepEqual(structured.issues[1], {
      number: 1,
      title: 'Add docs',
      state: 'open',
      url: 'https://github.com/octo/hello/pull/1',
      author: 'bob',
      labels: [],
      comments: 1,
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
      isPullRequest: true,
      body: null,
    });
    assertNoToken(harness);
  });

  it('passes state, labels, perPage and page as query parameters', async () => {
    const harness = await githubClient();
    await call(harness, LIST, {
      ...REPO,
      state: 'closed',
      labels: ['bug', 'good first issue'],
      perPage: 5,
      page: 3,
    });
    assert.equal(
      seen[0]?.url,
      '/api/v3/repos/octo/hello/issues?state=closed&per_page=5&page=3&labels=bug%2Cgood+first+issue',
    );
  });

  it('works without a token (no Authorization header)', async () => {
    delete process.env[TOKEN_ENV];
    const harness = await githubClient();
    const result = await call(harness, LIST, REPO);
    assert.equal(result.isError, undefined);
    assert.equal(seen[0]?.headers.authorization, undefined);
  });

  const badNames: [string, JsonObject, string][] = [
    [
      'an owner with a slash',
      { owner: 'octo/hello', repo: 'x' },
      'owner "octo/hello" is not a valid GitHub owner name: use 1–39 letters, digits, "-" or "_", starting with a letter or digit (for https://github.com/nodejs/node the owner is "nodejs")',
    ],
    [
      'an owner starting with a dot',
      { owner: '.octo', repo: 'x' },
      'owner ".octo" is not a valid GitHub owner name: use 1–39 letters, digits, "-" or "_", starting with a letter or digit (for https://github.com/nodejs/node the owner is "nodejs")',
    ],
    [
      'a repo of ".."',
      { owner: 'octo', repo: '..' },
      'repo ".." is not a valid GitHub repository name: use 1–100 letters, digits, ".", "-" or "_", without ".." (for https://github.com/nodejs/node the repo is "node")',
    ],
    [
      'a repo that climbs out of the path',
      { owner: 'octo', repo: 'x/../../../user' },
      'repo "x/../../../user" is not a valid GitHub repository name: use 1–100 letters, digits, ".", "-" or "_", without ".." (for https://github.com/nodejs/node the repo is "node")',
    ],
    [
      'a repo with a query string',
      { owner: 'octo', repo: 'hello?per_page=1' },
      'repo "hello?per_page=1" is not a valid GitHub repository name: use 1–100 letters, digits, ".", "-" or "_", without ".." (for https://github.com/nodejs/node the repo is "node")',
    ],
    [
      'a label with a comma',
      { ...REPO, labels: ['bug', 'a,b'] },
      'labels[1] "a,b" contains a comma, which GitHub reads as a separator; give each label as its own item',
    ],
    [
      'perPage over 100',
      { ...REPO, perPage: 101 },
      'Invalid arguments for tool "github_list_issues":\n- perPage: must be <= 100 (got 101)',
    ],
    [
      'an unknown state',
      { ...REPO, state: 'merged' },
      'Invalid arguments for tool "github_list_issues":\n- state: must be one of "open", "closed", "all" (got "merged")',
    ],
    [
      'a token passed as an argument',
      { ...REPO, token: 'ghp_from_the_model' },
      'Invalid arguments for tool "github_list_issues":\n- token: is not allowed (unknown property)',
    ],
  ];
  for (const [what, args, message] of badNames) {
    it(`refuses ${what} without calling GitHub`, async () => {
      await assertError(await githubClient(), LIST, args, message);
      assert.equal(seen.length, 0);
    });
  }
});

describe('github pack: github_create_issue', () => {
  it('POSTs the title, body and labels as JSON with the token, and returns the new issue', async () => {
    const harness = await githubClient();
    const result = await call(harness, CREATE, {
      ...REPO,
      title: 'It broke',
      body: 'Steps: 1. 2.',
      labels: ['bug'],
    });
    const request = seen[0];
    assert.equal(request?.method, 'POST');
    assert.equal(request.url, '/api/v3/repos/octo/hello/issues');
    assert.equal(request.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers.accept, 'application/vnd.github+json');
    assert.equal(request.headers['x-github-api-version'], '2022-11-28');
    assert.deepEqual(JSON.parse(request.body), { title: 'It broke', body: 'Steps: 1. 2.', labels: ['bug'] });
    assert.deepEqual(result.content, [
      {
        type: 'text',
        text: 'Created issue #42 in octo/hello: It broke\nhttps://github.com/octo/hello/issues/42',
      },
    ]);
    assert.deepEqual(result.structuredContent, {
      number: 42,
      url: 'https://github.com/octo/hello/issues/42',
      title: 'It broke',
      state: 'open',
      labels: ['bug'],
    });
    assertNoToken(harness);
  });

  it('without a token, says which environment variable to set and sends nothing', async () => {
    delete process.env[TOKEN_ENV];
    await assertError(
      await githubClient(),
      CREATE,
      { ...REPO, title: 'x' },
      `github_create_issue needs a GitHub token: set the environment variable ${TOKEN_ENV} for the toolwire server to a token with the "Issues: write" permission on octo/hello`,
    );
    assert.equal(seen.length, 0);
  });

  it('refuses a token with a line break in it, without quoting it', async () => {
    process.env[TOKEN_ENV] = `${TOKEN}\nX-Evil: 1`;
    await assertError(
      await githubClient(),
      CREATE,
      { ...REPO, title: 'x' },
      `The environment variable ${TOKEN_ENV} does not hold a usable token (it contains spaces or control characters)`,
    );
  });

  it('refuses a title over 256 characters', async () => {
    await assertError(
      await githubClient(),
      CREATE,
      { ...REPO, title: 't'.repeat(257) },
      'Invalid arguments for tool "github_create_issue":\n- title: must have at most 256 characters (got 257)',
    );
  });
});

describe('github pack: API errors', () => {
  const cases: [string, Behaviour, string, string][] = [
    [
      '401 with a token',
      (response) => json(response, 401, { message: 'Bad credentials' }),
      CREATE,
      `GitHub rejected the token in the environment variable ${TOKEN_ENV} (401 Bad credentials): it is invalid, expired or revoked; set ${TOKEN_ENV} to a valid token`,
    ],
    [
      '403 with the rate limit used up',
      (response) =>
        json(
          response,
          403,
          { message: 'API rate limit exceeded for user ID 1.' },
          {
            'x-ratelimit-limit': '5000',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': '1700000000',
          },
        ),
      LIST,
      'GitHub API rate limit exceeded (5000 requests per hour); it resets at 2023-11-14T22:13:20.000Z. Try again after that',
    ],
    [
      '429 secondary rate limit',
      (response) =>
        json(
          response,
          429,
          { message: 'You have exceeded a secondary rate limit.' },
          { 'retry-after': '30' },
        ),
      CREATE,
      "GitHub's secondary rate limit was hit (429); wait 30 seconds before trying again",
    ],
    [
      '403 without permission',
      (response) => json(response, 403, { message: 'Resource not accessible by personal access token' }),
      CREATE,
      `GitHub refused access to octo/hello (403 Resource not accessible by personal access token): the token in ${TOKEN_ENV} lacks the "Issues: write" permission on this repository`,
    ],
    [
      '404',
      (response) => json(response, 404, { message: 'Not Found' }),
      LIST,
      `Repository octo/hello was not found, or the token in ${TOKEN_ENV} has no access to it (404). Check the owner and repo names`,
    ],
    [
      '410 issues disabled',
      (response) => json(response, 410, { message: 'Issues are disabled for this repo' }),
      CREATE,
      'Issues are disabled for octo/hello (410)',
    ],
    [
      '422 with GitHub’s validation errors',
      (response) =>
        json(response, 422, {
          message: 'Validation Failed',
          errors: [
            { resource: 'Issue', field: 'title', code: 'missing_field' },
            { resource: 'Label', code: 'invalid', message: 'Label "nope" does not exist' },
          ],
        }),
      CREATE,
      'GitHub rejected the request (422 Validation Failed): title: missing_field; Label "nope" does not exist. Fix the arguments and try again',
    ],
    [
      '500',
      (response) => json(response, 500, { message: 'Server Error' }),
      LIST,
      'GitHub had a server error (500 Server Error); try again in a few minutes',
    ],
    [
      '502 without a JSON body',
      (response) => {
        response.writeHead(502, { 'content-type': 'text/html' });
        response.end('<html>Bad gateway</html>');
      },
      LIST,
      'GitHub had a server error (502); try again in a few minutes',
    ],
    [
      'a 200 that is not JSON',
      (response) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<html>login</html>');
      },
      LIST,
      `GitHub answered 200 without a JSON body; check the github pack's baseUrl (BASE)`,
    ],
  ];
  for (const [what, behave, tool, message] of cases) {
    it(`explains ${what}`, async () => {
      behaviour = behave;
      const args = tool === CREATE ? { ...REPO, title: 'x' } : REPO;
      await assertError(await githubClient(), tool, args, message.replace('BASE', baseUrl));
    });
  }

  it('explains 401 and 404 differently when no token is set', async () => {
    delete process.env[TOKEN_ENV];
    behaviour = (response) => json(response, 401, { message: 'Requires authentication' });
    await assertError(
      await githubClient(),
      LIST,
      REPO,
      `GitHub requires authentication for this request (401 Requires authentication): set the environment variable ${TOKEN_ENV} to a GitHub token`,
    );
    behaviour = (response) => json(response, 404, { message: 'Not Found' });
    await assertError(
      await githubClient(),
      LIST,
      REPO,
      `Repository octo/hello was not found (404). Check the owner and repo names; if it is private, set the environment variable ${TOKEN_ENV} to a token with access to it`,
    );
    behaviour = (response) =>
      json(
        response,
        403,
        { message: 'API rate limit exceeded' },
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000000' },
      );
    await assertError(
      await githubClient(),
      LIST,
      REPO,
      `GitHub API rate limit exceeded; it resets at 2023-11-14T22:13:20.000Z. Try again after that, or set ${TOKEN_ENV} to a token for a higher limit`,
    );
  });

  it('scrubs the token from anything GitHub echoes back', async () => {
    behaviour = (response, request) =>
      json(response, 422, { message: `Validation Failed for ${String(request.headers.authorization)}` });
    await assertError(
      await githubClient(),
      CREATE,
      { ...REPO, title: 'x' },
      'GitHub rejected the request (422 Validation Failed for Bearer [redacted]). Fix the arguments and try again',
    );
  });

  it('reports a server that cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await assertError(
      await githubClient({ baseUrl: url }),
      LIST,
      REPO,
      `Could not reach GitHub at ${url} (ECONNREFUSED); check the network and the github pack's baseUrl`,
    );
  });

  it('gives up at the configured time limit', async () => {
    behaviour = () => {}; // never answers
    await assertError(
      await githubClient({ timeoutMs: 200 }),
      LIST,
      REPO,
      'GitHub did not answer within 200 ms; try again later',
    );
  });
});
