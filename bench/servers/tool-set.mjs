// The tool set every benchmark server exposes: `calculate_sum` (a, b → the sum as text) and N small dummy tools.
// One definition, read by all three servers, so that they list the same names, descriptions and schemas.

/** @param {number} index */
export const dummyName = (index) => `dummy_${String(index).padStart(4, '0')}`;

/** @param {number} index */
export const dummyDescription = (index) =>
  `Dummy tool ${index}: echoes its text back. Registered to give the list weight.`;

export const SUM_DESCRIPTION = 'Adds two numbers and returns their sum as text.';

/** The wire form of the tools, as the bare server lists them (the shapes the libraries derive from their zod schemas). */
export function wireTools(count) {
  const tools = [
    {
      name: 'calculate_sum',
      description: SUM_DESCRIPTION,
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
    },
  ];
  for (let index = 0; index < count; index++) {
    tools.push({
      name: dummyName(index),
      description: dummyDescription(index),
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { text: { type: 'string' } },
        required: ['text'],
        additionalProperties: false,
      },
    });
  }
  return tools;
}

/**
 * Reads `--transport http|stdio --tools N --port P [--schemas zod|json]` (port 0: any free one, printed on stdout as
 * `port=<n>`). `--schemas json` (toolwire only): the tools' JSON Schemas as written, wireTools' shapes, instead of Zod.
 */
export function serverArgs(argv = process.argv.slice(2)) {
  const value = (flag, fallback) => {
    const at = argv.indexOf(flag);
    return at === -1 ? fallback : argv[at + 1];
  };
  const transport = value('--transport', 'http');
  const tools = Number(value('--tools', '10'));
  const port = Number(value('--port', '0'));
  const schemas = value('--schemas', 'zod');
  if (transport !== 'http' && transport !== 'stdio')
    throw new Error(`--transport must be http or stdio, not ${transport}`);
  if (!Number.isInteger(tools) || tools < 0 || tools > 100_000)
    throw new Error('--tools must be an integer 0..100000');
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error('--port must be an integer 0..65535');
  if (schemas !== 'zod' && schemas !== 'json')
    throw new Error(`--schemas must be zod or json, not ${schemas}`);
  return { transport, tools, port, schemas };
}

/** Announces the listening port to the bench driver (stdout, one line), so it never has to guess or poll. */
export function announce(server) {
  const address = server.address();
  process.stdout.write(`port=${address.port}\n`);
}

/** Exits on SIGTERM/SIGINT through process.exit, so that `node --cpu-prof` writes its profile when the driver stops us. */
export function exitOnSignal() {
  for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => process.exit(0));
}
