// The approval interrupt's shape, in one place: what the human_review node sends and what it accepts back.
//
// LangChain's HITL shape (the graph's contract):
//   value  {action_requests: [{name, args, description}], review_configs: [{action_name, allowed_decisions}],
//           ...flowagent's card fields (card, args_hash, ...)}
//   resume {decisions: [{type: "approve"} | {type: "edit", edited_action: {name, args}} | {type: "reject", message}]}
// The earlier shape, still read until every server sends the new one:
//   value  {tool, args, args_hash, card, allowed_decisions}
//   resume {decision: "approve" | "edit" | "reject", args?, message?, args_hash}

export type DecisionType = "approve" | "edit" | "reject";

export type Decision =
  | { type: "approve" }
  | { type: "edit"; args: Record<string, unknown> }
  | { type: "reject"; message: string };

/** One action waiting for the person's decision, as the card shows it. */
export interface ActionReview {
  name: string;
  args: Record<string, unknown>;
  description: string;
  allowed: DecisionType[];
}

export interface Review {
  actions: ActionReview[];
  /** The card built from the store (request, requester, days, reason, assignee, notes; an e-mail's text). */
  card: Record<string, unknown>;
  /** An earlier answer the server could not use, to show above the card. */
  error?: string;
  shape: "hitl" | "legacy";
  argsHash?: string;
}

const ALL: DecisionType[] = ["approve", "edit", "reject"];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function decisions(value: unknown): DecisionType[] {
  return Array.isArray(value) ? ALL.filter((d) => value.includes(d)) : ALL;
}

/** The review an interrupt asks for, or null when the interrupt is no approval request. */
export function parseReview(value: unknown): Review | null {
  if (!isObject(value)) return null;
  const card = isObject(value.card) ? value.card : {};
  const error = typeof value.error === "string" ? value.error : undefined;
  const argsHash = typeof value.args_hash === "string" ? value.args_hash : undefined;
  if (Array.isArray(value.action_requests)) {
    const configs = Array.isArray(value.review_configs) ? value.review_configs.filter(isObject) : [];
    const actions = value.action_requests.filter(isObject).map((request): ActionReview => {
      const name = String(request.name ?? "");
      const config = configs.find((c) => c.action_name === name);
      return {
        name,
        args: isObject(request.args) ? request.args : {},
        description: typeof request.description === "string" ? request.description : "",
        allowed: decisions(config?.allowed_decisions),
      };
    });
    return { actions, card, error, shape: "hitl", argsHash };
  }
  if (typeof value.tool === "string") {
    const action: ActionReview = {
      name: value.tool,
      args: isObject(value.args) ? value.args : {},
      description: typeof card.summary === "string" ? card.summary : "",
      allowed: decisions(value.allowed_decisions),
    };
    return { actions: [action], card, error, shape: "legacy", argsHash };
  }
  return null;
}

/** The `Command(resume=...)` value for the person's decision on every action of the review. */
export function resumeValue(review: Review, decision: Decision): unknown {
  if (review.shape === "legacy") {
    const base = { decision: decision.type, args_hash: review.argsHash };
    if (decision.type === "edit") return { ...base, args: decision.args };
    if (decision.type === "reject") return { ...base, message: decision.message };
    return base;
  }
  return {
    decisions: review.actions.map((action) => {
      if (decision.type === "edit") return { type: "edit", edited_action: { name: action.name, args: decision.args } };
      if (decision.type === "reject") return { type: "reject", message: decision.message };
      return { type: "approve" };
    }),
  };
}
