// Resolves a URL's host once and checks every address it gives; the request then connects to those addresses only.

import { promises as dns, type LookupAddress } from 'node:dns';
import { ToolError } from '../../server/index.js';
import { METADATA_HOSTNAMES, normaliseHostname, refusalFor, type AllowHosts } from './address-policy.js';
import { parseIp } from './ip-range.js';

/** Host name → addresses. The default is the system resolver (getaddrinfo, as http.request itself would use). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

// IPv4 first (verbatim: false), so that the address named in a refusal does not depend on resolver order.
export const systemResolver: Resolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: false });

/** Why a destination was refused, phrased to follow "Refused <url>: ". */
export class DestinationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefused';
  }
}

/** The host of a URL without IPv6 brackets ("[::1]" → "::1"). */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The addresses to connect to for `url`, every one of them checked. A host allowlisted by name is trusted whatever
 * it resolves to; otherwise a single refused address refuses the whole host (a resolver that mixes public and
 * private answers is how DNS rebinding starts).
 */
export async function checkDestination(
  url: URL,
  allow: AllowHosts,
  resolve: Resolver,
): Promise<LookupAddress[]> {
  const host = bareHost(url);
  const literal = parseIp(host);
  const byName = literal === undefined && allow.hasName(host);
  if (!byName && METADATA_HOSTNAMES.has(normaliseHostname(host))) {
    throw new DestinationRefused(`"${host}" is a cloud metadata host`);
  }
  let addresses: LookupAddress[];
  if (literal !== undefined) {
    addresses = [{ address: host, family: literal.family }];
  } else {
    try {
      addresses = await resolve(host);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new ToolError(
        `The host "${host}" could not be resolved (${code}); check the spelling of the URL`,
      );
    }
    if (addresses.length === 0) throw new ToolError(`The host "${host}" has no addresses`);
  }
  if (byName) return addresses;
  for (const { address } of addresses) {
    const parsed = parseIp(address);
    const verdict = parsed === undefined ? { reason: 'not an address', metadata: false } : refusalFor(parsed);
    if (verdict === undefined || (parsed !== undefined && allow.permits(parsed, verdict))) continue;
    throw new DestinationRefused(
      literal === undefined
        ? `"${host}" resolves to ${address}, ${verdict.reason}`
        : `${address} is ${verdict.reason}`,
    );
  }
  return addresses;
}
