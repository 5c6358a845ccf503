// github_create_issue: opens one issue; needs a token with "Issues: write" in the configured environment variable.

import { ToolError, defineTool, type ToolConfig } from '../../server/index.js';
import type { PackEnvironment } from '../pack.js';
import type { GithubConfig } from './config.js';
import { callGithub, readToken, withoutToken } from './github-client.js';
import { summariseIssue } from './issue-summary.js';
import { checkLabels, checkOwner, checkRepo, labelSchema, ownerSchema, repoSchema } from './repo-names.js';

export const CREATE_ISSUE = 'github_create_issue';
const NEEDS = 'the "Issues: write" permission';

export function createCreateIssueTool(config: GithubConfig, environment: PackEnvironment): ToolConfig {
  return defineTool({
    name: CREATE_ISSUE,
    title: 'Create a GitHub issue',
    description:
      'Opens a new issue in a GitHub repository and returns its number and URL. Each call creates another issue, ' +
      `so do not repeat a call that succeeded. Needs a token in the server's ${config.tokenEnv} environment variable. ` +
      'Example: {"owner": "octocat", "repo": "hello-world", "title": "Crash on empty input", ' +
      '"body": "Steps to reproduce: …", "labels": ["bug"]}.',
    inputSchema: {
      type: 'object',
      properties: {
        owner: ownerSchema,
        repo: repoSchema,
        title: { type: 'string', minLength: 1, maxLength: 256, description: 'Issue title' },
        body: { type: 'string', maxLength: 65_536, description: 'Issue text (GitHub Markdown)' },
        labels: {
          type: 'array',
          items: labelSchema,
          maxItems: 20,
          description:
            'Labels to set; they must already exist in the repository unless the token may create them',
        },
      },
      required: ['owner', 'repo', 'title'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        number: { type: 'integer' },
        url: { type: 'string', description: 'The new issue on the web' },
        title: { type: 'string' },
        state: { type: 'string' },
        labels: { type: 'array', items: { type: 'string' } },
      },
      required: ['number', 'url', 'title', 'state', 'labels'],
      additionalProperties: false,
    },
    // Additive (nothing is overwritten), but every call adds an issue.
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    timeoutMs: environment.timeouts[CREATE_ISSUE] ?? config.timeoutMs + 5_000,
    handler: async (args, ctx) => {
      // Types and ranges were checked against the inputSchema above.
      const owner = args.owner as string;
      const repo = args.repo as string;
      const title = args.title as string;
      const body = args.body as string | undefined;
      const labels = args.labels as string[] | undefined;
      checkOwner(owner);
      checkRepo(repo);
      if (title.trim() === '') throw new ToolError('title must not be only spaces');
      checkLabels(labels ?? [], false);
      const token = readToken(config);
      if (token === undefined) {
        throw new ToolError(
          `${CREATE_ISSUE} needs a GitHub token: set the environment variable ${config.tokenEnv} for the toolwire ` +
            `server to a token with ${NEEDS} on ${owner}/${repo}`,
        );
      }
      return withoutToken(token, async () => {
        const answer = await callGithub(
          config,
          {
            method: 'POST',
            path: `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}/issues`,
            body: { title, ...(body !== undefined && { body }), ...(labels !== undefined && { labels }) },
            signal: ctx.signal,
          },
          token,
          { owner, repo, tokenEnv: config.tokenEnv, hasToken: true, needs: NEEDS },
        );
        const issue = summariseIssue(answer.body, 0);
        return {
          content: [
            {
              type: 'text',
              text: `Created issue #${issue.number} in ${owner}/${repo}: ${issue.title}\n${issue.url}`,
            },
          ],
          structuredContent: {
            number: issue.number,
            url: issue.url,
            title: issue.title,
            state: issue.state,
            labels: issue.labels,
          },
        };
      });
    },
  }) as unknown as ToolConfig; // erase the argument types for the pack's list
}
