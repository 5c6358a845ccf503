// Owner and repository names as GitHub allows them; checked before they become part of an API path.

import { ToolError } from '../../server/index.js';

// Letters, digits and "-" (plus "_", which Enterprise managed users have); no "/", ".", "%" or anything a path reads.
const OWNER = /^[A-Za-z0-9][A-Za-z0-9_-]{0,38}$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;
const LABEL_MAX = 100;

export function checkOwner(owner: string): void {
  if (!OWNER.test(owner)) {
    throw new ToolError(
      `owner ${JSON.stringify(owner)} is not a valid GitHub owner name: use 1–39 letters, digits, "-" or "_", ` +
        'starting with a letter or digit (for https://github.com/nodejs/node the owner is "nodejs")',
    );
  }
}

export function checkRepo(repo: string): void {
  if (!REPO.test(repo) || repo.includes('..') || repo === '.') {
    throw new ToolError(
      `repo ${JSON.stringify(repo)} is not a valid GitHub repository name: use 1–100 letters, digits, ".", "-" ` +
        'or "_", without ".." (for https://github.com/nodejs/node the repo is "node")',
    );
  }
}

/** Labels travel comma-separated in list queries, so a comma inside one would split it. */
export function checkLabels(labels: readonly string[], forQuery: boolean): void {
  labels.forEach((label, index) => {
    if (forQuery && label.includes(',')) {
      throw new ToolError(
        `labels[${index}] ${JSON.stringify(label)} contains a comma, which GitHub reads as a separator; give each label as its own item`,
      );
    }
    if (label.trim() === '' || label.length > LABEL_MAX) {
      throw new ToolError(`labels[${index}] must be 1–${LABEL_MAX} characters and not only spaces`);
    }
  });
}

export const labelSchema = { type: 'string', minLength: 1, maxLength: LABEL_MAX } as const;

export const ownerSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 39,
  description: 'Repository owner (user or organisation), e.g. "nodejs" for https://github.com/nodejs/node',
} as const;

export const repoSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  description: 'Repository name, e.g. "node" for https://github.com/nodejs/node',
} as const;
