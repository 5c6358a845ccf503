// The client's logger when none is given: warnings on stderr.

import type { ChannelLogger } from './channel.js';

// Messages carry a server's words (its errors, a pin diff): on a terminal, as one line with every control character,
// bidi override and line separator written as \uXXXX (E1), so a server can neither act on the terminal (an escape
// sequence, a clipboard write) nor start a line that looks like ours. (The CLI passes a logger of its own.)
// eslint-disable-next-line no-control-regex -- control characters are exactly what is being escaped
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
const inert = (text: string): string =>
  text.replace(CONTROLS, (char) => `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
export const stderrLogger: ChannelLogger = {
  warn: (message) => process.stderr.write(`toolwire client: ${inert(message)}\n`),
};
