// C1 for what upstreams list beside tools: a prompt's or resource's title and description and a prompt argument's
// name and description are read by a model too, so they get the same poisoning mode as tool definitions.

import type { Prompt, Resource, ResourceTemplate } from '../protocol/index.js';
import type { Logger } from '../server/index.js';
import { scanText, stripText, type Finding, type PoisoningMode } from './scan/index.js';

/** One text field of an entry: where it is (for findings), its value, and whether a model fills it in. */
interface Field {
  where: string;
  text: string;
  part: 'prose' | 'parameter';
  /** Puts the cleaned text back. */
  set(text: string): void;
}

export interface Vetted<T> {
  entry: T | undefined;
  reason?: string;
}

/**
 * The entry as it may be served: in every mode invisible characters are removed; "strip" also cuts instruction blocks
 * and comments from prose; an entry with a denying finding ("deny"), or one left after stripping ("strip"), is left
 * out. Names a model fills in (prompt arguments) are never rewritten, only judged.
 */
export function vetEntry<T>(
  server: string,
  kind: string,
  entry: T,
  fields: (copy: T) => Field[],
  mode: PoisoningMode,
  logger: Logger,
): Vetted<T> {
  const copy = structuredClone(entry);
  const findings: Finding[] = [];
  for (const field of fields(copy)) {
    const found = scanText(field.text, field.where, field.part);
    findings.push(...found);
    if (field.part === 'prose') field.set(stripText(field.text, { blocks: mode === 'strip' }));
  }
  for (const finding of findings) {
    logger.warn(
      `gateway: upstream "${server}" ${kind}: ${finding.rule} (${finding.severity}) in ${finding.where}: ${finding.detail}`,
    );
  }
  const judged =
    mode === 'strip'
      ? fields(copy).flatMap((field) => scanText(field.text, field.where, field.part))
      : findings;
  const denying = judged.filter((finding) => finding.severity === 'deny');
  if (mode !== 'report' && denying.length > 0) {
    const reason = `poisoned (${denying.length} finding(s) that deny, first ${denying[0]?.rule} in ${denying[0]?.where})`;
    logger.warn(`gateway: upstream "${server}" ${kind} is not served: ${reason}`);
    return { entry: undefined, reason };
  }
  return { entry: copy };
}

/** The title and description of anything listed (prose). */
function described(where: string, entry: { title?: string; description?: string }): Field[] {
  const fields: Field[] = [];
  if (typeof entry.title === 'string')
    fields.push({
      where: `${where}.title`,
      text: entry.title,
      part: 'prose',
      set: (text) => (entry.title = text),
    });
  if (typeof entry.description === 'string') {
    fields.push({
      where: `${where}.description`,
      text: entry.description,
      part: 'prose',
      set: (text) => (entry.description = text),
    });
  }
  return fields;
}

export function vetPrompt(
  server: string,
  prompt: Prompt,
  mode: PoisoningMode,
  logger: Logger,
): Prompt | undefined {
  const where = `prompts.${prompt.name}`;
  return vetEntry(
    server,
    `prompt ${JSON.stringify(prompt.name.slice(0, 80))}`,
    prompt,
    (copy) => [
      ...described(where, copy),
      ...(copy.arguments ?? []).flatMap((argument, index): Field[] => [
        {
          where: `${where}.arguments[${index}].name`,
          text: argument.name,
          part: 'parameter',
          set: () => undefined,
        },
        ...described(`${where}.arguments[${index}]`, argument),
      ]),
    ],
    mode,
    logger,
  ).entry;
}

export function vetResource<T extends Resource | ResourceTemplate>(
  server: string,
  resource: T,
  mode: PoisoningMode,
  logger: Logger,
): T | undefined {
  const key = 'uri' in resource ? resource.uri : resource.uriTemplate;
  return vetEntry(
    server,
    `resource ${JSON.stringify(key.slice(0, 120))}`,
    resource,
    (copy) => described(`resources.${key}`, copy),
    mode,
    logger,
  ).entry;
}
