// Secret redaction (threat E3): each shape replaced by its marker, JSON members named like secrets, the walk's bounds,
// and no false positives on a corpus of ordinary text, identifiers and hashes.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRedactor, isCardNumber, luhnValid, redactSecrets, redactText } from './index.js';

// Made up here, in the documented shapes (AWS's own example key pair, jwt.io's example token).
const AWS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE';
const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
const PRIVATE_KEY = [
  '-----BEGIN PRIVATE KEY-----',
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj',
  'MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu',
  '-----END PRIVATE KEY-----',
].join('\n');
const VISA = '4111 1111 1111 1111';

const text = (input: string): string => redactText(input).text;

describe('redaction: shapes (E3)', () => {
  const cases: [kind: string, input: string, expected: string][] = [
    ['aws-access-key-id', `id=${AWS_KEY_ID};`, 'id=[redacted:aws-access-key-id];'],
    ['aws-access-key-id (temporary)', 'ASIAY34FZKBOKMUTVV7A', '[redacted:aws-access-key-id]'],
    [
      'aws-secret-access-key',
      `aws_secret_access_key = ${AWS_SECRET}`,
      'aws_secret_access_key = [redacted:aws-secret-access-key]',
    ],
    [
      'aws-secret-access-key in JSON text',
      `{"SecretAccessKey": "${AWS_SECRET}"}`,
      '{"SecretAccessKey": "[redacted:aws-secret-access-key]"}',
    ],
    ['jwt', `token ${JWT}.`, 'token [redacted:jwt].'],
    ['private-key', `key:\n${PRIVATE_KEY}\nend`, 'key:\n[redacted:private-key]\nend'],
    [
      'private-key (RSA, cut before its end)',
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA',
      '[redacted:private-key]',
    ],
    [
      'private-key (PGP block)',
      '-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK-----',
      '[redacted:private-key]',
    ],
    ['github-token', `ghp_${'a1B2'.repeat(9)}`, '[redacted:github-token]'],
    ['github-token (fine-grained)', `github_pat_${'A1b2_'.repeat(17)}`, '[redacted:github-token]'],
    ['gitlab-token', 'glpat-xYz1234567890abcdefGH', '[redacted:gitlab-token]'],
    ['slack-token', 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx', '[redacted:slack-token]'],
    [
      'slack-webhook',
      'POST https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX now',
      'POST [redacted:slack-webhook] now',
    ],
    ['stripe-key', `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`, '[redacted:stripe-key]'],
    ['stripe-key (restricted)', 'rk_test_51H8abcdefGHIJKLmnop', '[redacted:stripe-key]'],
    ['google-api-key', `key=AIzaSyA${'b'.repeat(32)}&q=1`, 'key=[redacted:google-api-key]&q=1'],
    ['google-oauth', 'ya29.a0AfH6SMBx-1234567890abcdefghij', '[redacted:google-oauth]'],
    ['openai-key', `sk-proj-${'Ab1'.repeat(12)}`, '[redacted:openai-key]'],
    ['anthropic-key', `sk-ant-api03-${'Xy9_'.repeat(10)}`, '[redacted:anthropic-key]'],
    ['bearer-token', 'Authorization: Bearer abc.def-123456', 'Authorization: Bearer [redacted:bearer-token]'],
    [
      'bearer-token (lower case)',
      'authorization: bearer 0123456789abcdef',
      'authorization: bearer [redacted:bearer-token]',
    ],
    ['basic-auth', 'Authorization: Basic dXNlcjpwYXNzd29yZA==', 'Authorization: Basic [redacted:basic-auth]'],
    [
      'url-password',
      'postgres://admin:s3cr3t@db.example.com:5432/app',
      'postgres://admin:[redacted:url-password]@db.example.com:5432/app',
    ],
    [
      'url-password (https)',
      'https://user:pa%20ss@example.com/',
      'https://user:[redacted:url-password]@example.com/',
    ],
    ['secret-field', 'password=hunter22 user=bob', 'password=[redacted:secret-field] user=bob'],
    ['secret-field (JSON text)', '{"api_key": "abcd1234efgh"}', '{"api_key": "[redacted:secret-field]"}'],
    ['card-number (Visa, spaces)', `card ${VISA} ok`, 'card [redacted:card-number] ok'],
    ['card-number (Mastercard, hyphens)', '5555-5555-5555-4444', '[redacted:card-number]'],
    ['card-number (Amex)', '378282246310005', '[redacted:card-number]'],
    ['card-number (Mastercard 2-series)', '2223003122003222', '[redacted:card-number]'],
  ];
  for (const [kind, input, expected] of cases) {
    it(`E3 ${kind} is redacted`, () => {
      assert.equal(text(input), expected);
    });
  }

  it('E3 the count says how many secrets were replaced, and a clean text comes back as the same string', () => {
    const input = `${AWS_KEY_ID} and ${JWT} and ${VISA}`;
    assert.deepEqual(redactText(input), {
      text: '[redacted:aws-access-key-id] and [redacted:jwt] and [redacted:card-number]',
      count: 3,
    });
    const clean = 'nothing to see here, just words and 42 numbers';
    assert.equal(redactText(clean).text, clean);
    assert.equal(redactText(clean).count, 0);
  });

  it('E3 a card number must pass Luhn and have a network prefix', () => {
    assert.equal(luhnValid('79927398713'), true);
    assert.equal(isCardNumber('4111111111111111'), true);
    assert.equal(isCardNumber('4111111111111112'), false); // Luhn fails
    assert.equal(isCardNumber('1234567812345670'), false); // Luhn passes, no network starts with 1
    assert.equal(isCardNumber('0000000000000000'), false);
    assert.equal(text('order 4111111111111112 shipped'), 'order 4111111111111112 shipped');
  });

  it('E3 placeholders after "password=" are not secrets', () => {
    for (const input of ['password=none', 'password: null', 'password=<your password>', 'token: ********']) {
      assert.equal(text(input), input);
    }
  });
});

describe('redaction: JSON values (E3)', () => {
  it('E3 walks strings at any depth and replaces the values of members named like secrets', () => {
    const input = {
      user: 'bob',
      password: 'correct horse',
      db_password: 42,
      'X-Api-Key': 'k1',
      headers: { Authorization: 'Bearer 0123456789abcdef' },
      notes: [`call with ${JWT}`, { clientSecret: 'x' }],
      max_tokens: 1000,
      tokenCount: 7,
      nextPageToken: 'abc',
      token: null,
      secret: false,
    };
    const { value, count } = redactSecrets(input);
    assert.deepEqual(value, {
      user: 'bob',
      password: '[redacted:secret-field]',
      db_password: '[redacted:secret-field]',
      'X-Api-Key': '[redacted:secret-field]',
      headers: { Authorization: '[redacted:secret-field]' },
      notes: ['call with [redacted:jwt]', { clientSecret: '[redacted:secret-field]' }],
      max_tokens: 1000,
      tokenCount: 7,
      nextPageToken: 'abc',
      token: null,
      secret: false,
    });
    assert.equal(count, 6);
    assert.equal(input.password, 'correct horse'); // the input is never changed
  });

  it('E3 a value without secrets comes back as the very same object', () => {
    const input = { a: [1, 'two', { three: true }], b: 'plain' };
    const out = redactSecrets(input);
    assert.equal(out.value, input);
    assert.equal(out.count, 0);
  });

  it('E3 past the depth bound a subtree is replaced whole, never passed on unread', () => {
    let deep: unknown = AWS_KEY_ID;
    for (let i = 0; i < 100; i++) deep = [deep];
    const redactor = createRedactor({ limits: { maxDepth: 10 } });
    let cursor = redactor(deep).value;
    for (let i = 0; i < 10; i++) cursor = (cursor as unknown[])[0];
    assert.equal(cursor, '[redacted:too-deep]');
    assert.equal(redactor(deep).count, 1);
  });

  it('E3 past the size bound the rest of a container is replaced whole', () => {
    const redactor = createRedactor({ limits: { maxNodes: 5 } });
    const { value } = redactor({ list: ['a', 'b', 'c', 'd', 'e', 'f', AWS_KEY_ID] });
    assert.deepEqual(value, { list: ['a', 'b', 'c', '[redacted:too-large]'] });
  });

  it('E3 a member named "__proto__" stays a member of the copy', () => {
    const input = JSON.parse(`{"__proto__": {"password": "x"}, "k": "${AWS_KEY_ID}"}`) as object;
    const { value } = redactSecrets(input);
    assert.equal(
      JSON.stringify(value),
      '{"__proto__":{"password":"[redacted:secret-field]"},"k":"[redacted:aws-access-key-id]"}',
    );
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
  });

  it('E3 more secret key names can be added', () => {
    const redactor = createRedactor({ secretKeys: ['pin', 'ssn'] });
    assert.deepEqual(redactor({ PIN: '1234', ssn: '078-05-1120', name: 'x' }).value, {
      PIN: '[redacted:secret-field]',
      ssn: '[redacted:secret-field]',
      name: 'x',
    });
  });
});

describe('redaction: no false positives (E3)', () => {
  const corpus = [
    'The quick brown fox jumps over the lazy dog. Bearer of good news, basic functionality.',
    'request id 123e4567-e89b-12d3-a456-426614174000, trace 4bf92f3577b34da6a3ce929d0e0e4736',
    'sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    'commit a94a8fe5ccb19ba61c4c0873d391e987982fbbd3 (sha1), md5 d41d8cd98f00b204e9800998ecf8427e',
    'base64 of hello: aGVsbG8gd29ybGQ=, and a forty character base64-ish string: wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKE',
    'timestamps 1700000000000 and 2026-11-27T08:34:09Z, phone +1 415 555 2671, ISBN 978-3-16-148410-0',
    'https://example.com/path?q=1#frag and http://localhost:8080/x and mailto:someone@example.com',
    'const tokenCount = 5; max_tokens: 1000; the token budget is spent; passwords must be long',
    'semver 1.2.3-beta.4, IPv4 192.0.2.1, colour #ff00ff, price $1,234.56',
    'AKIA is a prefix; sk-learn is a library; ghp_short; eyJ alone; xoxb-short',
    '東京都渋谷区 👩‍💻 emoji and CJK 中文字符 and Ünïcödé',
    'order number 1234567812345670 and 9999 9999 9999 9999 and invoice 5000-0000-0000-0000',
  ];
  for (const [index, input] of corpus.entries()) {
    it(`E3 corpus line ${index + 1} stays as it is`, () => {
      assert.deepEqual(redactText(input), { text: input, count: 0 });
    });
  }
});
