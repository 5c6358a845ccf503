// examples/model-api.ts runs as the README says, offline: its stand-in model API calls the tool once, then answers.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { it } from 'node:test';

it(
  'examples/model-api.ts runs the tool loop offline and prints the answer',
  { timeout: 120_000 },
  async () => {
    const env = { ...process.env };
    delete env.OPENAI_API_KEY; // never the network, whatever the machine has set
    const child = spawn(process.execPath, ['--import', 'tsx', 'examples/model-api.ts'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    assert.deepEqual(
      { code, stdout, stderr },
      {
        code: 0,
        stdout: 'Paris: sunny for the next 2 days, around 21°C.\n',
        stderr: 'called weather.forecast with {"city":"Paris","days":2}\n',
      },
    );
  },
);
