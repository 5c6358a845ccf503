// Fixtures for the resource scenarios: resources-{list, read-text, read-binary, templates-read, subscribe,
// unsubscribe}, sep-2164-resource-not-found, caching and completion of a template variable.

import type { McpServer } from '../../src/index.js';
import { PNG_BASE64 } from './shared.js';

export function registerResources(server: McpServer): void {
  server.resource({
    uri: 'test://static-text',
    name: 'static-text',
    title: 'Static text',
    description: 'A static text resource (conformance: resources-read-text).',
    mimeType: 'text/plain',
    read: () => 'This is the content of the static text resource.',
  });

  server.resource({
    uri: 'test://static-binary',
    name: 'static-binary',
    title: 'Static binary',
    description: 'A static binary resource, a PNG image (conformance: resources-read-binary).',
    mimeType: 'image/png',
    read: () => ({ blob: PNG_BASE64 }),
  });

  server.resource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description:
      'A resource clients may subscribe to (conformance: resources-subscribe, resources-unsubscribe).',
    mimeType: 'text/plain',
    read: () => 'Watched resource content.',
  });

  server.resourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    title: 'Data by id',
    description: 'JSON data for an id (conformance: resources-templates-read).',
    mimeType: 'application/json',
    read: (uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
    complete: { id: (value) => ['123', '456', '789'].filter((id) => id.startsWith(value)) },
  });
}
