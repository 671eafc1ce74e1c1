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

/** Words `observationText` needs, from the page's language. */
export interface ObservationWords {
  showModelNotes: boolean;
  refusedAs: (code: string) => string;
  notRun: string;
  rejectedAs: (message: string) => string;
  sameResult: string;
}

/** An observation as the person reads it. Refusals and notes are written for the model in English; a page in
 * another language shows a refusal by its code (the graph's own question or answer follows in the person's words),
 * a reviewer's rejection by their message, and a repeated look-up's result without the note to the model. */
export function observationText(observation: Observation, w: ObservationWords): string {
  const content = observation.content;
  if (w.showModelNotes) return content;
  const repeated = content.indexOf("\n(Same result as before:");
  if (repeated >= 0) return `${content.slice(0, repeated)} ${w.sameResult}`;
  if (!observation.error) return content;
  const rejected = /^Rejected by the reviewer \([^)]*\): ([\s\S]*?) Do not retry/.exec(content);
  if (rejected) return w.rejectedAs(rejected[1]);
  const code = /^Error \[([a-z_]+)\]/.exec(content);
  if (code) return w.refusedAs(code[1]);
  return content.startsWith("Not run") ? w.notRun : w.refusedAs("error");
}
