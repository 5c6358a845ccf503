// tasks/get, tasks/update and tasks/cancel (modern wire, only for requests that declare the extension).

import type { RequestScope } from '../request-scope.js';
import { declaresTasks, detailedTask, missingTasksCapability, taskOwner } from './task-manager.js';

/** Tasks belong to the caller that created them: another caller cannot read, update or cancel them. */
const owner = (scope: RequestScope): string => taskOwner(scope.caller);

function manager(scope: RequestScope) {
  if (!declaresTasks(scope.envelope.clientCapabilities)) throw missingTasksCapability();
  return scope.services.tasks;
}

export async function getTask(scope: RequestScope): Promise<object> {
  const task = await manager(scope).read(scope.params?.taskId, owner(scope));
  return detailedTask(task);
}

export async function updateTask(scope: RequestScope): Promise<object> {
  const tasks = manager(scope);
  const task = await tasks.read(scope.params?.taskId, owner(scope));
  await tasks.update(task, scope.params?.inputResponses);
  return {};
}

export async function cancelTask(scope: RequestScope): Promise<object> {
  const tasks = manager(scope);
  const task = await tasks.read(scope.params?.taskId, owner(scope));
  await tasks.cancel(task);
  return {};
}
