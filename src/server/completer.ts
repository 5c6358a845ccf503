// What a prompt argument or a resource-template variable may offer completion/complete: a function of the partial value.

/** Suggests values for one argument, given its partial value and the arguments already chosen. */
export type Completer = (
  value: string,
  context: { arguments: Readonly<Record<string, string>> },
) => readonly string[] | Promise<readonly string[]>;
