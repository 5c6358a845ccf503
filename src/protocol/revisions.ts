// Protocol revisions and the two eras: modern (stateless, per-request _meta) and legacy (initialize handshake).

export const MODERN_REVISION = '2026-07-28';

/** Revisions served statelessly with per-request _meta, newest first. */
export const MODERN_REVISIONS: readonly string[] = [MODERN_REVISION];

/** Revisions served through the initialize handshake, newest first. */
export const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
export type LegacyRevision = (typeof LEGACY_REVISIONS)[number];
export const LATEST_LEGACY_REVISION: LegacyRevision = LEGACY_REVISIONS[0];

export const isLegacyRevision = (value: unknown): value is LegacyRevision =>
  typeof value === 'string' && (LEGACY_REVISIONS as readonly string[]).includes(value);

export const isModernRevision = (value: unknown): value is string =>
  typeof value === 'string' && MODERN_REVISIONS.includes(value);

/**
 * Legacy version negotiation: the client's version when we support it, otherwise our latest legacy one.
 * Never a modern revision: 2026-07-28 has no handshake.
 */
export const negotiateLegacyRevision = (requested: unknown): LegacyRevision =>
  isLegacyRevision(requested) ? requested : LATEST_LEGACY_REVISION;

/** JSON-RPC batches exist only in 2025-03-26. */
export const revisionAllowsBatches = (revision: string | undefined): boolean => revision === '2025-03-26';

/** Revisions ≥ 2025-06-18 know structuredContent, outputSchema, title and resource links. */
export const revisionHasStructuredContent = (revision: string): boolean =>
  revision !== '2024-11-05' && revision !== '2025-03-26';
