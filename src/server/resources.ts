// Resources: static resources and URI templates in catalogs, reading with content normalisation, embed/link helpers.

import { ErrorCode, RpcError, type JsonObject } from '../jsonrpc/index.js';
import type {
  Caller,
  EmbeddedResource,
  ResourceContents,
  ResourceLink,
  ResourceTemplate,
} from '../protocol/index.js';
import { Catalog, type CatalogEntry, type CatalogSettings } from './catalog.js';
import type { Completer } from './completer.js';
import type { ToolContext } from './context.js';
import { DefinitionError } from './errors.js';
import { checkIcons, checkTimeout } from './tool-definition.js';
import { makeTarget, type ResourceTarget, type ResourceTemplateTarget } from './targets.js';
import { UriTemplate } from './uri-template.js';

/** What a read returns: text, bytes, one contents object (blob may be bytes), or several. */
export type ResourceBody = string | Uint8Array | ResourceContentsInput | readonly ResourceContentsInput[];

export interface ResourceContentsInput {
  uri?: string;
  mimeType?: string;
  text?: string;
  blob?: string | Uint8Array;
  _meta?: JsonObject;
}

/** What resources/list (or resources/templates/list) shows of an entry, plus its time limit. */
interface ResourceMetadata extends Omit<ResourceTemplate, 'uriTemplate'> {
  timeoutMs?: number;
}

export interface ResourceConfig extends ResourceMetadata {
  uri: string;
  size?: number;
  read: (uri: string, ctx: ToolContext) => ResourceBody | Promise<ResourceBody>;
}

export interface ResourceTemplateConfig extends ResourceMetadata {
  uriTemplate: string;
  read: (
    uri: string,
    variables: Record<string, string>,
    ctx: ToolContext,
  ) => ResourceBody | Promise<ResourceBody>;
  /** Completion of variable values, by variable name. */
  complete?: Record<string, Completer>;
}

export interface ResourceRecord extends CatalogEntry {
  readonly config: ResourceConfig;
  /** What visibility rules and middleware see of this resource. */
  readonly target: ResourceTarget;
}

export interface TemplateRecord extends CatalogEntry {
  readonly config: ResourceTemplateConfig;
  readonly parsed: UriTemplate;
  readonly target: ResourceTemplateTarget;
}

function checkMetadata(config: ResourceMetadata, owner: string): void {
  if (typeof config.name !== 'string' || config.name.length === 0)
    throw new DefinitionError(`${owner}: name is required`);
  checkIcons(config.icons, owner);
  checkTimeout(config.timeoutMs, owner);
}

function wireMetadata(config: ResourceMetadata & { size?: number }, first: JsonObject): string {
  const wire: JsonObject = { ...first, name: config.name };
  for (const key of ['title', 'description', 'mimeType', 'size', 'icons', 'annotations', '_meta'] as const) {
    if (config[key] !== undefined) wire[key] = config[key];
  }
  return JSON.stringify(wire);
}

const sameForAll = (json: string): CatalogEntry['json'] => ({
  modern: json,
  legacy: json,
  'legacy-old': json,
});

export function compileResource(config: ResourceConfig): ResourceRecord {
  if (typeof config?.uri !== 'string' || !URL.canParse(config.uri)) {
    throw new DefinitionError(`A resource needs an absolute uri, got ${JSON.stringify(config?.uri)}`);
  }
  const owner = `resource "${config.uri}"`;
  checkMetadata(config, owner);
  if (typeof config.read !== 'function') throw new DefinitionError(`${owner}: read must be a function`);
  const json = wireMetadata(config, { uri: config.uri });
  return {
    key: config.uri,
    enabled: true,
    config,
    json: sameForAll(json),
    target: makeTarget<ResourceTarget>('resource', config.uri, json, config.timeoutMs),
  };
}

export function compileTemplate(config: ResourceTemplateConfig): TemplateRecord {
  const parsed = new UriTemplate(config?.uriTemplate);
  const owner = `resource template "${config.uriTemplate}"`;
  checkMetadata(config, owner);
  if (typeof config.read !== 'function') throw new DefinitionError(`${owner}: read must be a function`);
  for (const key of Object.keys(config.complete ?? {})) {
    if (!parsed.variables.includes(key))
      throw new DefinitionError(`${owner}: complete.${key} names no template variable`);
  }
  const json = wireMetadata(config, { uriTemplate: config.uriTemplate });
  return {
    key: config.uriTemplate,
    enabled: true,
    config,
    parsed,
    json: sameForAll(json),
    target: makeTarget<ResourceTemplateTarget>(
      'resourceTemplate',
      config.uriTemplate,
      json,
      config.timeoutMs,
    ),
  };
}

