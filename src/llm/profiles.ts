// The provider profiles: which API a tool list is compiled for, and that API's documented rules and limits.

/** One target: a provider API, strict (grammar-constrained arguments) or not. */
export type ProfileId =
  | 'openai-chat'
  | 'openai-chat-strict'
  | 'openai-responses'
  | 'openai-responses-strict'
  | 'anthropic'
  | 'anthropic-strict';

export const PROFILE_IDS: readonly ProfileId[] = [
  'openai-chat',
  'openai-chat-strict',
  'openai-responses',
  'openai-responses-strict',
  'anthropic',
  'anthropic-strict',
];

export type Provider = 'openai' | 'anthropic';
export type Api = 'chat' | 'responses' | 'messages';

/** Limits OpenAI documents for a strict schema ("Supported schemas", Structured Outputs guide, July 2025 values). */
export interface OpenAIStrictLimits {
  /** "up to 5000 object properties total". */
  maxProperties: number;
  /** "up to 10 levels of nesting": objects and arrays, the root object counting as level 1 (fails closed). */
  maxDepth: number;
  /** "total string length of all property names, definition names, enum values, and const values". */
  maxStringChars: number;
  /** "up to 1000 enum values across all enum properties". */
  maxEnumValues: number;
  /** "more than 250 enum values" in one string enum → at most 15,000 characters for that enum. */
  largeEnumThreshold: number;
  maxLargeEnumChars: number;
}

/** Per-request limits Anthropic documents for strict tools (structured outputs, "JSON Schema limitations"). */
export interface AnthropicStrictLimits {
  maxStrictTools: number;
  maxOptionalParameters: number;
  maxUnionParameters: number;
}

export interface Profile {
  readonly id: ProfileId;
  readonly provider: Provider;
  readonly api: Api;
  readonly strict: boolean;
  /** Tool names: OpenAI `^[a-zA-Z0-9_-]{1,64}$`, Anthropic custom tools `^[a-zA-Z0-9_-]{1,128}$`. */
  readonly maxNameLength: number;
  /** Property keys must match this (Anthropic: `^[a-zA-Z0-9_.-]{1,64}$`); undefined when the provider sets no rule. */
  readonly keyPattern: RegExp | undefined;
  readonly maxKeyLength: number | undefined;
  /** String formats the strict grammar knows; undefined when any format may pass. */
  readonly formats: ReadonlySet<string> | undefined;
}

export const NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;
export const ANTHROPIC_KEY_PATTERN = /^[a-zA-Z0-9_.-]{1,64}$/;

export const OPENAI_STRICT_LIMITS: OpenAIStrictLimits = {
  maxProperties: 5000,
  maxDepth: 10,
  maxStringChars: 120_000,
  maxEnumValues: 1000,
  largeEnumThreshold: 250,
  maxLargeEnumChars: 15_000,
};

export const ANTHROPIC_STRICT_LIMITS: AnthropicStrictLimits = {
  maxStrictTools: 20,
  maxOptionalParameters: 24,
  maxUnionParameters: 16,
};

/** OpenAI strict: "date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid" (so `uri` is refused). */
export const OPENAI_STRICT_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Anthropic strict: the OpenAI list plus `uri` (structured outputs, "supported string formats"). */
export const ANTHROPIC_STRICT_FORMATS: ReadonlySet<string> = new Set([...OPENAI_STRICT_FORMATS, 'uri']);

const openai = (id: ProfileId, api: Api, strict: boolean): Profile => ({
  id,
  provider: 'openai',
  api,
  strict,
  maxNameLength: 64,
  keyPattern: undefined,
  maxKeyLength: undefined,
  formats: strict ? OPENAI_STRICT_FORMATS : undefined,
});

const anthropic = (id: ProfileId, strict: boolean): Profile => ({
  id,
  provider: 'anthropic',
  api: 'messages',
  strict,
  maxNameLength: 128,
  keyPattern: ANTHROPIC_KEY_PATTERN,
  maxKeyLength: 64,
  formats: strict ? ANTHROPIC_STRICT_FORMATS : undefined,
});

const PROFILES: Readonly<Record<ProfileId, Profile>> = {
  'openai-chat': openai('openai-chat', 'chat', false),
  'openai-chat-strict': openai('openai-chat-strict', 'chat', true),
  'openai-responses': openai('openai-responses', 'responses', false),
  'openai-responses-strict': openai('openai-responses-strict', 'responses', true),
  anthropic: anthropic('anthropic', false),
  'anthropic-strict': anthropic('anthropic-strict', true),
};

export const isProfileId = (value: unknown): value is ProfileId =>
  typeof value === 'string' && (PROFILE_IDS as readonly string[]).includes(value);

/** The profile for an id; throws a clear error for an unknown one (ids come from users and the CLI). */
export function profile(id: ProfileId | Profile): Profile {
  if (typeof id === 'object') return id;
  if (!isProfileId(id)) {
    throw new TypeError(
      `unknown model API profile ${JSON.stringify(id)}; use one of ${PROFILE_IDS.join(', ')}`,
    );
  }
  return PROFILES[id];
}

/** The same API without strict mode: where a tool goes when it cannot be made strict. */
export const looseVariant = (p: Profile): Profile =>
  p.strict ? profile(p.id.replace(/-strict$/, '') as ProfileId) : p;
