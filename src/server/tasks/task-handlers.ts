// tasks/get, tasks/update and tasks/cancel (modern wire, only for requests that declare the extension).

import type { RequestScope } from '../request-scope.js';
import { declaresTasks, detailedTask, missingTasksCapability } from './task-manager.js';

const owner = (scope: RequestScope): string | undefined => {
  const subject = scope.extra?.auth?.subject;
  return typeof subject === 'string' ? subject : undefined;
};

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
