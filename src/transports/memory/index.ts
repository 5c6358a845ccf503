// The in-memory transport: a linked pair of transports for tests and in-process use.

export { createLinkedPair, type LinkedPairOptions, type TrafficDirection } from './linked-pair.js';
