// The approval card as the person reads it: the action's title, what the store says it will do (the card's summary,
// the fields it labels for a person, its notes), and the person's approve / edit / reject. The card's other fields
// (ids, raw values, the checks' notes for the model) are for clients and the audit, never shown.
import { useState } from "react";

import { BatchEdit, batchItems } from "./BatchEdit";
import type { Words } from "./i18n";
import type { Decision, Review } from "./review";
import type { Wording } from "./wording";

/** A field's value as shown: the card's builder words each value for the person; a list is one item a line. */
function show(value: unknown): string {
  if (Array.isArray(value)) return value.map(show).join("\n");
  if (typeof value === "object" && value !== null) return "";
  return String(value ?? "");
}

/** The fields a person reads, in the card's order with its labels; a card without `labels` (an older version's)
 * shows its summary only. */
export function shownFields(card: Record<string, unknown>): [string, string, string][] {
  const labels = card.labels;
  if (typeof labels !== "object" || labels === null || Array.isArray(labels)) return [];
  return Object.entries(labels as Record<string, unknown>)
    .map(([key, label]): [string, string, string] => [key, String(label), show(card[key])])
    .filter(([, , value]) => value !== "");
}

function notesOf(card: Record<string, unknown>): string[] {
  return Array.isArray(card.notes) ? card.notes.map(String).filter(Boolean) : [];
}

export function ReviewCard(props: {
  review: Review;
  words: Words;
  wording: Wording;
  busy: boolean;
  onDecide: (d: Decision) => void;
}) {
  const { review, words: w, wording, busy, onDecide } = props;
  const [action] = review.actions;
  const [mode, setMode] = useState<"card" | "edit" | "reject">("card");
  const [argsText, setArgsText] = useState(() => JSON.stringify(action?.args ?? {}, null, 2));
  const [message, setMessage] = useState("");
  const [invalid, setInvalid] = useState(false);
  if (!action) return null;
  const allowed = new Set(action.allowed);
  const title = typeof action.card.title === "string" ? action.card.title : "";
  const summary = typeof action.card.summary === "string" ? action.card.summary : "";
  const fields = shownFields(action.card);
  const batch = batchItems(action.card);
  const notes = notesOf(action.card);

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
      <h3 data-testid="card-title">{title ? `${w.cardTitle} · ${title}` : w.cardTitle}</h3>
      {review.error && <p className="card-error">{wording.server.card[wording.lang].retry}</p>}
      {summary && (
        <p className="summary" data-testid="card-summary">
          {summary}
        </p>
      )}
      <dl>
        {fields.map(([key, label, value]) => (
          <div key={key} className={key === "text" || key === "values" ? "wide" : undefined} data-field={key}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {notes.length > 0 && (
        <ul className="notes" data-testid="card-notes">
          {notes.map((note, i) => (
            <li key={i}>{note}</li>
          ))}
        </ul>
      )}
      <details>
        <summary>{w.args}</summary>
        <pre>{JSON.stringify(action.args, null, 2)}</pre>
      </details>
      {mode === "edit" && batch !== null && (
        <BatchEdit
          items={batch}
          args={action.args}
          words={w}
          busy={busy}
          onSend={(args) => onDecide({ type: "edit", args })}
          onCancel={() => setMode("card")}
        />
      )}
      {mode === "edit" && batch === null && (
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
