// Where task state lives: a store interface (a database store can follow) and the bounded in-memory one.

import type { JsonObject } from '../../jsonrpc/index.js';
import type { InputRequest } from '../../protocol/index.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'cancelled' | 'failed';

export const isTerminal = (status: TaskStatus): boolean =>
  status === 'completed' || status === 'cancelled' || status === 'failed';

/** Everything tasks/get reports about a task. Stored before it is reported (durable create). */
export interface TaskState {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  /** ISO 8601 */
  createdAt: string;
  /** ISO 8601 */
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs: number;
  /** The tools/call result, once completed (isError results included). */
  result?: JsonObject;
  /** The JSON-RPC error, once failed. */
  error?: { code: number; message: string; data?: unknown };
  /** Outstanding input requests while input_required. */
  inputRequests?: Record<string, InputRequest>;
  /** Who created it (an auth subject), when the transport knows; other principals cannot see it. */
  owner?: string;
}

export interface TaskStore {
  create(task: TaskState): Promise<void>;
  get(taskId: string): Promise<TaskState | undefined>;
  /** Replaces the stored state; returns false when the task is gone. */
  put(task: TaskState): Promise<boolean>;
  delete(taskId: string): Promise<void>;
}

export interface MemoryTaskStoreOptions {
  /** Tasks kept at most; the oldest terminal ones are evicted first, then the oldest. Default 10,000. */
  maxTasks?: number;
  /** How often expired tasks are swept. Default 60 s. */
  sweepIntervalMs?: number;
}

/** Tasks in a Map, bounded in count and swept by TTL (counted from creation). */
export class MemoryTaskStore implements TaskStore {
  readonly #tasks = new Map<string, { task: TaskState; expiresAt: number }>();
  readonly #maxTasks: number;
  readonly #sweeper: NodeJS.Timeout;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.#maxTasks = options.maxTasks ?? 10_000;
    this.#sweeper = setInterval(() => this.sweep(), options.sweepIntervalMs ?? 60_000).unref();
  }

  get size(): number {
    return this.#tasks.size;
  }

  async create(task: TaskState): Promise<void> {
    if (this.#tasks.size >= this.#maxTasks && !this.#evict()) {
      throw new Error(`too many tasks in progress (limit ${this.#maxTasks})`);
    }
    const created = Date.parse(task.createdAt);
    this.#tasks.set(task.taskId, { task, expiresAt: task.ttlMs === null ? Infinity : created + task.ttlMs });
  }

  async get(taskId: string): Promise<TaskState | undefined> {
    const entry = this.#tasks.get(taskId);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.#tasks.delete(taskId);
      return undefined;
    }
    return entry.task;
  }

  async put(task: TaskState): Promise<boolean> {
    const entry = this.#tasks.get(task.taskId);
    if (entry === undefined) return false;
    entry.task = task;
    return true;
  }

  async delete(taskId: string): Promise<void> {
    this.#tasks.delete(taskId);
  }

  /** Drops every expired task. */
  sweep(now = Date.now()): void {
    for (const [id, entry] of this.#tasks) if (entry.expiresAt <= now) this.#tasks.delete(id);
  }

  close(): void {
    clearInterval(this.#sweeper);
  }

  /** Makes room by dropping the oldest finished task; running tasks are never evicted. */
  #evict(): boolean {
    this.sweep();
    if (this.#tasks.size < this.#maxTasks) return true;
    for (const [id, entry] of this.#tasks) {
      if (isTerminal(entry.task.status)) {
        this.#tasks.delete(id);
        return true;
      }
    }
    return false;
  }
}
