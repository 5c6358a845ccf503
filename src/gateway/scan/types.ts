// The scan's public shapes and default bounds (threats C1, C5, C6).

/** One thing the scan found. where: 'description', 'inputSchema.properties.x.description', … */
export interface Finding {
  rule: string;
  severity: 'warn' | 'deny';
  where: string;
  detail: string;
}

/** Bounds on what one upstream may list. */
export interface ListingLimits {
  maxTools: number;
  maxPages: number;
  maxDefinitionBytes: number;
}

export const DEFAULT_LISTING_LIMITS: Readonly<ListingLimits> = {
  maxTools: 10_000,
  maxPages: 100,
  maxDefinitionBytes: 128 * 1024,
};

/** Bounds on one tool definition, checked by refuseDefinition. */
export interface DefinitionLimits {
  /** UTF-8 bytes of the definition's JSON. */
  maxDefinitionBytes: number;
  /** Objects and arrays in the whole definition. */
  maxNodes: number;
  /** Nesting of objects and arrays, the definition being level 1. */
  maxDepth: number;
  /** Subschemas once every $ref is replaced by its target (a few shared $defs must not expand without end). */
  maxExpandedSchemas: number;
  /** Subschemas inside subschemas, through $refs. */
  maxSchemaNesting: number;
  /** allOf / anyOf / oneOf / not / if / then / else inside one another, through $refs. */
  maxCombinatorNesting: number;
  /** Steps of all the checks together: the bound on the time one definition can cost. */
  maxSteps: number;
}

export const DEFAULT_DEFINITION_LIMITS: Readonly<DefinitionLimits> = {
  maxDefinitionBytes: DEFAULT_LISTING_LIMITS.maxDefinitionBytes,
  maxNodes: 20_000,
  maxDepth: 64,
  maxExpandedSchemas: 20_000,
  maxSchemaNesting: 32,
  maxCombinatorNesting: 10,
  maxSteps: 2_000_000,
};
