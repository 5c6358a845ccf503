// A tool definition's identity for pinning: the fields that change what a model is told or what a call may do, as
// RFC 8785 canonical JSON (the audit chain's canonicalJson, not a second one), hashed with SHA-256.

import { createHash } from 'node:crypto';
import { canonicalJson } from '../../policy/audit/chain.js';
import type { Tool } from '../../protocol/index.js';

/**
 * The fields pinned. icons, execution and _meta are left out: they change neither what the model reads nor what a
 * call is allowed to do, and servers rewrite _meta freely (a pin on them would quarantine for nothing).
 */
const PINNED_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/** The pinned part of a definition: those fields present on `tool`, nothing else (absent keys stay absent). */
export function pinnedDefinition(tool: Tool): Tool {
  const picked: Record<string, unknown> = {};
  for (const field of PINNED_FIELDS) {
    if (Object.hasOwn(tool, field) && tool[field] !== undefined) picked[field] = tool[field];
  }
  return picked as unknown as Tool; // name and inputSchema come across from a Tool
}

/** RFC 8785 canonical JSON of the pinned fields → SHA-256, hex. */
export function definitionDigest(tool: Tool): string {
  return createHash('sha256')
    .update(canonicalJson(pinnedDefinition(tool)))
    .digest('hex');
}

/**
 * The pinned fields as indented JSON with keys in canonical order, one value per line: what the diff compares.
 * (Re-parsing puts integer-like keys first, as every JS object does; both sides of a diff go through the same step.)
 */
export function prettyDefinition(tool: Tool): string {
  return JSON.stringify(JSON.parse(canonicalJson(pinnedDefinition(tool))), null, 2);
}
