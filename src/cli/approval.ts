// Asking before a call that is not read-only, in words that say why and which flag changes it: a server that is not
// trusted may call a tool read-only, but that is only its claim, and `list` shows the same claim.

import type { ApprovalRequest } from '../client/index.js';
import { RefusedError } from './errors.js';
import { askYesNo, type CliIo } from './session.js';
import { inertJson, terminalLine } from './terminal-text.js';

interface Reason {
  /** Why toolwire asks (a clause). */
  why: string;
  /** Without a terminal: the flags that let the call go ahead. */
  pass: string;
  /** On a terminal, before the question: the same flags, for next time. */
  note: string;
}

function reason(request: ApprovalRequest): Reason {
  if (!request.trusted && request.annotations?.readOnlyHint === true) {
    return {
      why: "the server says it is read-only, but that is the server's own claim and this server is not trusted",
      pass: "pass --trust to trust this server's annotations, or --yes to call it anyway",
      note: "--trust trusts this server's annotations; --yes calls without asking",
    };
  }
  return {
    why: 'it is not marked read-only, so it may change things',
    pass: 'pass --yes to call it anyway',
    note: '--yes calls without asking',
  };
}

/** The approval hook of `toolwire call`: --yes allows, a terminal asks, anything else refuses with the flags to use. */
export function approver(io: CliIo, yes: boolean): (request: ApprovalRequest) => Promise<boolean> {
  return async (request) => {
    if (yes) return true;
    const { why, pass, note } = reason(request);
    const tool = terminalLine(request.tool);
    if (io.stdin.isTTY !== true) {
      throw new RefusedError(`refusing to call "${tool}": ${why} (there is no terminal to ask you)\n${pass}`);
    }
    io.stderr.write(`Tool "${tool}" on ${terminalLine(request.server)}: ${why}.\n(${note}.)\n`);
    io.stderr.write(`Arguments: ${inertJson(request.arguments)}\n`);
    return askYesNo(io, 'Call it? [y/N] ');
  };
}
