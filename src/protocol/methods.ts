// Method names, as the spec spells them, in one table.

export const Method = {
  // modern only
  ServerDiscover: 'server/discover',
  SubscriptionsListen: 'subscriptions/listen',
  // legacy only
  Initialize: 'initialize',
  Ping: 'ping',
  LoggingSetLevel: 'logging/setLevel',
  ResourcesSubscribe: 'resources/subscribe',
  ResourcesUnsubscribe: 'resources/unsubscribe',
  // both
  ToolsList: 'tools/list',
  ToolsCall: 'tools/call',
  PromptsList: 'prompts/list',
  PromptsGet: 'prompts/get',
  ResourcesList: 'resources/list',
  ResourcesTemplatesList: 'resources/templates/list',
  ResourcesRead: 'resources/read',
  CompletionComplete: 'completion/complete',
  // tasks extension (io.modelcontextprotocol/tasks)
  TasksGet: 'tasks/get',
  TasksUpdate: 'tasks/update',
  TasksCancel: 'tasks/cancel',
  // server → client requests (legacy), and input requests (modern MRTR)
  ElicitationCreate: 'elicitation/create',
  SamplingCreateMessage: 'sampling/createMessage',
  RootsList: 'roots/list',
} as const;

export const Notification = {
  Initialized: 'notifications/initialized',
  Cancelled: 'notifications/cancelled',
  Progress: 'notifications/progress',
  Message: 'notifications/message',
  ToolsListChanged: 'notifications/tools/list_changed',
  PromptsListChanged: 'notifications/prompts/list_changed',
  ResourcesListChanged: 'notifications/resources/list_changed',
  ResourcesUpdated: 'notifications/resources/updated',
  SubscriptionsAcknowledged: 'notifications/subscriptions/acknowledged',
  RootsListChanged: 'notifications/roots/list_changed',
} as const;
