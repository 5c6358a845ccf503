// The conformance fixture: one McpServer with every tool the official suite calls (conformance.md §3g).
// Resources, prompts, completion and the tasks extension too (§3c, §3f).

import { McpServer, type ServerOptions } from '../src/index.js';
import { registerContentTools } from './tools/content.js';
import { registerInputRequiredTools } from './tools/input-required.js';
import { registerLegacyInputTools } from './tools/legacy-input.js';
import { registerNotificationTools } from './tools/notifications.js';
import { registerPrompts } from './tools/prompts.js';
import { registerResources } from './tools/resources.js';
import { registerSchemaTools } from './tools/schemas.js';
import { registerTaskTools } from './tools/tasks.js';

export function createFixtureServer(options: ServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'toolwire-conformance-fixture', version: '1.0.0' }, options);
  // test_simple_text comes first: http-header-validation calls whichever tool is listed first, with no arguments.
  registerContentTools(server);
  registerNotificationTools(server);
  registerLegacyInputTools(server);
  registerInputRequiredTools(server);
  registerSchemaTools(server);
  registerTaskTools(server);
  registerResources(server);
  registerPrompts(server);
  return server;
}
