// A batch card's edit, task by task: each task the card lists with its own decision (approve, reject, leave out) and
// comment, sent back as the call's `decisions` (an edit of the card, checked again by the server like any edit).
import { useState } from "react";

import type { Words } from "./i18n";

/** One task of a batch card, as `tools/workflow/batch.py` builds it. */
interface BatchItem {
  taskId: string;
  /** The task in a few words: whose request, which, how long. */
  what: string;
  decision: "approve" | "reject";
  comment: string;
}

type Choice = "approve" | "reject" | "skip";

/** The tasks of a batch card (its `items`), or null for any other card. */
export function batchItems(card: Record<string, unknown>): BatchItem[] | null {
  if (!Array.isArray(card.items)) return null;
  return card.items.filter((i): i is BatchItem => typeof i === "object" && i !== null && "taskId" in i);
}

export function BatchEdit(props: {
  items: BatchItem[];
  args: Record<string, unknown>;
  words: Words;
  busy: boolean;
  onSend: (args: Record<string, unknown>) => void;
  onCancel: () => void;
}) {
  const { items, args, words: w, busy, onSend, onCancel } = props;
  const [choices, setChoices] = useState<Record<string, Choice>>(() =>
    Object.fromEntries(items.map((i) => [i.taskId, i.decision])),
  );
  const [comments, setComments] = useState<Record<string, string>>(() =>
    Object.fromEntries(items.map((i) => [i.taskId, i.comment ?? ""])),
  );
  const send = () =>
    onSend({
      ...args,
      decisions: items.map((i) =>
        choices[i.taskId] === "skip"
          ? { taskId: i.taskId, skip: true }
          : { taskId: i.taskId, isOK: choices[i.taskId] === "approve", comment: comments[i.taskId] ?? "" },
      ),
    });
  return (
    <div className="card-form" data-testid="batch-edit">
      <ul className="rows">
        {items.map((i) => (
          <li key={i.taskId} data-testid="batch-item" data-task={i.taskId}>
            <div>{i.what}</div>
            <select
              aria-label={w.batchDecision}
              data-testid="batch-decision"
              value={choices[i.taskId]}
              onChange={(e) => setChoices({ ...choices, [i.taskId]: e.target.value as Choice })}
            >
              <option value="approve">{w.batchApprove}</option>
              <option value="reject">{w.batchReject}</option>
              <option value="skip">{w.batchSkip}</option>
            </select>
            <input
              aria-label={w.comment}
              data-testid="batch-comment"
              placeholder={w.comment}
              value={comments[i.taskId] ?? ""}
              disabled={choices[i.taskId] === "skip"}
              onChange={(e) => setComments({ ...comments, [i.taskId]: e.target.value })}
            />
          </li>
        ))}
      </ul>
      <div className="buttons">
        <button disabled={busy} data-testid="batch-send" onClick={send}>
          {w.editSend}
        </button>
        <button className="secondary" onClick={onCancel}>
          {w.cancel}
        </button>
      </div>
    </div>
  );
}
