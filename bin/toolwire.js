#!/usr/bin/env node
// The `toolwire` command: wires process arguments to the CLI module (built into dist/ by `npm ci`).
import { main } from '../dist/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`toolwire: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 3;
  },
);
