// scanTool and stripTool (threat C1): the poisoning findings of one tool definition, and the same definition with
// everything hidden or addressed to the model taken out of its prose.

import type { Tool } from '../../protocol/index.js';
import { BudgetExceeded, Meter } from '../../schema/pattern/index.js';
import { characterHits, instructionHits, parameterHits, stripProse, type TextHit } from './text-rules.js';
import { forEachText, type TextVisit } from './text-walk.js';
import type { Finding } from './types.js';
import { excerpt } from './visible.js';

/** Findings kept per tool; one more says how many were left out. */
export const MAX_FINDINGS = 100;
/** Steps of the walk over one definition (strings and keys); a larger one is refused before it is scanned. */
const SCAN_STEPS = 500_000;

function hitsFor({ text, part }: TextVisit): TextHit[] {
  switch (part) {
    case 'parameter':
      return [...characterHits(text), ...parameterHits(text), ...instructionHits(text, false)];
    case 'name':
    case 'key':
    case 'prose':
    case 'data':
      return [...characterHits(text), ...instructionHits(text)];
  }
}

/**
 * C1: instruction blocks (<IMPORTANT>, <system>, chat-template tokens), instruction phrases ("ignore previous
 * instructions", "do not tell the user"), HTML comments, invisible characters (tag characters: deny; zero-width,
 * bidi, controls: warn), parameters asking for secrets (deny) or credentials (warn), mentions of secret files (warn).
 * Looks at the name, title, description, annotations.title and every string and key of both schemas, in that order.
 * One finding per rule and place.
 */
export function scanTool(tool: Tool): Finding[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  let omitted = 0;
  try {
    forEachText(tool as unknown as Record<string, unknown>, new Meter(SCAN_STEPS), (visit) => {
      for (const hit of hitsFor(visit)) {
        const key = `${hit.rule}\u0000${visit.where}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (findings.length < MAX_FINDINGS) findings.push({ ...hit, where: visit.where });
        else omitted++;
      }
    });
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    findings.push({
      rule: 'too-large',
      severity: 'deny',
      where: '(definition)',
      detail: `the definition has more than ${SCAN_STEPS} strings and keys; the rest was not scanned`,
    });
  }
  if (omitted > 0) {
    findings.push({
      rule: 'too-many-findings',
      severity: 'warn',
      where: '(definition)',
      detail: `${omitted} more findings not listed`,
    });
  }
  return findings;
}

/**
 * The same definition with its prose (title, description, annotations.title, and every title, description and
 * $comment inside both schemas) stripped: invisible characters and escape sequences removed, HTML comments and
 * instruction blocks cut out with their content. Names, parameter names and data (enum, const, default, examples,
 * pattern…) are never changed: the upstream compares them exactly, so the schema means what it meant. What stripping
 * cannot remove stays a finding: scan the stripped tool to decide (a deny finding left means deny the tool).
 * With `{ blocks: false }` only invisible characters and escapes are removed (comments and blocks stay visible, to be
 * reported). Throws RangeError for a definition over the scan's budget (refuseDefinition refuses those first).
 */
export function stripTool(tool: Tool, options: { blocks?: boolean } = {}): Tool {
  const blocks = options.blocks ?? true;
  // A JSON copy: the tool came as JSON, and JSON.parse keeps a key named "__proto__" as data.
  const copy = JSON.parse(JSON.stringify(tool)) as Tool;
  try {
    forEachText(
      copy as unknown as Record<string, unknown>,
      new Meter(SCAN_STEPS),
      ({ text, part, replace }) => {
        if (part !== 'prose') return;
        const stripped = stripProse(text, blocks);
        if (stripped !== text) replace(stripped);
      },
    );
  } catch (error) {
    if (error instanceof BudgetExceeded)
      throw new RangeError(
        `the definition of ${excerpt(String(tool.name))} is too large to strip (refuse it first)`,
        {
          cause: error,
        },
      );
    throw error;
  }
  return copy;
}
