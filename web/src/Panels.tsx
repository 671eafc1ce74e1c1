// The person's to-do tasks and requests, their e-mails, and their threads: read for the signed-in user only.
import type { Client, Thread } from "@langchain/langgraph-sdk";
import { useEffect, useState } from "react";

import { type Decision, type Email, type FormValue, myDiagrams, myOutbox, myTasks, type Request, type Task, type User } from "./api";
import { text } from "./conversation";
import { ProcessDiagram } from "./Diagram";
import type { Words } from "./i18n";

function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | null; error: string | null } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    load().then(
      (value) => live && (setData(value), setError(null)),
      (e: unknown) => live && setError(String((e as Error)?.message ?? e)),
    );
    return () => {
      live = false;
    };
  }, deps);
  return { data, error };
}

function Status({ status, words: w }: { status: string; words: Words }) {
  return <span className={`badge ${status}`}>{w.status[status] ?? status}</span>;
}

function english(w: Words): boolean {
  return w.lang === "en";
}

function FormLines({ form, words: w }: { form: FormValue[]; words: Words }) {
  const en = english(w);
  return (
    <div className="form" data-testid="form">
      {form.map((f) => (
        <span key={f.id} data-field={f.id}>
          {en ? f.label_en : f.label}: {String(en ? f.value_en : f.value)}
        </span>
      ))}
    </div>
  );
}

function History({ history, words: w }: { history: Decision[]; words: Words }) {
  if (history.length === 0) return null;
  const en = english(w);
  return (
    <ol className="history" data-testid="history">
      {history.map((d) => (
        <li key={d.task}>
          {en ? d.step_en : d.step}: {en ? d.user.name_en ?? d.user.name : d.user.name} {w.status[d.returned ? "returned" : d.approved ? "approved" : "rejected"]}
          {d.comment ? ` (${d.comment})` : ""}
        </li>
      ))}
    </ol>
  );
}

function Timeline({ lines, words: w }: { lines: string[]; words: Words }) {
  if (lines.length === 0) return null;
  return (
    <div>
      {w.timeline}:
      <ol className="history" data-testid="timeline">
        {lines.map((line, i) => (
          <li key={i}>{line}</li>
        ))}
      </ol>
    </div>
  );
}

/** A deputy while away: the form writes the request into the chat, where its card follows (every write has one). */
function DeputyForm({ words: w, onAsk }: { words: Words; onAsk: (text: string) => void }) {
  const [who, setWho] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  return (
    <form
      className="deputy"
      data-testid="deputy-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (who.trim() && from && to) onAsk(w.deputyText(who.trim(), from, to));
      }}
    >
      <h2>{w.deputyTitle}</h2>
      <label>
        {w.deputyName} <input data-testid="deputy-name" value={who} onChange={(e) => setWho(e.target.value)} />
      </label>
      <label>
        {w.deputyFrom} <input type="date" data-testid="deputy-from" value={from} onChange={(e) => setFrom(e.target.value)} />
      </label>
      <label>
        {w.deputyTo} <input type="date" data-testid="deputy-to" value={to} onChange={(e) => setTo(e.target.value)} />
      </label>
      <button className="secondary small" type="submit" data-testid="deputy-set" disabled={!who.trim() || !from || !to}>
        {w.deputySet}
      </button>
    </form>
  );
}

