// The page: development sign-in, then the person's chat, to-do tasks, e-mails and threads.
import { useCallback, useEffect, useMemo, useState } from "react";

import { devToken, devUsers, langgraphClient, savedSession, saveSession, type Session, type User } from "./api";
import { Chat } from "./Chat";
import { initialLang, type Lang, saveLang, WORDS, type Words } from "./i18n";
import { OutboxPanel, TasksPanel, ThreadsPanel } from "./Panels";
import { type ServerWords, serverWords } from "./wording";

type Tab = "chat" | "tasks" | "outbox" | "threads";
const TABS: Tab[] = ["chat", "tasks", "outbox", "threads"];

function threadInHash(): string | null {
  const match = /^#thread=([\w-]+)$/.exec(window.location.hash);
  return match ? match[1] : null;
}

function setHash(threadId: string | null): void {
  const url = threadId ? `#thread=${threadId}` : window.location.pathname;
  window.history.replaceState(null, "", url);
}

function SignIn({ words: w, onSignedIn }: { words: Words; onSignedIn: (s: Session) => void }) {
  const [users, setUsers] = useState<User[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    devUsers().then(setUsers, (e: Error) => setError(e.message));
  }, []);
  return (
    <main className="signin">
      <h2>{w.signInTitle}</h2>
      <p>{w.signInHint}</p>
      {error && <p className="error">{error}</p>}
      <ul className="users" data-testid="dev-users">
        {users.map((u) => (
          <li key={u.id}>
            <button
              data-testid={`sign-in-${u.id}`}
              onClick={() => devToken(u.id).then(onSignedIn, (e: Error) => setError(e.message))}
            >
              {u.name} <small>{u.id}</small>
            </button>
          </li>
        ))}
      </ul>
    </main>
  );
}

export function App() {
  const [lang, setLang] = useState<Lang>(initialLang);
  const [session, setSession] = useState<Session | null>(savedSession);
  const [tab, setTab] = useState<Tab>("chat");
  const [threadId, setThreadId] = useState<string | null>(null);
  const [chatKey, setChatKey] = useState(0);
  const [denied, setDenied] = useState(false);
  const [refresh, setRefresh] = useState(0);
  const [draft, setDraft] = useState("");
  const [server, setServer] = useState<ServerWords | null>(null);
  const [wordsError, setWordsError] = useState<string | null>(null);
  const w = WORDS[lang];
  const client = useMemo(() => (session ? langgraphClient(session.token) : null), [session]);

  useEffect(() => {
    saveLang(lang);
  }, [lang]);

  useEffect(() => {
    serverWords().then(setServer, (e: Error) => setWordsError(e.message));
  }, []);

  const openThread = useCallback(
    async (id: string | null) => {
      setTab("chat");
      setDraft("");
      setChatKey((k) => k + 1);
      setHash(id);
      if (!id || !client || !session) {
        setDenied(false);
        setThreadId(null);
        return;
      }
      // The server hides other people's threads (LangGraph auth answers 404); the page checks the owner as well.
      const owned = await client.threads.get(id).then(
        (thread) => thread.metadata?.owner === session.user.id,
        () => false,
      );
      setDenied(!owned);
      setThreadId(owned ? id : null);
    },
    [client, session],
  );

  useEffect(() => {
    if (!session) return;
    void openThread(threadInHash());
    const onHash = () => void openThread(threadInHash());
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, [session, openThread]);

  const signIn = (s: Session) => {
    saveSession(s);
    setSession(s);
  };
  const signOut = () => {
    saveSession(null);
    setSession(null);
    setThreadId(null);
    setHash(null);
  };

  return (
    <div className="app">
      <header>
        <h1>{w.title}</h1>
        {session && (
          <span className="who" data-testid="signed-in-as">
            {w.signedInAs(session.user.name)}
          </span>
        )}
        <button className="secondary small" data-testid="language" onClick={() => setLang(lang === "zh" ? "en" : "zh")}>
          {w.language}
        </button>
        {session && (
          <button className="secondary small" data-testid="sign-out" onClick={signOut}>
            {w.signOut}
          </button>
        )}
      </header>
      {!session || !client ? (
        <SignIn words={w} onSignedIn={signIn} />
      ) : (
        <>
          <nav>
            {TABS.map((t) => (
              <button key={t} data-testid={`tab-${t}`} className={t === tab ? "active" : undefined} onClick={() => setTab(t)}>
                {w[t]}
              </button>
            ))}
          </nav>
          <main>
            <div hidden={tab !== "chat"} className="chat-tab">
              {denied ? (
                <p className="error" role="alert" data-testid="not-yours">
                  {w.notYours}
                </p>
              ) : !server ? (
                wordsError && (
                  <p className="error" role="alert">
                    {w.error}
                    {wordsError}
                  </p>
                )
              ) : (
                <Chat
                  key={chatKey}
                  client={client}
                  user={session.user}
                  words={w}
                  server={server}
                  threadId={threadId}
                  draft={draft}
                  onThreadId={(id) => {
                    setThreadId(id);
                    setHash(id);
                  }}
                  onFinished={() => setRefresh((n) => n + 1)}
                />
              )}
            </div>
            {tab === "tasks" && (
              <TasksPanel
                token={session.token}
                words={w}
                refresh={refresh}
                onAsk={(text) => {
                  void openThread(null).then(() => setDraft(text));
                }}
              />
            )}
            {tab === "outbox" && <OutboxPanel token={session.token} words={w} refresh={refresh} />}
            {tab === "threads" && (
              <ThreadsPanel
                client={client}
                user={session.user}
                words={w}
                refresh={refresh}
                current={threadId}
                onOpen={(id) => void openThread(id)}
              />
            )}
          </main>
        </>
      )}
    </div>
  );
}
