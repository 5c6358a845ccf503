// Quoting for commands the CLI suggests, so that a hint can be pasted into a POSIX shell as it is printed.

/** One word as a shell reads it back: bare when it is only safe characters, else in single quotes. */
export function shellWord(word: string): string {
  if (/^[\w./:=@%+,-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line of words, each quoted as needed. */
export function shellCommand(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}
