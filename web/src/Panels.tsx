// The person's to-do tasks and requests, their e-mails, and their threads: read for the signed-in user only.
import type { Client, Thread } from "@langchain/langgraph-sdk";
import { useEffect, useState } from "react";

import { type Email, myOutbox, myTasks, type Request, type Task, type User } from "./api";
import { text } from "./conversation";
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

export function TasksPanel(props: { token: string; words: Words; refresh: number; onAsk: (text: string) => void }) {
  const { token, words: w, refresh, onAsk } = props;
  const { data, error } = useLoad(() => myTasks(token), [token, refresh]);
  const todo: Task[] = data?.todo ?? [];
  const requests: Request[] = data?.requests ?? [];
  return (
    <div className="panel">
      {error && <p className="error">{error}</p>}
      <h2>{w.todo}</h2>
      {data && todo.length === 0 && <p className="empty">{w.noTodo}</p>}
      <ul className="rows" data-testid="todo">
        {todo.map((t) => (
          <li key={t.id} data-testid="task-row" data-task={t.id} data-status={t.status}>
            <div className="row-head">
              <b>{t.id}</b> {t.process} · {w.requester} {t.requester.name} · {w.days(t.days)} <Status status={t.status} words={w} />
            </div>
            <div>
              {w.reason}: {t.reason}
            </div>
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
          </li>
        ))}
      </ul>
      <h2>{w.myRequests}</h2>
      {data && requests.length === 0 && <p className="empty">{w.noRequests}</p>}
      <ul className="rows" data-testid="requests">
        {requests.map((r) => (
          <li key={r.id} data-testid="request-row" data-request={r.id} data-status={r.status}>
            <div className="row-head">
              <b>{r.id}</b> {r.process} · {w.days(r.days)} · {w.approver} {r.approver?.name ?? "—"}{" "}
              <Status status={r.status} words={w} />
            </div>
            <div>
              {w.reason}: {r.reason}
            </div>
            {r.comment && (
              <div>
                {w.comment}: {r.comment}
              </div>
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
            <span className={`badge ${thread.status}`}>{thread.status}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
