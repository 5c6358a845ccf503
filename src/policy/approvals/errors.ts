// The errors of the approvals piece: a configuration that cannot be used, and a decision that cannot be made.

/** A rule (or option) that cannot be used; `path` says where, as in "rules[2].matches". */
export class ApprovalRuleError extends TypeError {
  readonly path: string;
  constructor(path: string, problem: string) {
    super(`Invalid approvals policy: ${path} ${problem}`);
    this.name = 'ApprovalRuleError';
    this.path = path;
  }
}

/** Why an approver's decision (or a listing) was refused; `status` is the HTTP status the admin API answers. */
export class ApprovalDecisionError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ApprovalDecisionError';
    this.status = status;
  }
}
