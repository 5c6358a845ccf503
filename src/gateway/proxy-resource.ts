// Upstream resources and resource templates registered on the gateway's server under gateway URIs (naming/): a read
// is forwarded under the upstream's own URI, and the contents come back with their URIs rewritten the same way.

import type { JsonObject } from '../jsonrpc/index.js';
import type { Resource, ResourceContents, ResourceTemplate } from '../protocol/index.js';
import { RpcError, ErrorCode } from '../jsonrpc/index.js';
import type { ToolContext } from '../server/index.js';
import type { ResourceConfig, ResourceContentsInput, ResourceTemplateConfig } from '../server/resources.js';
import { forwardInput } from './forward-input.js';
import { fromGatewayUri, toGatewayTemplate, toGatewayUri } from './naming/index.js';
import type { UpstreamRunner } from './proxy-tool.js';
import { upstreamRequestFailure } from './upstream-errors.js';
import { ownMeta } from './upstream-result.js';

export interface ProxyResourceOptions {
  server: string;
  run: UpstreamRunner;
  timeoutMs: number;
}

/** Reads `uri` (the upstream's) upstream for the inbound request `ctx`, contents under gateway URIs. */
async function read(
  options: ProxyResourceOptions,
  uri: string,
  ctx: ToolContext,
): Promise<ResourceContentsInput[]> {
  const input = forwardInput(ctx);
  try {
    const result = await options.run((client) =>
      client.readResource(uri, { signal: input.signal, handlers: input.handlers }),
    );
    input.rethrow();
    return result.contents.map((contents: ResourceContents) => {
      const out: ResourceContentsInput = { uri: toGatewayUri(options.server, contents.uri) };
      if (contents.mimeType !== undefined) out.mimeType = contents.mimeType;
      if ('text' in contents) out.text = contents.text;
      else out.blob = contents.blob;
      const meta = contents._meta === undefined ? undefined : ownMeta(contents._meta as JsonObject);
      if (meta !== undefined) out._meta = meta;
      return out;
    });
  } catch (error) {
    input.rethrow();
    throw upstreamRequestFailure(options.server, error);
  }
}

/** The listed metadata both kinds share. */
function metadata<T extends ResourceConfig | ResourceTemplateConfig>(
  config: T,
  entry: Resource | ResourceTemplate,
  timeoutMs: number,
): T {
  config.timeoutMs = timeoutMs;
  if (entry.title !== undefined) config.title = entry.title;
  if (entry.description !== undefined) config.description = entry.description;
  if (entry.mimeType !== undefined) config.mimeType = entry.mimeType;
  if (entry.icons !== undefined) config.icons = entry.icons;
  if (entry.annotations !== undefined) config.annotations = entry.annotations;
  return config;
}

export function proxyResource(options: ProxyResourceOptions, resource: Resource): ResourceConfig {
  const config: ResourceConfig = {
    uri: toGatewayUri(options.server, resource.uri),
    name: resource.name,
    read: (_uri, ctx) => read(options, resource.uri, ctx),
  };
  if (resource.size !== undefined) config.size = resource.size;
  return metadata(config, resource, options.timeoutMs);
}

export function proxyResourceTemplate(
  options: ProxyResourceOptions,
  template: ResourceTemplate,
): ResourceTemplateConfig {
  const config: ResourceTemplateConfig = {
    uriTemplate: toGatewayTemplate(options.server, template.uriTemplate),
    name: template.name,
    read: (uri, _variables, ctx) => {
      const original = fromGatewayUri(uri);
      // The template matched, so this is a gateway URI of this server; anything else is refused, never guessed.
      if (original === undefined || original.server !== options.server)
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid params: ${JSON.stringify(uri)} is not a resource of upstream "${options.server}"`,
        );
      return read(options, original.uri, ctx);
    },
  };
  return metadata(config, template, options.timeoutMs);
}
