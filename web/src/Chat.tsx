// The conversation on one thread, streamed by the SDK's useStream: answers, folded ReAct steps, the approval card.
import type { Client, Message } from "@langchain/langgraph-sdk";
import { useStream } from "@langchain/langgraph-sdk/react";
import { useEffect, useRef, useState } from "react";

import { ASSISTANT_ID, type User } from "./api";
import { observationText, type OutcomeLine, type Turn, turns } from "./conversation";
import type { Words } from "./i18n";
import { type Decision, parseReview, resumeValue } from "./review";
import { ReviewCard } from "./ReviewCard";

interface State extends Record<string, unknown> {
  messages: Message[];
  outcome?: OutcomeLine[];
}

function Outcome({ outcome, words: w }: { outcome: OutcomeLine[]; words: Words }) {
  const parts = outcome.map((line) => `${line.tool} ${w.outcome[line.status] ?? line.status}: ${line.detail}`);
  return (
    <p className="outcome" data-testid="outcome">
      {w.outcomeTitle} {parts.length ? parts.join(w.outcomeSep) : w.outcomeNone}
    </p>
  );
}

function Steps({ turn, words: w, open }: { turn: Turn; words: Words; open: boolean }) {
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
                  <b>{w.action}:</b> <code>{action.name}</code> <code className="args">{JSON.stringify(action.args)}</code>
                </p>
                <p className={action.observation?.error ? "observation error" : "observation"}>
                  <b>{w.observation}:</b> {action.observation ? observationText(action.observation, w) : w.noObservation}
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
  threadId: string | null;
  onThreadId: (id: string) => void;
  onFinished: () => void;
  draft: string;
}) {
  const { client, user, words: w, threadId, onThreadId, onFinished } = props;
  const [input, setInput] = useState(props.draft);
  const [failure, setFailure] = useState<string | null>(null);
  const bottom = useRef<HTMLDivElement>(null);
  const finished = useRef(onFinished);
  finished.current = onFinished;

  const stream = useStream<State>({
    client,
    assistantId: ASSISTANT_ID,
    threadId,
    onThreadId,
    fetchStateHistory: false,
    onFinish: () => finished.current(),
    onError: (error) => setFailure(String((error as Error)?.message ?? error)),
  });

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
                <Steps turn={turn} words={w} open={!turn.answer} />
                {outcome && <Outcome outcome={outcome} words={w} />}
              </div>
            </div>
          );
        })}
        {busy && <p className="status">{w.thinking}</p>}
        {review && !busy && <ReviewCard key={stream.interrupt?.id} review={review} words={w} busy={busy} onDecide={decide} />}
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
