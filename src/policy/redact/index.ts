// Secret redaction (threat E3), the one redactor of the project: results before they leave (sanitise) and
// arguments and results before an audit record is written.

export { createRedactor, redactSecrets, redactText } from './redact.js';
export type { Redaction, Redactor, RedactorOptions, TextRedaction } from './redact.js';
export type { SecretKind } from './shapes.js';
export { isCardNumber, luhnValid } from './luhn.js';
