// The github pack: list and create issues through the GitHub REST API, with the token taken from the environment.

import type { ToolConfig } from '../../server/index.js';
import type { PackEnvironment, ToolPack } from '../pack.js';
import { parseGithubConfig, type GithubConfig } from './config.js';
import { createCreateIssueTool } from './create-issue.js';
import { createListIssuesTool } from './list-issues.js';

export const githubPack: ToolPack<GithubConfig> = {
  name: 'github',
  description:
    'github_list_issues and github_create_issue (token from an environment variable, never an argument)',
  parseConfig: parseGithubConfig,
  /** Both tools always: listing works without a token; creating says which variable to set when there is none. */
  create(config: GithubConfig, environment: PackEnvironment): ToolConfig[] {
    return [createListIssuesTool(config, environment), createCreateIssueTool(config, environment)];
  },
};

export { parseGithubConfig, type GithubConfig } from './config.js';
export { LIST_ISSUES } from './list-issues.js';
export { CREATE_ISSUE } from './create-issue.js';
