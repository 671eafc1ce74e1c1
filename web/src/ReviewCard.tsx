// The approval card: what the store says the action will do, and the person's approve / edit / reject.
import { useState } from "react";

import type { Words } from "./i18n";
import type { Decision, Review } from "./review";

const HIDDEN = new Set(["action"]);
/** Fields shown first and last; the rest keep the server's order. */
const FIRST = ["summary"];
const LAST = ["policy_notes"];

function rank(key: string): number {
  return FIRST.includes(key) ? 0 : LAST.includes(key) ? 2 : 1;
}

function show(value: unknown): string {
  if (Array.isArray(value)) return value.map(show).join("; ");
  if (typeof value === "boolean") return value ? "✓" : "—";
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return String(value ?? "");
}

export function ReviewCard(props: { review: Review; words: Words; busy: boolean; onDecide: (d: Decision) => void }) {
  const { review, words: w, busy, onDecide } = props;
  const [action] = review.actions;
  const [mode, setMode] = useState<"card" | "edit" | "reject">("card");
  const [argsText, setArgsText] = useState(() => JSON.stringify(action?.args ?? {}, null, 2));
  const [message, setMessage] = useState("");
  const [invalid, setInvalid] = useState(false);
  if (!action) return null;
  const allowed = new Set(action.allowed);
  const fields = Object.entries(action.card).filter(
    ([k, v]) => !HIDDEN.has(k) && v !== "" && v !== null && !(Array.isArray(v) && v.length === 0),
  ).sort(([a], [b]) => rank(a) - rank(b));

  const submitEdit = () => {
    try {
      const args: unknown = JSON.parse(argsText);
      if (typeof args !== "object" || args === null || Array.isArray(args)) throw new Error("not an object");
      onDecide({ type: "edit", args: args as Record<string, unknown> });
    } catch {
      setInvalid(true);
    }
  };

  return (
    <section className="card" data-testid="review-card" aria-label={w.cardTitle}>
      <h3>
        {w.cardTitle} · <code>{action.name}</code>
      </h3>
      {review.error && <p className="card-error">{review.error}</p>}
      {fields.length === 0 && <p className="description">{action.description}</p>}
      <dl>
        {fields.map(([key, value]) => (
          <div key={key} className={key === "text" ? "wide" : undefined} data-field={key}>
            <dt>{w.cardFields[key] ?? key}</dt>
            <dd>{show(value)}</dd>
          </div>
        ))}
      </dl>
      <details>
        <summary>{w.args}</summary>
        <pre>{JSON.stringify(action.args, null, 2)}</pre>
      </details>
      {mode === "edit" && (
        <div className="card-form">
          <textarea
            aria-label={w.args}
            data-testid="edit-args"
            value={argsText}
            rows={6}
            onChange={(e) => {
              setArgsText(e.target.value);
              setInvalid(false);
            }}
          />
          {invalid && <p className="card-error">{w.editInvalid}</p>}
          <div className="buttons">
            <button disabled={busy} onClick={submitEdit}>
              {w.editSend}
            </button>
            <button className="secondary" onClick={() => setMode("card")}>
              {w.cancel}
            </button>
          </div>
        </div>
      )}
      {mode === "reject" && (
        <div className="card-form">
          <input
            aria-label={w.rejectMessage}
            data-testid="reject-message"
            placeholder={w.rejectMessage}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
          <div className="buttons">
            <button className="danger" disabled={busy} onClick={() => onDecide({ type: "reject", message })}>
              {w.rejectSend}
            </button>
            <button className="secondary" onClick={() => setMode("card")}>
              {w.cancel}
            </button>
          </div>
        </div>
      )}
      {mode === "card" && (
        <div className="buttons">
          {allowed.has("approve") && (
            <button data-testid="approve" disabled={busy} onClick={() => onDecide({ type: "approve" })}>
              {w.approve}
            </button>
          )}
          {allowed.has("edit") && (
            <button className="secondary" data-testid="edit" disabled={busy} onClick={() => setMode("edit")}>
              {w.edit}
            </button>
          )}
          {allowed.has("reject") && (
            <button className="danger" data-testid="reject" disabled={busy} onClick={() => setMode("reject")}>
              {w.reject}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
