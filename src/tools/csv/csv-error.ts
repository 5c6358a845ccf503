// A problem with a CSV file or with the request about it, worded for the model; the tool turns it into an isError result.

export class CsvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvError';
  }
}
