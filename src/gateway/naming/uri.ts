// Reversible resource URI (and URI template) rewriting: every upstream URI carries its server, none can be forged.

import { checkServerName, isServerName } from './server-name.js';
import { escapeTemplateLiterals, escapeUri, hasUriCharactersOnly, unescapeUri } from './uri-escape.js';

/** The scheme of every resource URI the gateway hands out. */
export const GATEWAY_URI_SCHEME = 'toolwire-gw';
const PREFIX = `${GATEWAY_URI_SCHEME}:`;
/** After the server name: the rest is percent-escaped (the upstream URI was not made of URI characters). */
const ESCAPED = ';escaped';

/*
 * Form: `toolwire-gw:SERVER/UPSTREAM` — the upstream URI verbatim after the server name, when it is made of URI
 * characters (nearly always). Verbatim matters for templates: RFC 6570 copies a template's literal prefix as it is
 * and only ever produces URI characters, so a client expanding `toolwire-gw:fs/` + template gets
 * `toolwire-gw:fs/` + the very URI the upstream's template gives. The path is opaque (no "//" after the scheme), so
 * URL parsers keep it as it is: no host to lower-case, no dot segments to remove.
 * Anything else (a space, non-ASCII, a stray "%") takes `toolwire-gw:SERVER;escaped/ESCAPED`, which is always a
 * valid URI. Since an upstream URI is only ever seen wrapped, an upstream listing `toolwire-gw:other/x` gets
 * `toolwire-gw:fs/toolwire-gw:other/x`, which still names fs.
 */

/** Rewrites an upstream's resource URI for gateway clients; throws NamingError for a bad server name. */
export function toGatewayUri(server: string, uri: string): string {
  checkServerName(server);
  if (typeof uri !== 'string') throw new TypeError('a resource URI must be a string');
  return hasUriCharactersOnly(uri)
    ? `${PREFIX}${server}/${uri}`
    : `${PREFIX}${server}${ESCAPED}/${escapeUri(uri)}`;
}

/**
 * The server and upstream URI of a gateway URI, or undefined for any string toGatewayUri would not have made (it is
 * checked by making it again): no case folding, no normalisation of dot segments or percent-encoding, so the
 * upstream receives exactly what the client asked for, and a variant of a URI is an unknown URI (B5).
 */
export function fromGatewayUri(uri: string): { server: string; uri: string } | undefined {
  if (typeof uri !== 'string' || !uri.startsWith(PREFIX)) return undefined;
  const slash = uri.indexOf('/', PREFIX.length);
  if (slash === -1) return undefined;
  const head = uri.slice(PREFIX.length, slash);
  const escaped = head.endsWith(ESCAPED);
  const server = escaped ? head.slice(0, -ESCAPED.length) : head;
  if (!isServerName(server)) return undefined;
  const tail = uri.slice(slash + 1);
  if (!escaped) return hasUriCharactersOnly(tail) ? { server, uri: tail } : undefined;
  const upstream = unescapeUri(tail);
  if (upstream === undefined || hasUriCharactersOnly(upstream) || escapeUri(upstream) !== tail)
    return undefined;
  return { server, uri: upstream };
}

/**
 * Rewrites an upstream's URI template (RFC 6570, any level) the same way, keeping every expression as it is: for
 * any variables, fromGatewayUri(expand(toGatewayTemplate(s, t))) is { server: s, uri: expand(t) }. Literal
 * characters the expansion would percent-encode anyway are encoded here already (see escapeTemplateLiterals).
 */
export function toGatewayTemplate(server: string, template: string): string {
  checkServerName(server);
  if (typeof template !== 'string') throw new TypeError('a URI template must be a string');
  return `${PREFIX}${server}/${escapeTemplateLiterals(template)}`;
}