/** What an approver sees of a task: its request's diagram, its timeline, the requester's earlier requests. */
function TaskView({ task: t, diagrams, words: w }: { task: Task; diagrams: Record<string, string> | null; words: Words }) {
  const earlier = t.earlier[w.lang] ?? [];
  return (
    <div className="task-view" data-testid="task-view">
      {diagrams !== null && <ProcessDiagram xml={diagrams[t.diagram.key]} marks={t.diagram} words={w} />}
      <Timeline lines={t.timeline[w.lang] ?? []} words={w} />
      {t.earlier_total === 0 ? (
        <div data-testid="earlier-none">{w.noEarlier}</div>
      ) : (
        <div>
          {w.earlier(t.earlier_total)}:
          <ol className="history" data-testid="earlier">
            {earlier.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}

export function TasksPanel(props: { token: string; words: Words; refresh: number; onAsk: (text: string) => void }) {
  const { token, words: w, refresh, onAsk } = props;
  const { data, error } = useLoad(() => myTasks(token), [token, refresh]);
  const [diagrams, setDiagrams] = useState<Record<string, string> | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const todo: Task[] = data?.todo ?? [];
  const requests: Request[] = data?.requests ?? [];
  const copied: Request[] = data?.copied ?? [];
  const en = english(w);
  const toggle = (id: string) => {
    setOpen(open === id ? null : id);
    if (diagrams === null) myDiagrams(token).then(setDiagrams, () => setDiagrams({}));
  };
  return (
    <div className="panel">
      {error && <p className="error">{error}</p>}
      <h2>{w.todo}</h2>
      {data && todo.length === 0 && <p className="empty">{w.noTodo}</p>}
      <ul className="rows" data-testid="todo">
        {todo.map((t) => (
          <li key={t.id} data-testid="task-row" data-task={t.id} data-status={t.status}>
            <div className="row-head">
              <b>{t.id}</b> {en ? t.process_en : t.process} · {en ? t.step_en : t.step} · {w.requester} {en ? t.requester.name_en ?? t.requester.name : t.requester.name}
              {t.days != null && <> · {w.days(t.days)}</>} <Status status={t.status} words={w} />
            </div>
            {t.reason && (
              <div>
                {w.reason}: {t.reason}
              </div>
            )}
            <FormLines form={t.form.filter((f) => f.id !== "days" && f.id !== "reason")} words={w} />
            {t.group.length > 0 && (
              <div>
                {w.group}: {(en ? t.group_names_en : t.group_names).join(en ? ", " : "、")}
              </div>
            )}
            {t.on_behalf_of && (
              <div data-testid="on-behalf">{w.onBehalfOf(en ? t.on_behalf_of.name_en ?? t.on_behalf_of.name : t.on_behalf_of.name)}</div>
            )}
            {t.status === "pending" && t.due && <div data-testid="task-due">{w.dueBy(en ? t.due.en : t.due.zh)}</div>}
            <History history={t.history} words={w} />
            {t.comment && (
              <div>
                {w.comment}: {t.comment}
              </div>
            )}
            {t.status === "pending" && (
              <button className="secondary small" onClick={() => onAsk(w.askTaskText(t.id))}>
                {w.askAbout}
              </button>
            )}
            {t.status === "pending" && (
              <button className="secondary small" data-testid="send-back-task" onClick={() => onAsk(w.sendBackText(t.id))}>
                {w.sendBack}
              </button>
            )}
            {t.status === "pending" && (
              <button className="secondary small" data-testid="transfer-task" onClick={() => onAsk(w.transferText(t.id))}>
                {w.transfer}
              </button>
            )}
            <button className="secondary small" data-testid="task-view-toggle" onClick={() => toggle(t.id)}>
              {open === t.id ? w.hideTask : w.showTask}
            </button>
            {open === t.id && <TaskView task={t} diagrams={diagrams} words={w} />}
          </li>
        ))}
      </ul>
      <DeputyForm words={w} onAsk={onAsk} />
      <h2>{w.myRequests}</h2>
      {data && requests.length === 0 && <p className="empty">{w.noRequests}</p>}
      <ul className="rows" data-testid="requests">
        {requests.map((r) => (
          <li key={r.id} data-testid="request-row" data-request={r.id} data-status={r.status} data-step={r.step ?? ""}>
            <div className="row-head">
              <b>{r.id}</b> {en ? r.process_en : r.process}
              {r.days != null && <> · {w.days(r.days)}</>} · {w.approver} {r.approver?.name ?? "—"}{" "}
              <Status status={r.status} words={w} />
            </div>
            {r.steps.length > 0 && (
              <div data-testid="current-step">
                {w.step}: {r.steps.map((s) => `${en ? s.step_en : s.step} (${s.task})`).join(", ")}
              </div>
            )}
            {r.reason && (
              <div>
                {w.reason}: {r.reason}
              </div>
            )}
            <FormLines form={r.form.filter((f) => f.id !== "days" && f.id !== "reason")} words={w} />
            {r.held_by[w.lang] && (
              <div data-testid="held-by">{w.heldBy(r.held_by[w.lang] ?? "", r.since[w.lang] ?? "")}</div>
            )}
            {r.comment && (
              <div>
                {w.comment}: {r.comment}
              </div>
            )}
            <Timeline lines={r.timeline[w.lang] ?? []} words={w} />
            {r.status === "returned" && (
              <button className="secondary small" data-testid="resubmit-request" onClick={() => onAsk(w.resubmitText(r.id))}>
                {w.resubmit}
              </button>
            )}
            {(r.status === "pending" || r.status === "returned") && (
              <button className="secondary small" data-testid="withdraw-request" onClick={() => onAsk(w.withdrawText(r.id))}>
                {w.withdraw}
              </button>
            )}
            {r.status === "pending" && (
              <button className="secondary small" data-testid="urge-request" onClick={() => onAsk(w.urgeText(r.id))}>
                {w.urge}
              </button>
            )}
            <button className="secondary small" data-testid="diagram-toggle" onClick={() => toggle(r.id)}>
              {open === r.id ? w.hideDiagram : w.showDiagram}
            </button>
            {open === r.id && diagrams !== null && (
              <ProcessDiagram xml={diagrams[r.diagram.key]} marks={r.diagram} words={w} />
            )}
          </li>
        ))}
      </ul>
      <h2>{w.copiedToMe}</h2>
      {data && copied.length === 0 && <p className="empty">{w.noCopied}</p>}
      <ul className="rows" data-testid="copied">
        {copied.map((r) => (
          <li key={r.id} data-testid="copied-row" data-request={r.id} data-status={r.status}>
            <div className="row-head">
              <b>{r.id}</b> {en ? r.process_en : r.process} · {w.requester}{" "}
              {en ? r.requester?.name_en ?? r.requester?.name : r.requester?.name}
              {r.days != null && <> · {w.days(r.days)}</>} <Status status={r.status} words={w} />
            </div>
            <FormLines form={r.form} words={w} />
            {r.held_by[w.lang] && (
              <div data-testid="held-by">{w.heldBy(r.held_by[w.lang] ?? "", r.since[w.lang] ?? "")}</div>
            )}
            <Timeline lines={r.timeline[w.lang] ?? []} words={w} />
            <button className="secondary small" data-testid="diagram-toggle" onClick={() => toggle(`cc:${r.id}`)}>
              {open === `cc:${r.id}` ? w.hideDiagram : w.showDiagram}
            </button>
            {open === `cc:${r.id}` && diagrams !== null && (
              <ProcessDiagram xml={diagrams[r.diagram.key]} marks={r.diagram} words={w} />
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function OutboxPanel(props: { token: string; words: Words; refresh: number }) {
  const { token, words: w, refresh } = props;
  const { data, error } = useLoad(() => myOutbox(token), [token, refresh]);
  const emails: Email[] = data ?? [];
  return (
    <div className="panel">
      {error && <p className="error">{error}</p>}
      <h2>{w.outbox}</h2>
      {data && emails.length === 0 && <p className="empty">{w.noEmails}</p>}
      <ul className="rows" data-testid="outbox">
        {emails.map((e) => (
          <li key={e.id} data-testid="email-row">
            <div className="row-head">
              <b>{e.subject}</b> <Status status={e.status} words={w} />
            </div>
            <div>
              {w.emailFrom} {e.from.name} → {w.emailTo} {e.to.name} &lt;{e.to.email}&gt;
            </div>
            <pre className="body">{e.body}</pre>
          </li>
        ))}
      </ul>
    </div>
  );
}

function title(thread: Thread, w: Words): string {
  const values = thread.values as { messages?: { type: string; content: string }[] } | null;
  const first = values?.messages?.find((m) => m.type === "human");
  const words = first ? text(first.content as never) : "";
  return words ? (words.length > 40 ? `${words.slice(0, 40)}…` : words) : w.untitled;
}

export function ThreadsPanel(props: {
  client: Client;
  user: User;
  words: Words;
  refresh: number;
  current: string | null;
  onOpen: (id: string | null) => void;
}) {
  const { client, user, words: w, refresh, current, onOpen } = props;
  const { data, error } = useLoad(
    () => client.threads.search({ metadata: { owner: user.id }, limit: 50, sortBy: "updated_at", sortOrder: "desc" }),
    [client, user.id, refresh],
  );
  return (
    <div className="panel" data-testid="threads-panel" data-loaded={data ? "yes" : "no"}>
      {error && <p className="error">{error}</p>}
      <div className="panel-head">
        <h2>{w.threads}</h2>
        <button data-testid="new-thread" onClick={() => onOpen(null)}>
          {w.newThread}
        </button>
      </div>
      {data && data.length === 0 && <p className="empty">{w.noThreads}</p>}
      <ul className="rows" data-testid="threads">
        {(data ?? []).map((thread) => (
          <li key={thread.thread_id} className={thread.thread_id === current ? "current" : undefined}>
            <button className="link" data-testid="thread-row" onClick={() => onOpen(thread.thread_id)}>
              {title(thread, w)}
            </button>
            {w.threadStatus[thread.status] && (
              <span className={`badge ${thread.status}`} data-testid="thread-status">
                {w.threadStatus[thread.status]}
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
