// cleanResult's shortcut for results it leaves as they are (plain text blocks only): it must answer exactly what the
// general walk answers, and step aside whenever any step would change something (threats E1, E3, E5).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../jsonrpc/index.js';
import { redactSecrets } from '../redact/index.js';
import { cleanResult, type CleanSteps } from './clean-result.js';

const STEPS: CleanSteps = {
  text: true,
  redactor: undefined,
  mask: true,
  maxTextBytes: 1024,
  maxBinaryBytes: 1024,
};

const textResult = (...texts: string[]): JsonObject => ({
  content: texts.map((text) => ({ type: 'text', text })),
});

describe('cleanResult on plain results', () => {
  it('answers a result of plain text blocks with the same object and a report of nothing done', () => {
    const result = textResult('42', 'east: 東京, tab\there\nnext line');
    const { result: cleaned, report } = cleanResult(result, STEPS);
    assert.equal(cleaned, result);
    assert.deepEqual(
      { ...report },
      {
        changed: false,
        redactions: 0,
        masked: false,
        truncated: false,
        binaryLeftOut: 0,
        structuredChanged: false,
      },
    );
  });

  it('E1: still cleans a later block that holds an escape after a plain one', () => {
    const { result, report } = cleanResult(textResult('plain', 'red \x1b[31mtext\x1b[0m'), STEPS);
    assert.equal(report.changed, true);
    assert.deepEqual(result.content, [
      { type: 'text', text: 'plain' },
      { type: 'text', text: 'red text' },
    ]);
  });

  it('still cuts a text that only fits the bound when counted in characters, not in UTF-8 bytes', () => {
    // 8 characters, 24 bytes: over a 20-byte bound, so the shortcut must not take it.
    const { result, report } = cleanResult(textResult('€'.repeat(8)), { ...STEPS, maxTextBytes: 20 });
    assert.equal(report.truncated, true);
    const text = (result.content as JsonObject[])[0]?.text as string;
    assert.ok(text.startsWith('€€€€€€'), text);
    assert.notEqual(text, '€'.repeat(8));
  });

  it('E5: still masks a tool error whose plain text names a local path', () => {
    const error = { ...textResult('failed to open /home/alice/.ssh/id_rsa'), isError: true };
    const { result, report } = cleanResult(error, STEPS);
    assert.equal(report.masked, true);
    assert.doesNotMatch(String((result.content as JsonObject[])[0]?.text), /alice/);
  });

  it('E3: still redacts a secret in plain text when redaction is on', () => {
    const secret = 'AKIAIOSFODNN7EXAMPLE';
    const { result, report } = cleanResult(textResult(`key ${secret}`), {
      ...STEPS,
      redactor: redactSecrets,
    });
    assert.equal(report.redactions, 1);
    assert.doesNotMatch(String((result.content as JsonObject[])[0]?.text), /AKIA/);
  });

  it('leaves the shortcut to the walk for structured content, images and non-text blocks', () => {
    const withStructured = { ...textResult('{"a":1}'), structuredContent: { a: 'x\u200by' } };
    assert.equal(cleanResult(withStructured, STEPS).report.structuredChanged, true);
    const image: JsonObject = { content: [{ type: 'image', data: 'A'.repeat(4096), mimeType: 'image/png' }] };
    assert.equal(cleanResult(image, STEPS).report.binaryLeftOut, 1);
  });
});
