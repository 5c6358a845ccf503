// Which client capability each kind of input request needs, and whether a client declared it.

import type { ClientCapabilities, InputRequest } from './types.js';

/** The capability object a client must declare for `request`, in the shape of -32021's requiredCapabilities. */
export function requiredCapabilityFor(request: InputRequest): ClientCapabilities {
  switch (request.method) {
    case 'elicitation/create':
      return request.params.mode === 'url' ? { elicitation: { url: {} } } : { elicitation: {} };
    case 'sampling/createMessage':
      return request.params.tools !== undefined || request.params.toolChoice !== undefined
        ? { sampling: { tools: {} } }
        : { sampling: {} };
    case 'roots/list':
      return { roots: {} };
  }
}

/** True when `capabilities` allow sending `request` to the client. */
export function clientSupports(capabilities: ClientCapabilities, request: InputRequest): boolean {
  switch (request.method) {
    case 'elicitation/create': {
      const elicitation = capabilities.elicitation;
      if (elicitation === undefined || elicitation === null) return false;
      if (request.params.mode === 'url') return elicitation.url !== undefined;
      // An empty elicitation object means form mode only; an object naming only url excludes form.
      return elicitation.form !== undefined || elicitation.url === undefined;
    }
    case 'sampling/createMessage': {
      const sampling = capabilities.sampling;
      if (sampling === undefined || sampling === null) return false;
      return request.params.tools === undefined && request.params.toolChoice === undefined
        ? true
        : sampling.tools !== undefined;
    }
    case 'roots/list':
      return capabilities.roots !== undefined && capabilities.roots !== null;
  }
}
