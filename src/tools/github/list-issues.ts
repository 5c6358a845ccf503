// github_list_issues: one page of a repository's issues (pull requests included, as GitHub lists them).

import { ToolError, defineTool, type ToolConfig } from '../../server/index.js';
import type { PackEnvironment } from '../pack.js';
import type { GithubConfig } from './config.js';
import { callGithub, readToken, withoutToken } from './github-client.js';
import { issueLine, issueSchema, summariseIssue } from './issue-summary.js';
import { checkLabels, checkOwner, checkRepo, labelSchema, ownerSchema, repoSchema } from './repo-names.js';

export const LIST_ISSUES = 'github_list_issues';
const BODY_CHARS = 1_000;
const MAX_PAGE = 1_000;

/** True when GitHub's Link header names a next page. */
const hasNext = (link: string | null): boolean => link !== null && /<[^>]*>;\s*rel="next"/.test(link);

export function createListIssuesTool(config: GithubConfig, environment: PackEnvironment): ToolConfig {
  return defineTool({
    name: LIST_ISSUES,
    title: 'List GitHub issues',
    description:
      'Lists one page of issues of a GitHub repository, newest first, with number, title, state, labels, author, ' +
      `comment count, URL and the first ${BODY_CHARS} characters of the body. Pull requests appear too ` +
      '(isPullRequest: true), as GitHub lists them. Works without a token for public repositories. ' +
      'Example: {"owner": "nodejs", "repo": "node", "state": "open", "labels": ["confirmed-bug"], "perPage": 10}.',
    inputSchema: {
      type: 'object',
      properties: {
        owner: ownerSchema,
        repo: repoSchema,
        state: {
          type: 'string',
          enum: ['open', 'closed', 'all'],
          default: 'open',
          description: 'Which issues',
        },
        labels: {
          type: 'array',
          items: labelSchema,
          maxItems: 20,
          description: 'Only issues carrying every one of these labels (names without commas)',
        },
        perPage: { type: 'integer', minimum: 1, maximum: 100, default: 30, description: 'Issues per page' },
        page: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_PAGE,
          default: 1,
          description: 'Page number, from 1',
        },
      },
      required: ['owner', 'repo'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        owner: { type: 'string' },
        repo: { type: 'string' },
        state: { type: 'string' },
        page: { type: 'integer' },
        perPage: { type: 'integer' },
        hasNextPage: { type: 'boolean', description: 'Ask for page + 1 to see more' },
        issues: { type: 'array', items: issueSchema },
      },
      required: ['owner', 'repo', 'state', 'page', 'perPage', 'hasNextPage', 'issues'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    timeoutMs: environment.timeouts[LIST_ISSUES] ?? config.timeoutMs + 5_000,
    handler: async (args, ctx) => {
      // Types and ranges were checked against the inputSchema above.
      const owner = args.owner as string;
      const repo = args.repo as string;
      const state = (args.state as string | undefined) ?? 'open';
      const labels = (args.labels as string[] | undefined) ?? [];
      const perPage = (args.perPage as number | undefined) ?? 30;
      const page = (args.page as number | undefined) ?? 1;
      checkOwner(owner);
      checkRepo(repo);
      checkLabels(labels, true);
      const token = readToken(config);
      return withoutToken(token, async () => {
        const answer = await callGithub(
          config,
          {
            method: 'GET',
            path: `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/issues`,
            query: {
              state,
              per_page: String(perPage),
              page: String(page),
              ...(labels.length > 0 && { labels: labels.join(',') }),
            },
            signal: ctx.signal,
          },
          token,
          {
            owner,
            repo,
            tokenEnv: config.tokenEnv,
            hasToken: token !== undefined,
            needs: 'read access to issues',
          },
        );
        if (!Array.isArray(answer.body)) {
          throw new ToolError(
            `GitHub answered with something other than a list of issues; check the github pack's baseUrl (${config.baseUrl})`,
          );
        }
        const issues = (answer.body as unknown[]).map((issue) => summariseIssue(issue, BODY_CHARS));
        const hasNextPage = hasNext(answer.headers.get('link'));
        const which = state === 'all' ? '' : `${state} `;
        const more = hasNextPage ? `; more on page ${page + 1}` : '';
        const heading = `${issues.length} ${which}issue${issues.length === 1 ? '' : 's'} in ${owner}/${repo} (page ${page}, ${perPage} per page${more})`;
        return {
          content: [{ type: 'text', text: [heading, ...issues.map(issueLine)].join('\n') }],
          structuredContent: { owner, repo, state, page, perPage, hasNextPage, issues },
        };
      });
    },
  }) as unknown as ToolConfig; // erase the argument types for the pack's list
}
