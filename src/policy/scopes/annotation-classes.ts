// The annotation classes a tool counts in for scope rules, from its hints read as the spec defines them (defaults
// included), or the worst case when its annotations are not trusted (C4: an untrusted server can claim anything).

import type { ToolTarget } from '../../server/index.js';

export const ANNOTATION_CLASSES = [
  'read-only',
  'destructive',
  'non-destructive',
  'idempotent',
  'open-world',
] as const;

export type AnnotationClass = (typeof ANNOTATION_CLASSES)[number];

const UNTRUSTED: ReadonlySet<AnnotationClass> = new Set<AnnotationClass>(['destructive', 'open-world']);

/**
 * The classes of a tool. Only a boolean hint counts; anything else is as if absent, so the spec's default applies:
 * readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true.
 * - read-only: readOnlyHint true.
 * - destructive: not read-only and destructiveHint not false (the spec: destructiveHint means something only when
 *   readOnlyHint is not true); non-destructive is its complement (read-only tools included).
 * - idempotent: read-only (no effect at all), or idempotentHint true.
 * - open-world: openWorldHint not false.
 * Untrusted annotations: destructive and open-world, whatever the tool says.
 */
export function annotationClasses(target: ToolTarget, trusted: boolean): ReadonlySet<AnnotationClass> {
  if (!trusted) return UNTRUSTED;
  const hints = target.annotations;
  const readOnly = hints?.readOnlyHint === true;
  const destructive = !readOnly && hints?.destructiveHint !== false;
  const classes = new Set<AnnotationClass>();
  if (readOnly) classes.add('read-only');
  classes.add(destructive ? 'destructive' : 'non-destructive');
  if (readOnly || hints?.idempotentHint === true) classes.add('idempotent');
  if (hints?.openWorldHint !== false) classes.add('open-world');
  return classes;
}