/** One resource found for a URI: a static one, or a template with the variables the URI binds. */
export type ResolvedResource =
  | { kind: 'static'; record: ResourceRecord }
  | { kind: 'template'; record: TemplateRecord; variables: Record<string, string> };

export class ResourceRegistry {
  readonly statics: Catalog<ResourceRecord>;
  readonly templates: Catalog<TemplateRecord>;

  constructor(settings: Omit<CatalogSettings, 'listKey' | 'noun'>, onChange: () => void) {
    this.statics = new Catalog({ ...settings, listKey: 'resources', noun: 'Resource' }, onChange);
    this.templates = new Catalog(
      { ...settings, listKey: 'resourceTemplates', noun: 'Resource template' },
      onChange,
    );
  }

  get size(): number {
    return this.statics.size + this.templates.size;
  }

  get(uri: string): ResourceRecord | undefined {
    return this.statics.get(uri);
  }

  template(uriTemplate: string): TemplateRecord | undefined {
    return this.templates.get(uriTemplate);
  }

  /**
   * A static resource with exactly this URI, else the first template (in registration order) that matches it; with
   * a caller, only what the visibility rules let that caller see (anything else is "not found", never "forbidden").
   */
  resolve(
    uri: string,
    caller?: Caller,
    visible?: {
      statics: ((caller: Caller, entry: ResourceRecord) => boolean) | undefined;
      templates: ((caller: Caller, entry: TemplateRecord) => boolean) | undefined;
    },
  ): ResolvedResource | undefined {
    const record =
      caller === undefined ? this.statics.get(uri) : this.statics.getFor(uri, caller, visible?.statics);
    if (record !== undefined) return { kind: 'static', record };
    const templates =
      caller === undefined ? this.templates.enabled() : this.templates.enabledFor(caller, visible?.templates);
    for (const template of templates) {
      const variables = template.parsed.match(uri);
      if (variables !== undefined) return { kind: 'template', record: template, variables };
    }
    return undefined;
  }
}

/** "Resource not found", as the revision spells it: -32602 with data.uri (2026-07-28), -32002 before. */
export const resourceNotFound = (uri: string, modern: boolean): RpcError =>
  new RpcError(modern ? ErrorCode.InvalidParams : ErrorCode.LegacyResourceNotFound, 'Resource not found', {
    uri,
  });

const toBase64 = (blob: string | Uint8Array): string =>
  typeof blob === 'string'
    ? blob
    : Buffer.from(blob.buffer, blob.byteOffset, blob.byteLength).toString('base64');

/** Turns what a read returned into contents objects, filling in the URI and MIME type. */
export function normaliseContents(
  body: ResourceBody,
  uri: string,
  mimeType: string | undefined,
): ResourceContents[] {
  const one = (input: ResourceContentsInput): ResourceContents => {
    const base: { uri: string; mimeType?: string; _meta?: JsonObject } = { uri: input.uri ?? uri };
    const type = input.mimeType ?? mimeType;
    if (type !== undefined) base.mimeType = type;
    if (input._meta !== undefined) base._meta = input._meta;
    if (typeof input.text === 'string') return { ...base, text: input.text };
    if (input.blob !== undefined) return { ...base, blob: toBase64(input.blob) };
    throw new TypeError(`resource "${uri}": read returned contents without text or blob`);
  };
  if (typeof body === 'string') return [one({ text: body, mimeType: mimeType ?? 'text/plain' })];
  if (body instanceof Uint8Array)
    return [one({ blob: body, mimeType: mimeType ?? 'application/octet-stream' })];
  if (Array.isArray(body)) return (body as readonly ResourceContentsInput[]).map(one);
  return [one(body as ResourceContentsInput)];
}

/** Reads a resolved resource with the given context (used by resources/read and by the embed helper). */
export async function readResolved(
  resolved: ResolvedResource,
  uri: string,
  ctx: ToolContext,
): Promise<ResourceContents[]> {
  const body =
    resolved.kind === 'static'
      ? await resolved.record.config.read(uri, ctx)
      : await resolved.record.config.read(uri, resolved.variables, ctx);
  return normaliseContents(body, uri, resolved.record.config.mimeType);
}

/** A resource_link content block for a resolved resource. */
export function linkFor(resolved: ResolvedResource, uri: string): ResourceLink {
  const config = resolved.record.config;
  const link: ResourceLink = { type: 'resource_link', uri, name: config.name };
  if (config.title !== undefined) link.title = config.title;
  if (config.description !== undefined) link.description = config.description;
  if (config.mimeType !== undefined) link.mimeType = config.mimeType;
  if (resolved.kind === 'static' && resolved.record.config.size !== undefined)
    link.size = resolved.record.config.size;
  return link;
}

export const embeddedFor = (contents: ResourceContents): EmbeddedResource => ({
  type: 'resource',
  resource: contents,
});
