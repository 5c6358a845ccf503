// The exec pack: execute_command, off unless the operator lists the programs it may run.

import type { ToolConfig } from '../../server/index.js';
import type { PackEnvironment, ToolPack } from '../pack.js';
import { parseExecConfig, type ExecConfig } from './config.js';
import { createExecuteCommandTool } from './execute-command.js';

export const execPack: ToolPack<ExecConfig> = {
  name: 'exec',
  description:
    'execute_command: runs allowlisted programs without a shell, in the roots, with time and output limits',
  parseConfig: parseExecConfig,
  /** An empty allowlist (the default) creates no tools: running programs is never on by accident. */
  create(config: ExecConfig, environment: PackEnvironment): ToolConfig[] {
    if (config.commands.size === 0) return [];
    const listed = [...config.commands].map(([entry, file]) =>
      entry === file ? file : `${entry} (${file})`,
    );
    environment.logger.warn(`exec pack: execute_command may run ${listed.join(', ')}`);
    return [createExecuteCommandTool(config, environment)];
  },
};

export { parseExecConfig, DEFAULT_ENV_ALLOWLIST, type ExecConfig } from './config.js';
export { createExecuteCommandTool, EXECUTE_COMMAND } from './execute-command.js';
