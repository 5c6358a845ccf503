// The http pack: http_request, off unless the operator enables it, refusing private destinations (SSRF guard).

import type { ToolConfig } from '../../server/index.js';
import type { PackEnvironment, ToolPack } from '../pack.js';
import { parseHttpConfig, type HttpConfig } from './config.js';
import { createHttpRequestTool } from './http-request.js';

export const httpPack: ToolPack<HttpConfig> = {
  name: 'http',
  description:
    'http_request: one HTTP request to a public host (loopback, private, link-local and metadata addresses refused)',
  parseConfig: parseHttpConfig,
  /** No tools unless `enabled: true`: the pack reaches the network on the model's behalf. */
  create(config: HttpConfig, environment: PackEnvironment): ToolConfig[] {
    if (!config.enabled) return [];
    if (config.allowHosts.length > 0) {
      environment.logger.warn(
        `http pack: allowHosts lets http_request reach ${config.allowHosts.join(', ')} even where private or loopback`,
      );
    }
    return [createHttpRequestTool(config, environment)];
  },
};

export { parseHttpConfig, HTTP_METHODS, type HttpConfig, type HttpMethod } from './config.js';
export { createHttpRequestTool, HTTP_REQUEST, type HttpToolOptions } from './http-request.js';
export type { Resolver } from './destination.js';
export { ConfigReader } from '../config-reader.js';
export * as ipRange from './ip-range.js';
