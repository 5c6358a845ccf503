// Why a schema cannot be compiled for a profile: refused outright (the tool is left out), or only not strict-able
// (the tool is sent without strict mode instead).

export class SchemaRefusal extends Error {
  /** true: the schema is fine for the same API without strict mode; false: no profile can take it. */
  readonly strictOnly: boolean;
  constructor(message: string, strictOnly = false) {
    super(message);
    this.name = 'SchemaRefusal';
    this.strictOnly = strictOnly;
  }
}

/** Where in a schema, for reports and refusals: the JSON Pointer, or "the root". */
export const where = (pointer: string): string => (pointer === '' ? 'the root' : pointer);
