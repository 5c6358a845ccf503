// The input handlers every upstream client is made with. They declare elicitation and sampling, so upstreams ask;
// each call answers with its own handlers (forward-input.ts), and these answer only a question no call owns (a legacy
// stdio upstream asking while several calls are in flight, or between calls): refused, since the gateway cannot know
// whose user to ask. Roots are not declared at all: they are one client's, and an upstream shared by many callers
// would make one caller's roots everyone's (the filesystem server replaces its allowed directories with them).

import type { InputHandlers } from '../client/index.js';

const refuse = (what: string): never => {
  throw new Error(
    `the gateway forwards ${what} only to the client whose call is asking; this request belongs to no single call in flight`,
  );
};

export function upstreamHandlers(): InputHandlers {
  return {
    elicitation: () => refuse('elicitation'),
    sampling: () => refuse('sampling'),
  };
}
