// The poisoning rules over one piece of text a model reads (threat C1): what each finds, and how text is stripped.
// Every pattern here is linear: bounded repeats only, tried at the few places where its first character occurs.

import { FLAG_TAG_SEQUENCE, cleanText } from '../../policy/sanitise/index.js';
import { excerpt } from './visible.js';

export type Severity = 'warn' | 'deny';

/** What a rule found in one text; scan-tool.ts adds where it was. */
export interface TextHit {
  rule: string;
  severity: Severity;
  detail: string;
}

/** Tag characters (U+E0000–U+E007F): invisible, and they spell ASCII text a model can read ("ASCII smuggling"). */
const TAG_CHARACTERS = /[\u{E0000}-\u{E007F}]/gu;
const FLAGS = new RegExp(FLAG_TAG_SEQUENCE, 'gu');

const BLOCK_TAGS = [
  'important',
  'system',
  'system-reminder',
  'sys',
  'instructions',
  'instruction',
  'assistant',
  'user',
  'human',
  'admin',
  'developer',
  'hidden',
  'secret',
  'prompt',
  'critical',
  'override',
];
/** An opening or closing tag of an instruction block: <IMPORTANT>, </system>, < Instructions priority="high">. */
const BLOCK_TAG = new RegExp(
  String.raw`<\s{0,8}(\/?)\s{0,8}(${BLOCK_TAGS.join('|')})(?![\w-])[^<>]{0,200}>`,
  'gi',
);
/** Tag names that also serve as placeholders (`ssh <user>@<host>`, `--token <secret>`): a block only when closed. */
const PLACEHOLDER_TAGS = new Set(['user', 'human', 'assistant', 'prompt', 'secret', 'hidden']);
/** Chat-template control tokens: whatever follows one is meant to be read as a new turn. */
const CHAT_TOKEN =
  /<\|\s{0,4}(?:im_start|im_end|system|user|assistant|endoftext)\s{0,4}\|>|\[\/?INST\]|<<\/?SYS>>/gi;

