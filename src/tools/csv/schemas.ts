// The JSON Schemas of analyze_csv: what the model may send, and the shape of the structured result.

import { MAX_PATH_LENGTH } from '../roots.js';
import { EXAMPLES_KEPT, OPERATIONS } from './column-stats.js';
import { LINES_KEPT } from './csv-parser.js';
import { MAX_COLUMNS } from './table.js';

export const MAX_DISTINCT_LIMIT = 10_000;
export const DEFAULT_MAX_DISTINCT = 100;

export const inputSchema = {
  type: 'object',
  properties: {
    path: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_PATH_LENGTH,
      description:
        'The CSV file: relative to the first allowed root, or absolute inside a root (e.g. "data/sales.csv")',
    },
    operations: {
      type: 'array',
      items: { type: 'string', enum: [...OPERATIONS] },
      minItems: 1,
      maxItems: OPERATIONS.length,
      uniqueItems: true,
      description:
        'What to compute for each column: sum, average, min and max of the numeric cells; count of non-empty cells; distinct values with their counts',
    },
    columns: {
      type: 'array',
      items: { type: ['string', 'integer'], minimum: 0, maxLength: 1000 },
      minItems: 1,
      maxItems: MAX_COLUMNS,
      uniqueItems: true,
      description:
        'Columns to analyse, by header name (exact) or 0-based index; default: every column (at most 1000)',
    },
    delimiter: {
      type: 'string',
      minLength: 1,
      maxLength: 1,
      pattern: '^[^"\\r\\n]$',
      default: ',',
      description:
        'The field separator: one character other than a quote or line break, e.g. ";", "|" or a tab',
    },
    hasHeader: {
      type: 'boolean',
      default: true,
      description: 'Whether the first record names the columns; without a header, refer to columns by index',
    },
    maxDistinct: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_DISTINCT_LIMIT,
      default: DEFAULT_MAX_DISTINCT,
      description:
        'Most distinct values listed per column; beyond it the list is marked truncated. One call also keeps a bounded number of distinct values across all its columns (each column is sure of a fair share)',
    },
  },
  required: ['path', 'operations'],
  additionalProperties: false,
} as const;

const count = { type: 'integer', minimum: 0 } as const;
const numberOrNull = { type: ['number', 'null'] } as const;
const lines = { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: LINES_KEPT } as const;

const columnSchema = {
  type: 'object',
  properties: {
    column: { type: ['string', 'null'], description: 'The header name; null without a header' },
    index: { ...count, description: '0-based' },
    count: { ...count, description: 'Non-empty cells' },
    sum: numberOrNull,
    average: numberOrNull,
    min: numberOrNull,
    max: numberOrNull,
    numeric: { ...count, description: 'Cells read as numbers' },
    distinct: {
      type: 'object',
      properties: {
        values: {
          type: 'array',
          items: {
            type: 'object',
            properties: { value: { type: 'string' }, count: { type: 'integer', minimum: 1 } },
            required: ['value', 'count'],
            additionalProperties: false,
          },
        },
        truncated: { type: 'boolean' },
        truncatedBy: {
          enum: ['maxDistinct', 'callLimit', 'serverLimit'],
          description:
            'The bound that left values out: maxDistinct, what one call keeps across its columns, or what the server keeps for the calls running at once',
        },
      },
      required: ['values', 'truncated'],
      additionalProperties: false,
    },
    skipped: {
      type: 'object',
      properties: { missing: count, nonNumeric: count },
      required: ['missing'],
      additionalProperties: false,
    },
    examples: {
      type: 'array',
      maxItems: EXAMPLES_KEPT,
      description: 'The first skipped cells',
      items: {
        type: 'object',
        properties: {
          line: { type: 'integer', minimum: 1 },
          reason: { enum: ['missing', 'non-numeric'] },
          value: { type: 'string' },
        },
        required: ['line', 'reason'],
        additionalProperties: false,
      },
    },
  },
  required: ['column', 'index', 'skipped', 'examples'],
  additionalProperties: false,
} as const;

export const outputSchema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    rows: { ...count, description: 'Data rows read (the header is not counted)' },
    columns: { type: 'array', items: columnSchema },
    raggedRows: { ...count, description: 'Rows whose field count differs from the header (or first row)' },
    raggedLines: { ...lines, description: 'Lines of the first ragged rows' },
    blankLines: count,
    strayQuotes: count,
    unterminatedQuoteLine: {
      type: ['integer', 'null'],
      description: 'Line of a quote left open at the end of the file',
    },
    bytesRead: count,
    warnings: { type: 'array', items: { type: 'string' } },
  },
  required: [
    'path',
    'rows',
    'columns',
    'raggedRows',
    'raggedLines',
    'blankLines',
    'strayQuotes',
    'unterminatedQuoteLine',
    'bytesRead',
    'warnings',
  ],
  additionalProperties: false,
} as const;
