// The part of a GitHub issue object the tools return, read defensively (the answer comes from the network).

export interface IssueSummary {
  number: number;
  title: string;
  state: string;
  url: string;
  author: string | null;
  labels: string[];
  comments: number;
  createdAt: string;
  updatedAt: string;
  isPullRequest: boolean;
  /** The body, cut to `bodyChars` characters (with "…" when cut); null when there is none. */
  body: string | null;
}

const asString = (value: unknown): string => (typeof value === 'string' ? value : '');
const asNumber = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;

const labelName = (label: unknown): string =>
  typeof label === 'string' ? label : asString((label as { name?: unknown } | null)?.name);

export function summariseIssue(raw: unknown, bodyChars: number): IssueSummary {
  const issue = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const body = typeof issue.body === 'string' ? issue.body : null;
  const login = (issue.user as { login?: unknown } | null | undefined)?.login;
  return {
    number: asNumber(issue.number),
    title: asString(issue.title),
    state: asString(issue.state),
    url: asString(issue.html_url),
    author: typeof login === 'string' ? login : null,
    labels: Array.isArray(issue.labels) ? issue.labels.map(labelName).filter((name) => name !== '') : [],
    comments: asNumber(issue.comments),
    createdAt: asString(issue.created_at),
    updatedAt: asString(issue.updated_at),
    isPullRequest: issue.pull_request !== undefined && issue.pull_request !== null,
    body: body === null || body.length <= bodyChars ? body : `${body.slice(0, bodyChars)}…`,
  };
}

/** One line for the text view: "#12 Title [bug, ui] by alice, 3 comments — URL". */
export function issueLine(issue: IssueSummary): string {
  const labels = issue.labels.length === 0 ? '' : ` [${issue.labels.join(', ')}]`;
  const kind = issue.isPullRequest ? ' (pull request)' : '';
  const by = issue.author === null ? '' : ` by ${issue.author}`;
  const comments = `${issue.comments} comment${issue.comments === 1 ? '' : 's'}`;
  return `#${issue.number} ${issue.title}${labels}${kind}${by}, ${comments} — ${issue.url}`;
}

export const issueSchema = {
  type: 'object',
  properties: {
    number: { type: 'integer' },
    title: { type: 'string' },
    state: { type: 'string', description: '"open" or "closed"' },
    url: { type: 'string', description: 'The issue on the web' },
    author: { type: ['string', 'null'] },
    labels: { type: 'array', items: { type: 'string' } },
    comments: { type: 'integer' },
    createdAt: { type: 'string' },
    updatedAt: { type: 'string' },
    isPullRequest: { type: 'boolean', description: 'GitHub lists pull requests among issues' },
    body: { type: ['string', 'null'] },
  },
  required: [
    'number',
    'title',
    'state',
    'url',
    'author',
    'labels',
    'comments',
    'createdAt',
    'updatedAt',
    'isPullRequest',
    'body',
  ],
  additionalProperties: false,
} as const;
