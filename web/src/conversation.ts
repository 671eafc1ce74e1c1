// A thread's messages as the page shows them: each question, its answer, and the ReAct steps folded under it. A reply
// still streaming shows only its answer: never the model's Thought / Action lines or its JSON.
import type { Message } from "@langchain/langgraph-sdk";

import type { OutcomeLine } from "./wording";

export interface Observation {
  content: string;
  error: boolean;
  /** The person rejected the call at its card. */
  rejected: boolean;
  /** A repeated look-up's earlier result, given again. */
  repeated: boolean;
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

/** The graph's note on a message (`state.records.StepNote`, under `response_metadata.flowagent`). */
function stepNote(message: Message): Record<string, unknown> {
  const note = message.response_metadata?.flowagent;
  return typeof note === "object" && note !== null ? (note as Record<string, unknown>) : {};
}

const REACT_START = /^\s*(?:Thought|Action|Final\s*Answer)\s*[:：]/i;
const REACT_WORDS = ["thought:", "action:", "final answer:"];
const FINAL = /Final\s*Answer\s*[:：]\s*/i;
const OBSERVATION = /\n\s*Observation\s*[:：]/i;
const JSON_FINAL = /"final(?:_answer)?"\s*:\s*"/;

/** The answer a reply in a text protocol holds so far (graph/protocols.py parses the whole one): after "Final Answer:"
 * (react) or in "final" (json); "" while it holds only a thought or an action. Other text is the answer itself. */
export function spoken(raw: string): string {
  const text = raw.trimStart();
  const lower = text.toLowerCase();
  if (REACT_START.test(text) || (text && REACT_WORDS.some((w) => w.startsWith(lower)))) {
    const final = FINAL.exec(text);
    if (!final) return "";
    const answer = text.slice(final.index + final[0].length);
    const observation = OBSERVATION.exec(answer);
    return (observation ? answer.slice(0, observation.index) : answer).trim();
  }
  if (text.startsWith("{") || text.startsWith("```")) {
    const final = JSON_FINAL.exec(text);
    return final ? partialString(text.slice(final.index + final[0].length)) : "";
  }
  return raw;
}

/** A JSON string's value as far as it has been written (its closing quote may not have come yet). */
function partialString(rest: string): string {
  let out = "";
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === '"') break;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const next = rest[++i];
    if (next === undefined) break;
    if (next === "u") {
      const hex = rest.slice(i + 1, i + 5);
      if (hex.length < 4) break;
      out += String.fromCharCode(parseInt(hex, 16));
      i += 4;
    } else {
      out += ({ n: "\n", t: "\t", r: "", b: "", f: "" } as Record<string, string>)[next] ?? next;
    }
  }
  return out;
}

/** A reply the graph has read already: its content is the answer (a text protocol's is parsed), or the code wrote it. */
function read(message: Message): boolean {
  const meta = message.response_metadata ?? {};
  return "protocol" in meta || "no_model_call" in meta || "outcome" in meta;
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
      const invalid = calls.length === 0 ? (message.invalid_tool_calls ?? []) : [];
      if (calls.length > 0 || invalid.length > 0) {
        if (t.answer) t.steps.push({ thought: t.answer, actions: [] });
        t.answer = undefined;
        t.steps.push({
          thought: calls.length > 0 ? String(message.response_metadata?.thought ?? text(message.content)) : "",
          actions: [
            ...calls.map((c, i) => ({ id: c.id ?? `${key}-${i}`, name: c.name, args: c.args ?? {} })),
            ...invalid.map((c, i) => ({ id: c.id ?? `${key}-bad-${i}`, name: c.name ?? "", args: {} })),
          ],
        });
      } else {
        const answer = read(message) ? text(message.content) : spoken(text(message.content));
        if (!answer) return; // still a thought or an action: nothing for the person yet
        if (t.answer) t.steps.push({ thought: t.answer, actions: [] });
        t.answer = answer;
        t.outcome = outcomeOf(message);
      }
    } else if (message.type === "tool") {
      const t = current(key);
      const note = stepNote(message);
      const content = text(message.content);
      const observation = {
        content,
        error: message.status === "error",
        rejected: note.rejected === true,
        repeated: note.repeated === true,
      };
      const action = t.steps.flatMap((s) => s.actions).find((a) => a.id === message.tool_call_id);
      if (action) action.observation = observation;
      else t.steps.push({ thought: "", actions: [{ id: message.tool_call_id, name: message.name ?? "", args: {}, observation }] });
    }
  });
  return result;
}
