// Rate limits, quotas and concurrency caps (policy middleware): the public face of src/policy/rate-limit/.

export { checkRateLimitOptions, rateLimit, type RateLimiter, type RateLimitStats } from './rate-limit.js';
export { callerKey } from './caller-key.js';
export type { AnnotationClass, AnnotationTrust, Limit, LimitStore, RateLimitOptions } from './options.js';
export type { RateLimitedData } from './refusals.js';
