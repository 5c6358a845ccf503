// Turns a received response into what the model sees: JSON and text as text, images as images, other bytes described.

import type { IncomingHttpHeaders } from 'node:http';
import type { CallToolResult, ContentBlock } from '../../protocol/index.js';
import { image, text } from '../../server/index.js';
import type { Received } from './send-once.js';

/** Response headers worth showing; cookies and the rest stay out of the model's context. */
const SHOWN_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-disposition',
  'location',
  'date',
  'last-modified',
  'etag',
  'cache-control',
  'expires',
  'retry-after',
  'www-authenticate',
  'link',
] as const;

const TEXT_TYPES = new Set([
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-www-form-urlencoded',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/graphql',
  'application/x-ndjson',
  'image/svg+xml', // XML text: shown as text, never rendered
]);

export interface Outcome extends Received {
  url: string;
  method: string;
  redirects: readonly string[];
  maxBytes: number;
}

function selectHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const name of SHOWN_HEADERS) {
    const value = headers[name];
    if (value !== undefined) shown[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return shown;
}

/** Decodes as the charset says (UTF-8 when it says nothing or names one Node does not know). */
function decode(body: Buffer, contentType: string): string {
  const charset = /;\s*charset="?([^";\s]+)"?/i.exec(contentType)?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return body.toString('utf8');
  }
}

const looksLikeText = (body: Buffer): boolean => {
  if (body.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(body);
    return true;
  } catch {
    return false;
  }
};

/** An image type the image() helper accepts; anything odder is described as binary. */
const IMAGE_TYPE = /^image\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

type Kind = 'json' | 'text' | 'image' | 'binary' | 'empty';

function kindOf(mime: string, body: Buffer): Kind {
  if (body.length === 0) return 'empty';
  if (mime === 'application/json' || mime.endsWith('+json')) return 'json';
  if (mime.startsWith('text/') || TEXT_TYPES.has(mime) || mime.endsWith('+xml')) return 'text';
  if (IMAGE_TYPE.test(mime)) return 'image';
  if (mime === '') return looksLikeText(body) ? 'text' : 'binary';
  return 'binary';
}

/** The full tool result: a readable summary (plus the body as text or image) and the structured form. */
export function describeResponse(outcome: Outcome): CallToolResult {
  const contentType = outcome.headers['content-type'] ?? '';
  const mime = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  const bytes = outcome.body.length;
  let kind = kindOf(mime, outcome.body);
  const structured: Record<string, unknown> = {
    url: outcome.url,
    status: outcome.status,
    statusText: outcome.statusText,
    headers: selectHeaders(outcome.headers),
    contentType: mime,
    bytes,
    truncated: outcome.truncated,
    redirects: outcome.redirects,
  };
  const lines = [
    `HTTP ${outcome.status} ${outcome.statusText} from ${outcome.method} ${outcome.url} (${mime || 'no content type'}, ${bytes} bytes)`,
  ];
  if (outcome.redirects.length > 0) lines.push(`Redirected from: ${outcome.redirects.join(' → ')}`);
  if (outcome.truncated) {
    lines.push(
      `…[truncated: the response is larger than ${outcome.maxBytes} bytes; only the first ${bytes} bytes were read]`,
    );
  }
  const blocks: ContentBlock[] = [];
  let bodyText: string | undefined;
  if (kind === 'json') {
    bodyText = decode(outcome.body, contentType);
    try {
      if (outcome.truncated) throw new SyntaxError('truncated');
      structured.json = JSON.parse(bodyText) as unknown;
    } catch {
      lines.push(
        outcome.truncated ? 'The JSON is cut short, so it is shown as text.' : 'The body is not valid JSON.',
      );
      kind = 'text';
    }
  }
  if (kind === 'text') {
    bodyText ??= decode(outcome.body, contentType);
    structured.text = bodyText;
  }
  if (kind === 'image' && outcome.truncated) {
    lines.push('The image is cut short, so it is not shown.');
  } else if (kind === 'image') {
    blocks.push(image(outcome.body, mime));
  }
  if (kind === 'binary') lines.push(`The body is binary (${mime || 'unknown type'}), so it is not shown.`);
  const summary = lines.join('\n');
  return {
    content: [text(bodyText === undefined ? summary : `${summary}\n\n${bodyText}`), ...blocks],
    structuredContent: structured,
  };
}

/** The outputSchema matching describeResponse's structuredContent. */
export const responseOutputSchema = {
  type: 'object',
  properties: {
    url: { type: 'string', description: 'The final URL, after redirects' },
    status: { type: 'integer', description: 'HTTP status code' },
    statusText: { type: 'string' },
    headers: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: `Selected response headers: ${SHOWN_HEADERS.join(', ')}`,
    },
    contentType: { type: 'string', description: 'The media type, lower case, without parameters' },
    bytes: { type: 'integer', minimum: 0, description: 'Body bytes read' },
    truncated: { type: 'boolean', description: 'The body exceeded the size limit and was cut short' },
    redirects: { type: 'array', items: { type: 'string' }, description: 'URLs that redirected, in order' },
    json: { description: 'The parsed body, for JSON responses' },
    text: { type: 'string', description: 'The body, for text responses (and JSON that could not be parsed)' },
  },
  required: ['url', 'status', 'statusText', 'headers', 'contentType', 'bytes', 'truncated', 'redirects'],
  additionalProperties: false,
} as const;
