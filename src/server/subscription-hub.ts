// The open subscriptions/listen requests: what each agreed to receive, and delivery of the matching notifications.

import { encodeNotification, type JsonObject, type RequestId } from '../jsonrpc/index.js';
import {
  MetaKey,
  Notification,
  type ClientCapabilities,
  type SubscriptionFilter,
} from '../protocol/index.js';
import { declaresTasks, missingTasksCapability, taskNotification } from './tasks/task-manager.js';
import type { TaskState } from './tasks/task-store.js';

/** Resource URIs (or task ids) one session or one listen request may follow at once. */
export const MAX_RESOURCE_SUBSCRIPTIONS = 1000;

/** The request a subscription lives in, as far as delivering to it goes. */
export interface Subscriber {
  readonly id: RequestId;
  /** The connection it came over: when that closes, the subscription ends. */
  readonly connection: object;
  notify(message: string): void;
}

/** One open listen request. */
export interface Subscription {
  scope: Subscriber;
  filter: SubscriptionFilter;
  /** Ends the listen request; `graceful` sends the final result first. */
  end(graceful: boolean): void;
}

/** Capabilities beyond tools, turned on by what the server registers. */
export type Feature = 'prompts' | 'resources' | 'tasks';

type ListFilterKey = 'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged';
type TaskFilter = SubscriptionFilter & { taskIds?: string[] };

/** Strings of an array, at most `max` of them. */
const strings = (value: unknown, max: number): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string').slice(0, max) : [];

export class SubscriptionHub {
  readonly #subscriptions = new Set<Subscription>();
  readonly #features: ReadonlySet<Feature>;

  constructor(features: ReadonlySet<Feature>) {
    this.#features = features;
  }

  get size(): number {
    return this.#subscriptions.size;
  }

  add(subscription: Subscription): void {
    this.#subscriptions.add(subscription);
  }

  remove(subscription: Subscription): void {
    this.#subscriptions.delete(subscription);
  }

  /** The subset of a listen filter this server honours (unsupported kinds are left out of the acknowledgement). */
  agree(requested: JsonObject, capabilities: ClientCapabilities): SubscriptionFilter {
    const agreed: TaskFilter = {};
    if (requested.toolsListChanged === true) agreed.toolsListChanged = true;
    if (requested.promptsListChanged === true && this.#features.has('prompts'))
      agreed.promptsListChanged = true;
    if (this.#features.has('resources')) {
      if (requested.resourcesListChanged === true) agreed.resourcesListChanged = true;
      const uris = strings(requested.resourceSubscriptions, MAX_RESOURCE_SUBSCRIPTIONS);
      if (uris.length > 0) agreed.resourceSubscriptions = uris;
    }
    if (Array.isArray(requested.taskIds) && this.#features.has('tasks')) {
      if (!declaresTasks(capabilities)) throw missingTasksCapability();
      const ids = strings(requested.taskIds, MAX_RESOURCE_SUBSCRIPTIONS);
      if (ids.length > 0) agreed.taskIds = ids;
    }
    return agreed;
  }

  listChanged(method: string, key: ListFilterKey): void {
    for (const subscription of this.#subscriptions) {
      if (subscription.filter[key] !== true) continue;
      subscription.scope.notify(
        encodeNotification(method, { _meta: { [MetaKey.SubscriptionId]: subscription.scope.id } }),
      );
    }
  }

  resourceUpdated(uri: string): void {
    for (const subscription of this.#subscriptions) {
      if (subscription.filter.resourceSubscriptions?.includes(uri) !== true) continue;
      subscription.scope.notify(
        encodeNotification(Notification.ResourcesUpdated, {
          uri,
          _meta: { [MetaKey.SubscriptionId]: subscription.scope.id },
        }),
      );
    }
  }

  /** notifications/tasks to listen streams that asked for this task. */
  taskChanged(task: TaskState): void {
    for (const subscription of this.#subscriptions) {
      if ((subscription.filter as TaskFilter).taskIds?.includes(task.taskId) === true) {
        subscription.scope.notify(taskNotification(task, subscription.scope.id));
      }
    }
  }

  /** The connection went away: its subscriptions end without a reply. */
  endFor(connection: object): void {
    for (const subscription of [...this.#subscriptions]) {
      if (subscription.scope.connection === connection) subscription.end(false);
    }
  }

  /** Shutdown: every subscription gets its final result. */
  endAll(): void {
    for (const subscription of [...this.#subscriptions]) subscription.end(true);
  }
}
