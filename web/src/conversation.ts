// A thread's messages as the page shows them: each question, its answer, and the ReAct steps folded under it.
import type { Message } from "@langchain/langgraph-sdk";

export interface Observation {
  content: string;
  error: boolean;
}

export interface Action {
  id: string;
  name: string;
  args: Record<string, unknown>;
  observation?: Observation;
}

export interface Step {
  thought: string;
  actions: Action[];
}

export interface OutcomeLine {
  tool: string;
  status: string;
  detail: string;
}

export interface Turn {
  key: string;
  question: string;
  steps: Step[];
  answer?: string;
  /** What actually happened (the final AI message's `response_metadata.outcome`). */
  outcome?: OutcomeLine[];
}

export function text(content: Message["content"]): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

function outcomeOf(message: Message): OutcomeLine[] | undefined {
  const outcome = message.response_metadata?.outcome;
  return Array.isArray(outcome) ? (outcome as OutcomeLine[]) : undefined;
}

export function turns(messages: Message[]): Turn[] {
  const result: Turn[] = [];
  let turn: Turn | undefined;
  const current = (key: string): Turn => {
    if (!turn) {
      turn = { key, question: "", steps: [] };
      result.push(turn);
    }
    return turn;
  };
  messages.forEach((message, index) => {
    const key = message.id ?? String(index);
    if (message.type === "human") {
      turn = { key, question: text(message.content), steps: [] };
      result.push(turn);
    } else if (message.type === "ai") {
      const t = current(key);
      const calls = message.tool_calls ?? [];
      if (calls.length > 0) {
        if (t.answer) t.steps.push({ thought: t.answer, actions: [] });
        t.answer = undefined;
        t.steps.push({
          thought: text(message.content),
          actions: calls.map((c, i) => ({ id: c.id ?? `${key}-${i}`, name: c.name, args: c.args ?? {} })),
        });
      } else {
        if (t.answer) t.steps.push({ thought: t.answer, actions: [] });
        t.answer = text(message.content);
        t.outcome = outcomeOf(message);
      }
    } else if (message.type === "tool") {
      const t = current(key);
      const observation = { content: text(message.content), error: message.status === "error" };
      const action = t.steps.flatMap((s) => s.actions).find((a) => a.id === message.tool_call_id);
      if (action) action.observation = observation;
      else t.steps.push({ thought: "", actions: [{ id: message.tool_call_id, name: message.name ?? "", args: {}, observation }] });
    }
  });
  return result;
}
