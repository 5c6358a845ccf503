// The http pack's configuration: off unless enabled; which methods, which private hosts, how far and how much.

import { AllowHosts } from './address-policy.js';
import { ConfigReader } from '../config-reader.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export interface HttpConfig {
  /** Default false: the pack creates no tools until the operator turns it on. */
  enabled: boolean;
  /** Methods the tool offers. Default: all six; only GET and HEAD makes the tool read-only. */
  methods: readonly HttpMethod[];
  /** Host names, addresses and CIDR ranges that may be reached although they are private. Default none. */
  allowHosts: readonly string[];
  /** Redirects followed per call, each one checked again. Default 5 (0 returns the redirect itself). */
  maxRedirects: number;
  /** Response bytes read before the body is cut short. Default 5 MiB. */
  maxResponseBytes: number;
}

const KEYS = ['enabled', 'methods', 'allowHosts', 'maxRedirects', 'maxResponseBytes'] as const;
const MiB = 1024 * 1024;

export function parseHttpConfig(raw: unknown, key: string): HttpConfig {
  const read = new ConfigReader(raw, key, KEYS);
  return {
    enabled: read.boolean('enabled', false),
    methods: read.choiceList('methods', HTTP_METHODS, HTTP_METHODS),
    allowHosts: read.stringList('allowHosts', [], { maxItems: 1000, check: AllowHosts.problem }),
    maxRedirects: read.integer('maxRedirects', 5, 0, 20, 'redirects'),
    maxResponseBytes: read.integer('maxResponseBytes', 5 * MiB, 1, 100 * MiB, 'bytes'),
  };
}
