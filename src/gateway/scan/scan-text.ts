// The C1 rules for text outside a tool definition: a prompt's or resource's title and description, a prompt
// argument's name and description. The gateway serves those from upstreams too, and a model reads them the same way.

import { characterHits, instructionHits, parameterHits, stripProse } from './text-rules.js';
import type { Finding } from './types.js';

/**
 * The findings of one text, placed at `where` (e.g. `prompts.review.arguments[0].description`). `part`: 'prose' for
 * titles and descriptions, 'parameter' for a name the model fills in (a prompt argument).
 */
export function scanText(text: string, where: string, part: 'prose' | 'parameter' = 'prose'): Finding[] {
  const hits =
    part === 'parameter'
      ? [...characterHits(text), ...parameterHits(text), ...instructionHits(text, false)]
      : [...characterHits(text), ...instructionHits(text)];
  return hits.map((hit) => ({ ...hit, where }));
}

/** Prose as stripTool leaves it: invisible characters gone, and (unless `blocks` is false) comments and blocks cut. */
export function stripText(text: string, options: { blocks?: boolean } = {}): string {
  return stripProse(text, options.blocks ?? true);
}
