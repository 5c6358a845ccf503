// `npm run schema`: writes schema/toolwire.schema.json from what the config readers read (src/tools/config-schema.ts).
// test/config-schema.test.ts fails while the committed file differs from what this would write.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { configSchema } from '../src/tools/config-schema.js';

const file = fileURLToPath(new URL('../schema/toolwire.schema.json', import.meta.url));
const options = (await resolveConfig(file)) ?? {};
writeFileSync(file, await format(JSON.stringify(configSchema()), { ...options, filepath: file }));
process.stdout.write(`wrote ${file}\n`);