const PHRASES: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override)\s{1,8}(?:all\s{1,8}|any\s{1,8})?(?:the\s{1,8}|your\s{1,8}|of\s{1,8}the\s{1,8})?(?:previous|prior|above|earlier|preceding|other|system|original)\s{1,8}(?:instructions?|prompts?|rules|directions|messages|guidelines)\b/i,
  /\b(?:do\s{1,8}not|don't|never)\s{1,8}(?:tell|inform|notify|alert|warn)\s{1,8}(?:the\s{1,8})?user\b/i,
  /\b(?:do\s{1,8}not|don't|never)\s{1,8}(?:mention|reveal|disclose)\s{1,8}(?:that|this|it)\b/i,
  /\bwithout\s{1,8}(?:telling|informing|notifying|asking|alerting)\s{1,8}(?:the\s{1,8})?user\b/i,
];

/** Names and paths of files whose content is a secret. */
const SECRET_FILE =
  /(?:\bid_(?:rsa|dsa|ecdsa|ed25519)\b|~?\/?\.ssh\/|\.aws\/credentials|(?:^|[\s"'`(/])\.env\b|\.netrc\b|\.npmrc\b|\.pgpass\b|\.git-credentials\b|\.kube\/config\b|\/etc\/shadow\b|\bmcp\.json\b|claude_desktop_config\.json|\.docker\/config\.json|\bprivate[\s_-]?key\b|\bseed[\s_-]?phrase\b)/i;
/**
 * An instruction to hand over a secret file: a verb of sending, then (within the same sentence, 80 characters) a
 * secret file. Reading alone is not enough: a legitimate ssh tool may say where it reads its key from.
 */
const SECRET_REQUEST = new RegExp(
  String.raw`\b(?:send|pass|include|upload|attach|paste|provide|forward|share|post|email|append|leak)\b[^.!?\n]{0,80}?` +
    `(?:${SECRET_FILE.source})`,
  'i',
);
/**
 * The same, in a parameter name split into lowercase words joined by '_' (content_from_reading_ssh_id_rsa). Only
 * names that can mean nothing but a secret's content deny: ssh_keys (ids at some clouds), private_key_id, key paths
 * and "mnemonic" (an assembler's word too) do not.
 */
const SECRET_NAME =
  /(?:^|_)(?:id_(?:rsa|dsa|ecdsa|ed25519)|ssh_private|private_key(?!_(?:id|path|file|name|ref|location)(?:_|$))|privkey|dotenv|env_file|aws_credentials|aws_secret_access_key|netrc|npmrc|pgpass|git_credentials|kube_?config|mcp_json|seed_phrase|shadow_file)(?:_|$)/;
/**
 * Credentials a model might fill in from what the user said: legitimate for some tools, so only a warning. The word
 * must end the name (access_token, apiKey), so token_count or password_policy say nothing.
 */
const CREDENTIAL_NAME =
  /(?:^|_)(?:password|passwd|passphrase|token|api_?key|secret|credentials?|auth|cookie|session_id)$/;

/** `contentFromReading-SSH.id_rsa` → `content_from_reading_ssh_id_rsa`. */
export const nameWords = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '')
    .join('_');

/** The text as the rules read it: invisible characters gone (they could split a tag), compatibility forms folded (＜ is <). */
const readable = (text: string): string => cleanText(text.replace(TAG_CHARACTERS, '')).normalize('NFKC');

/** Instructions hidden in text (comments, blocks, phrases) and mentions of secret files; characters apart. */
export function instructionHits(text: string, secrets = true): TextHit[] {
  const hits: TextHit[] = [];
  const plain = readable(text);
  const comment = plain.indexOf('<!--');
  if (comment >= 0) {
    hits.push({
      rule: 'html-comment',
      severity: 'deny',
      detail: `an HTML comment, hidden when rendered but read by the model: ${excerpt(plain.slice(comment))}`,
    });
  }
  const at = blockTags(plain)[0]?.index ?? new RegExp(CHAT_TOKEN.source, 'i').exec(plain)?.index;
  if (at !== undefined) {
    hits.push({
      rule: 'instruction-block',
      severity: 'deny',
      detail: `an instruction block addressed to the model: ${excerpt(plain.slice(at))}`,
    });
  }
  for (const phrase of PHRASES) {
    const match = phrase.exec(plain);
    if (match === null) continue;
    hits.push({
      rule: 'instruction-phrase',
      severity: 'deny',
      detail: `an instruction to the model: ${excerpt(match[0])}`,
    });
    break;
  }
  const request = secrets ? SECRET_REQUEST.exec(plain) : null;
  if (request !== null) {
    hits.push({
      rule: 'secret-request',
      severity: 'deny',
      detail: `asks for the content of a secret file or key to be sent: ${excerpt(request[0])}`,
    });
  }
  const secret = secrets ? SECRET_FILE.exec(plain) : null;
  if (secret !== null) {
    hits.push({
      rule: 'secret-reference',
      severity: 'warn',
      detail: `mentions a secret file or key: ${excerpt(secret[0].trim())}`,
    });
  }
  return hits;
}

/** Rules for a parameter's name (a key of `properties`): what it asks the model to put there. */
export function parameterHits(name: string): TextHit[] {
  const hits: TextHit[] = [];
  const words = nameWords(readable(name));
  if (SECRET_NAME.test(words) || SECRET_FILE.test(name)) {
    hits.push({
      rule: 'secret-parameter',
      severity: 'deny',
      detail: `the parameter ${excerpt(name)} asks for the content of a secret file or key`,
    });
  } else if (CREDENTIAL_NAME.test(words)) {
    hits.push({
      rule: 'credential-parameter',
      severity: 'warn',
      detail: `the parameter ${excerpt(name)} asks for a credential`,
    });
  }
  return hits;
}

/** Invisible characters: tag characters (deny: they carry hidden text) and the rest (warn: stripped anyway). */
export function characterHits(text: string): TextHit[] {
  const hits: TextHit[] = [];
  const withoutFlags = text.replace(FLAGS, '');
  const tags = withoutFlags.match(TAG_CHARACTERS);
  if (tags !== null) {
    const spelled = tags.map((char) => String.fromCodePoint((char.codePointAt(0) ?? 0) - 0xe0000)).join('');
    hits.push({
      rule: 'tag-characters',
      severity: 'deny',
      detail: `${tags.length} invisible tag characters spelling ${excerpt(spelled)}`,
    });
  }
  // What the output cleaner would remove (so a joiner inside an emoji, which it keeps, is no finding).
  const rest = withoutFlags.replace(TAG_CHARACTERS, '');
  const cleaned = cleanText(rest);
  if (cleaned !== rest) {
    let at = 0;
    while (at < cleaned.length && cleaned[at] === rest[at]) at++;
    const first = (rest.codePointAt(at) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    const count = Math.max(1, [...rest].length - [...cleaned].length);
    hits.push({
      rule: 'hidden-characters',
      severity: 'warn',
      detail: `${count} invisible or control characters (zero-width, bidirectional, escape...), the first U+${first}`,
    });
  }
  return hits;
}

/**
 * Prose as a model should see it: invisible characters and escape sequences removed (cleanText, as for results),
 * HTML comments and instruction blocks cut out with their content (an unclosed one runs to the end of the text),
 * chat-template tokens cut with everything after them. Phrases are left: a scan after stripping still finds them.
 * With `blocks` false, only the characters go (what the model must never see, whatever the mode).
 */
export function stripProse(text: string, blocks = true): string {
  let out = cleanText(text.replace(TAG_CHARACTERS, ''));
  if (!blocks) return out;
  out = cutComments(out);
  out = cutBlocks(out);
  const token = new RegExp(CHAT_TOKEN.source, 'i').exec(out);
  if (token !== null) out = out.slice(0, token.index);
  return out === text ? text : out.trim();
}

function cutComments(text: string): string {
  let out = '';
  let from = 0;
  for (let open = text.indexOf('<!--'); open >= 0; open = text.indexOf('<!--', from)) {
    out += text.slice(from, open);
    const close = text.indexOf('-->', open + 4);
    if (close < 0) return out;
    from = close + 3;
  }
  return out + text.slice(from);
}

interface BlockTag {
  index: number;
  end: number;
  closing: boolean;
  name: string;
}

/**
 * The instruction-block tags of a text, in order, in one pass. A placeholder-like tag (<user>) counts only as part of
 * a block: an opening one when the same name is closed later, a closing one when it was opened before.
 */
function blockTags(text: string): BlockTag[] {
  const all: BlockTag[] = [];
  const firstOpen = new Map<string, number>();
  const lastClose = new Map<string, number>();
  for (const match of text.matchAll(BLOCK_TAG)) {
    const index = match.index ?? 0;
    const tag = {
      index,
      end: index + match[0].length,
      closing: match[1] === '/',
      name: (match[2] ?? '').toLowerCase(),
    };
    all.push(tag);
    if (tag.closing) lastClose.set(tag.name, index);
    else if (!firstOpen.has(tag.name)) firstOpen.set(tag.name, index);
  }
  return all.filter(
    ({ name, index, closing }) =>
      !PLACEHOLDER_TAGS.has(name) ||
      (closing ? (firstOpen.get(name) ?? Infinity) < index : (lastClose.get(name) ?? -1) > index),
  );
}

/** Each opening tag removes everything up to its own closing tag; stray closing tags go too. One pass: linear. */
function cutBlocks(text: string): string {
  let out = '';
  let from = 0;
  let open: string | undefined;
  for (const tag of blockTags(text)) {
    if (open === undefined) {
      out += text.slice(from, tag.index);
      if (!tag.closing) open = tag.name;
      from = tag.end;
    } else if (tag.closing && tag.name === open) {
      open = undefined;
      from = tag.end;
    }
  }
  return open === undefined ? out + text.slice(from) : out;
}
