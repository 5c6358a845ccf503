// Whether a token was issued for this resource (RFC 8707): its `aud` names one of the accepted audiences. URLs are
// compared as URLs, so an upper-case scheme or host matches (the MCP spec asks servers to accept those) and
// "https://mcp.example.com" equals "https://mcp.example.com/"; anything else is compared exactly.

export const AUDIENCE_REFUSED = 'the token was not issued for this resource (audience)';

/** The form an audience is compared in: a parsed http(s) URL's href, else the value itself. */
function canonical(value: string): string {
  if (!/^https?:\/\//i.test(value)) return value;
  try {
    return new URL(value).href;
  } catch {
    return value;
  }
}

/** A test for `aud` values against the accepted audiences, prepared once. */
export function audienceMatcher(accepted: readonly string[]): (aud: unknown) => boolean {
  const wanted = new Set(accepted.map(canonical));
  const one = (value: unknown): boolean => typeof value === 'string' && wanted.has(canonical(value));
  return (aud) => (Array.isArray(aud) ? aud.some(one) : one(aud));
}
