// The conversation on one thread, streamed by the SDK's useStream: answers, folded ReAct steps, the approval card.
import type { Client, Message } from "@langchain/langgraph-sdk";
import { useStream } from "@langchain/langgraph-sdk/react";
import { useEffect, useRef, useState } from "react";

import { ASSISTANT_ID, type User } from "./api";
import { type Observation, type Turn, turns } from "./conversation";
import type { Words } from "./i18n";
import { type Decision, parseReview, resumeValue } from "./review";
import { ReviewCard } from "./ReviewCard";
import { actionTitle, isRejection, type OutcomeLine, outcomeLine, outcomeText, type ServerWords, type Wording } from "./wording";

interface State extends Record<string, unknown> {
  messages: Message[];
  outcome?: OutcomeLine[];
}

function Outcome({ outcome, wording }: { outcome: OutcomeLine[]; wording: Wording }) {
  return (
    <p className="outcome" data-testid="outcome">
      {outcomeText(outcome, wording)}
    </p>
  );
}

/** An observation as the person reads it: what became of the action, never the result or refusal written for the
 * model (a write's result is in the outcome line, a look-up's in the answer). */
function observationText(name: string, observation: Observation, wording: Wording, w: Words): string {
  if (!observation.error) return observation.repeated ? `${w.done} ${w.sameResult}` : w.done;
  const status = observation.rejected || isRejection(observation.content) ? "rejected" : "refused";
  return outcomeLine({ tool: name, status, detail: observation.content }, wording);
}

const FORMAT_ERROR = "format_error";

function Steps({ turn, words: w, wording, open }: { turn: Turn; words: Words; wording: Wording; open: boolean }) {
  if (turn.steps.length === 0) return null;
  return (
    <details className="steps" open={open} data-testid="steps">
      <summary>{w.steps(turn.steps.length)}</summary>
      <ol>
        {turn.steps.map((step, i) => (
          <li key={i}>
            {step.thought && (
              <p>
                <b>{w.thought}:</b> {step.thought}
              </p>
            )}
            {step.actions.map((action) => (
              <div key={action.id} className="action">
                <p>
                  <b>{w.action}:</b> {action.name === FORMAT_ERROR ? w.unparseable : actionTitle(action.name, wording)}
                </p>
                <p className={action.observation?.error ? "observation error" : "observation"}>
                  <b>{w.observation}:</b>{" "}
                  {action.observation ? observationText(action.name, action.observation, wording, w) : w.noObservation}
                </p>
              </div>
            ))}
          </li>
        ))}
      </ol>
    </details>
  );
}

export function Chat(props: {
  client: Client;
  user: User;
  words: Words;
  server: ServerWords;
  threadId: string | null;
  onThreadId: (id: string) => void;
  onFinished: () => void;
  draft: string;
}) {
  const { client, user, words: w, server, threadId, onThreadId, onFinished } = props;
  const wording: Wording = { lang: w.lang, server };
  const [input, setInput] = useState(props.draft);
  const [failure, setFailure] = useState<string | null>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const finished = useRef(onFinished);
  finished.current = onFinished;
  const rejoin = useRef<(runId: string) => void>(() => undefined);
  const rejoined = useRef(new Set<string>());

  const stream = useStream<State>({
    client,
    assistantId: ASSISTANT_ID,
    threadId,
    onThreadId,
    fetchStateHistory: false,
    // Taking the thread's state makes the SDK read it once a run's stream ends: the page shows what the server kept,
    // not what the stream happened to deliver (a stream cut short left half an answer on the page). A state that
    // still has steps to run, with no card waiting and no step failed, means the stream ended before the run did:
    // follow that run again, once.
    onFinish: (state, run) => {
      const stopped = state.tasks?.some((task) => (task.interrupts ?? []).length > 0 || task.error != null) ?? false;
      if (run && state.next.length > 0 && !stopped && !rejoined.current.has(run.run_id)) {
        rejoined.current.add(run.run_id);
        rejoin.current(run.run_id);
      } else finished.current();
    },
    onError: (error) => setFailure(String((error as Error)?.message ?? error)),
  });
  rejoin.current = (runId) => void stream.joinStream(runId);

  useEffect(() => {
    setInput(props.draft);
  }, [props.draft]);
  const all = turns(stream.messages);
  useEffect(() => {
    // Braces: a browser's scrollIntoView may return a promise, and an effect may only return a cleanup.
    void bottom.current?.scrollIntoView?.({ block: "end" });
  }, [all.length, stream.isLoading, stream.interrupt]);

  // The actor is the signed-in person; with LangGraph auth on, the server takes it from the token instead.
  const runOptions = { context: { user_id: user.id }, metadata: { owner: user.id } };
  const review = stream.interrupt ? parseReview(stream.interrupt.value) : null;
  const busy = stream.isLoading;

  const send = () => {
    const question = input.trim();
    if (!question || busy) return;
    setFailure(null);
    setInput("");
    void stream.submit({ messages: [{ type: "human", content: question }] }, runOptions);
  };

  const decide = (decision: Decision) => {
    if (!review) return;
    setFailure(null);
    void stream.submit(null, { ...runOptions, command: { resume: resumeValue(review, decision) } });
  };

  const lastOutcome = stream.values?.outcome;
  return (
    <div className="chat">
      <div className="messages" data-testid="messages">
        {all.map((turn, index) => {
          const last = index === all.length - 1;
          const outcome = turn.outcome ?? (last && turn.answer && lastOutcome ? lastOutcome : undefined);
          return (
            <div key={turn.key} className="turn">
              {turn.question && (
                <p className="bubble question" data-testid="question">
                  {turn.question}
                </p>
              )}
              <div className="bubble answer">
                {turn.answer && <p data-testid="answer">{turn.answer}</p>}
                <Steps turn={turn} words={w} wording={wording} open={!turn.answer} />
                {outcome && <Outcome outcome={outcome} wording={wording} />}
              </div>
            </div>
          );
        })}
        {busy && <p className="status">{w.thinking}</p>}
        {review && !busy && (
          <ReviewCard key={stream.interrupt?.id} review={review} words={w} wording={wording} busy={busy} onDecide={decide} />
        )}
        {(failure || stream.error != null) && (
          <p className="error" role="alert">
            {w.error}
            {failure ?? String(stream.error)}
          </p>
        )}
        <div ref={bottom} />
      </div>
      {/* While a card waits, the person answers it first: the composer comes back after the decision. */}
      {!review && <form
        className="composer"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <textarea
          aria-label={w.placeholder}
          data-testid="composer"
          placeholder={w.placeholder}
          value={input}
          rows={2}
          onChange={(e) => setInput(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
        />
        <button type="submit" data-testid="send" disabled={busy || !input.trim()}>
          {w.send}
        </button>
      </form>}
    </div>
  );
}
