// Waiting for a condition the test cannot be told about by an event (a count inside the server), bounded in time.

/** Resolves once `condition()` holds; polls every 10 ms and fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
