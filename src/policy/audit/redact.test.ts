// E3: what the default redaction removes before a record is stored, and what it leaves alone.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactSecrets, redactText } from './redact.js';

describe('audit redaction', () => {
  it('E3 credential shapes inside strings are replaced by a marker naming them', () => {
    const cases: [string, string][] = [
      ['aws AKIAIOSFODNN7EXAMPLE.', 'aws [REDACTED:aws-access-key].'],
      ['ASIAY34FZKBOKMUTVV7A', '[REDACTED:aws-access-key]'],
      ['t=eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhIn0.c2lnbmF0dXJl;', 't=[REDACTED:jwt];'],
      [
        'x\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\ny',
        'x\n[REDACTED:private-key]\ny',
      ],
      ['-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn (cut off)', '[REDACTED:private-key]'],
      ['Authorization: Bearer abc.def-123_456', 'Authorization: Bearer [REDACTED:bearer-token]'],
      ['authorization: basic dXNlcjpwYXNzd29yZA==', 'authorization: basic [REDACTED:bearer-token]'],
      [`ghp_${'a1'.repeat(18)}`, '[REDACTED:github-token]'],
      [`xoxb-123456789012-abcdefghij`, '[REDACTED:slack-token]'],
      [`sk-ant-api03-${'x'.repeat(40)}`, '[REDACTED:api-key]'],
      [`sk_live_${'4'.repeat(24)}`, '[REDACTED:api-key]'],
      [`AIza${'B'.repeat(35)}`, '[REDACTED:google-api-key]'],
      ['postgres://app:hunter2@db:5432/x', 'postgres://app:[REDACTED:url-password]@db:5432/x'],
    ];
    for (const [input, expected] of cases) assert.equal(redactText(input), expected, input);
  });

  it('E3 prose and lookalikes are left as they are', () => {
    for (const text of [
      'a bearer of good news',
      'basic functionality is covered',
      'akiaiosfodnn7example',
      'eyJ alone',
      'https://example.com/path@v2',
      'the password field is empty',
    ]) {
      assert.equal(redactText(text), text);
    }
  });

  it('E3 values of secret-named keys are replaced whole, at any depth, without changing the input', () => {
    const input = {
      user: 'bob',
      password: 'p',
      nested: [{ api_key: 12345, 'X-Api-Key': 'k', clientSecret: { a: 1 }, author: 'me' }],
      options: { token: '', enabled: true, refresh_token: null, cookie: 'c=1' },
    };
    const copy = structuredClone(input);
    assert.deepEqual(redactSecrets(input), {
      user: 'bob',
      password: '[REDACTED]',
      nested: [
        { api_key: '[REDACTED]', 'X-Api-Key': '[REDACTED]', clientSecret: '[REDACTED]', author: 'me' },
      ],
      options: { token: '', enabled: true, refresh_token: null, cookie: '[REDACTED]' },
    });
    assert.deepEqual(input, copy);
  });

  it('E3 values nested deeper than 64 levels are replaced whole', () => {
    let deep: unknown = 'AKIAIOSFODNN7EXAMPLE';
    for (let i = 0; i < 100; i++) deep = [deep];
    assert.ok(!JSON.stringify(redactSecrets(deep)).includes('AKIA'));
    assert.ok(JSON.stringify(redactSecrets(deep)).includes('[REDACTED:too-deep]'));
  });
});
