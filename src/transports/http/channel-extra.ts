// What the server connection learns of one HTTP request: its channel's cancellation, reply and time limit, and the
// caller and transport facts the edge established. One class for both wires (the legacy one adds to it).
//
// A class, not an object literal: it lives as long as its request and reaches all of it, and V8 may pretenure a
// literal's objects (allocate them in the old generation), where each keeps its request alive through every young
// collection until a full one (see protocol/live-list.ts).

import type {
  Cancellation,
  Caller,
  MessageExtra,
  SendOptions,
  TransportFacts,
} from '../../protocol/index.js';
import type { ReplyChannel } from './reply-channel.js';

export class ChannelExtra implements MessageExtra {
  readonly abort: Cancellation;
  readonly reply: (message: string, options: SendOptions) => void;
  readonly timeLimit: (ms: number) => void;

  constructor(
    readonly channel: ReplyChannel,
    readonly auth: Caller,
    readonly transport: TransportFacts,
  ) {
    this.abort = channel.cancellation;
    this.reply = channel.reply;
    this.timeLimit = channel.timeLimit;
  }
}
