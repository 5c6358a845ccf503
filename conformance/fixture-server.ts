// Serves the conformance fixture over Streamable HTTP on loopback; scripts/conformance.mjs starts it.
// Run it alone: PORT=3000 node --import tsx conformance/fixture-server.ts

import { listenHttp } from '../src/transports/http/index.js';
import { createFixtureServer } from './fixture.js';

const server = createFixtureServer();
const listener = await listenHttp(server, { host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stderr.write(`toolwire: listening on ${listener.url}\n`);

// listener.close() ends sessions and streams but leaves the McpServer open, so both are closed.
const shutdown = (): void => {
  listener
    .close()
    .then(() => server.close())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
