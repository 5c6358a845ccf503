// What a request acts on, as policy sees it: the tool, prompt, resource or template it resolved to.
// Made once per registration (never per request) and shared by visibility rules and the request view.

import type { JsonObject } from '../jsonrpc/index.js';
import type { Prompt, Resource, ResourceTemplate, Tool, ToolAnnotations } from '../protocol/index.js';

export interface ToolTarget {
  readonly kind: 'tool';
  readonly name: string;
  /** The annotations the tool declares (readOnlyHint, destructiveHint, …): hints, not guarantees. */
  readonly annotations: Readonly<ToolAnnotations> | undefined;
  /** The tool as tools/list shows it on the modern wire. */
  readonly definition: Readonly<Tool>;
  /** The tool's own time limit, when it sets one (the server's default applies otherwise). */
  readonly timeoutMs: number | undefined;
}

export interface PromptTarget {
  readonly kind: 'prompt';
  readonly name: string;
  readonly definition: Readonly<Prompt>;
  readonly timeoutMs: number | undefined;
}

export interface ResourceTarget {
  readonly kind: 'resource';
  /** The registered URI. */
  readonly name: string;
  readonly definition: Readonly<Resource>;
  readonly timeoutMs: number | undefined;
}

export interface ResourceTemplateTarget {
  readonly kind: 'resourceTemplate';
  /** The registered URI template. */
  readonly name: string;
  readonly definition: Readonly<ResourceTemplate>;
  readonly timeoutMs: number | undefined;
}

export type Target = ToolTarget | PromptTarget | ResourceTarget | ResourceTemplateTarget;

/** A frozen target from an entry's modern list JSON (parsed once, at registration). */
export function makeTarget<T extends Target>(
  kind: T['kind'],
  name: string,
  modernJson: string,
  timeoutMs: number | undefined,
): T {
  const definition = deepFreeze(JSON.parse(modernJson) as JsonObject);
  const target: Record<string, unknown> = { kind, name, definition, timeoutMs };
  if (kind === 'tool') target.annotations = definition.annotations;
  return Object.freeze(target) as unknown as T;
}

function deepFreeze<V>(value: V): V {
  if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
