// Parsing `[HOST:]PORT` for --http.

export interface Address {
  host: string;
  port: number;
}

/** `3333`, `127.0.0.1:3333`, `localhost:0`, `[::1]:8080`; port 0 picks a free port. Throws with a usage hint. */
export function parseAddress(value: string): Address {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]:|([A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(value.trim());
  const port = match === null ? NaN : Number(match[3]);
  if (match === null || port > 65_535) {
    throw new Error(`--http expects [HOST:]PORT such as 127.0.0.1:3333, [::1]:0 or 3333; got "${value}"`);
  }
  return { host: match[1] ?? match[2] ?? '127.0.0.1', port };
}
