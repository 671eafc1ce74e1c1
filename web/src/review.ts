// The approval interrupt's shape, in one place: LangChain's HITL request, as graph/hitl.py sends it, and the
// decisions it is resumed with.
//
//   value  {action_requests: [{name, args, description, tool_call_id, args_hash, card}],
//           review_configs: [{action_name, allowed_decisions}], error?}
//   resume {decisions: [{type: "approve"} | {type: "edit", edited_action: {name, args}} | {type: "reject", message}]}
// Each decision carries the args_hash of the card it answers, so a changed card is never approved blind.

export type DecisionType = "approve" | "edit" | "reject";

export type Decision =
  | { type: "approve" }
  | { type: "edit"; args: Record<string, unknown> }
  | { type: "reject"; message: string };

/** One action waiting for the person's decision, as the card shows it. */
export interface ActionReview {
  name: string;
  args: Record<string, unknown>;
  /** The card in words (what LangChain's own UIs show). */
  description: string;
  /** The card built from the store: the action's `title`, its `summary`, `labels` (the fields a person reads, in order,
   * with their labels), `notes` (for the person), and fields for clients and the audit (ids, raw values,
   * `policy_notes` for the model), which the page never shows. */
  card: Record<string, unknown>;
  argsHash?: string;
  allowed: DecisionType[];
}

export interface Review {
  actions: ActionReview[];
  /** Why the server could not use an earlier answer, to show above the card. */
  error?: string;
}

const ALL: DecisionType[] = ["approve", "edit", "reject"];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The review an interrupt asks for, or null when the interrupt is no approval request. */
export function parseReview(value: unknown): Review | null {
  if (!isObject(value) || !Array.isArray(value.action_requests)) return null;
  const configs = Array.isArray(value.review_configs) ? value.review_configs.filter(isObject) : [];
  const actions = value.action_requests.filter(isObject).map((request): ActionReview => {
    const name = String(request.name ?? "");
    const allowed = configs.find((c) => c.action_name === name)?.allowed_decisions;
    return {
      name,
      args: isObject(request.args) ? request.args : {},
      description: typeof request.description === "string" ? request.description : "",
      card: isObject(request.card) ? request.card : {},
      argsHash: typeof request.args_hash === "string" ? request.args_hash : undefined,
      allowed: Array.isArray(allowed) ? ALL.filter((d) => allowed.includes(d)) : ALL,
    };
  });
  if (actions.length === 0) return null;
  return { actions, error: typeof value.error === "string" ? value.error : undefined };
}

/** The `Command(resume=...)` value: the person's decision, once per action of the review. */
export function resumeValue(review: Review, decision: Decision): { decisions: Record<string, unknown>[] } {
  return {
    decisions: review.actions.map((action) => {
      const answered = action.argsHash ? { args_hash: action.argsHash } : {};
      if (decision.type === "edit") {
        return { type: "edit", edited_action: { name: action.name, args: decision.args }, ...answered };
      }
      if (decision.type === "reject") return { type: "reject", message: decision.message, ...answered };
      return { type: "approve", ...answered };
    }),
  };
}
