// The server's two faces for the page: flowagent's JSON routes (sign-in, tasks, outbox) and the LangGraph API
// through the SDK's Client, both with the signed-in person's bearer token.
import { Client } from "@langchain/langgraph-sdk";

export const ASSISTANT_ID = "flowagent";
const API_URL = window.location.origin;
const SESSION_KEY = "flowagent.session";

export interface User {
  id: string;
  name: string;
  name_en?: string;
}

export interface Session {
  token: string;
  user: User;
}

/** One value of a request's start form, labelled in both languages. */
export interface FormValue {
  id: string;
  label: string;
  label_en: string;
  value: string | number | boolean;
  value_en: string | number | boolean;
}

/** One decision of a request's history. */
export interface Decision {
  task: string;
  step: string;
  step_en: string;
  user: User;
  approved: boolean;
  /** The step sent the request back to its requester instead of deciding it. */
  returned: boolean;
  comment: string;
  at: string;
}

/** BPMN element ids to mark on a request's diagram; `key` names its process version in `/api/diagrams`. */
export interface DiagramMarks {
  key: string;
  done: string[];
  current: string[];
  next: string[];
}

export interface Task {
  id: string;
  request: string;
  process: string;
  process_en: string;
  step: string;
  step_en: string;
  requester: User;
  days: number | null;
  reason: string | null;
  form: FormValue[];
  flagged: boolean;
  status: string;
  group: string[];
  group_names: string[];
  group_names_en: string[];
  comment: string | null;
  history: Decision[];
  created_at: string;
  decided_at: string | null;
  /** Set when a deputy holds the task: the person away, on whose behalf it is decided. */
  on_behalf_of?: User | null;
  /** A waiting task's due date (or when it moves on, escalated), worded in each language; null without one. */
  due?: { zh: string; en: string } | null;
  /** What its approver sees of it: its request's diagram marks, its timeline, and the requester's earlier requests
   * of the same kind that year (the latest few, worded in each language, and how many in all). */
  diagram: DiagramMarks;
  timeline: Record<string, string[]>;
  earlier: Record<string, string[]>;
  earlier_total: number;
}

export interface Request {
  id: string;
  /** Who filed it (the rows copied to the person show it). */
  requester?: User;
  process: string;
  process_en: string;
  version: number;
  days: number | null;
  reason: string | null;
  form: FormValue[];
  status: string;
  step: string | null;
  steps: { task: string; step: string; step_en: string }[];
  task: string | null;
  approver: User | null;
  comment: string | null;
  history: Decision[];
  /** Who holds it now, since when, and its timeline, in each language (null when nobody holds it). */
  held_by: Record<string, string | null>;
  since: Record<string, string | null>;
  timeline: Record<string, string[]>;
  diagram: DiagramMarks;
  created_at: string;
  decided_at: string | null;
}

export interface Email {
  id: number;
  from: User;
  to: User & { email: string };
  subject: string;
  body: string;
  task: string | null;
  status: string;
  created_at: string;
  sent_at: string | null;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function call<T>(path: string, init: RequestInit = {}, token?: string): Promise<T> {
  const headers = new Headers(init.headers);
  if (token) headers.set("Authorization", `Bearer ${token}`);
  if (init.body) headers.set("Content-Type", "application/json");
  const response = await fetch(`${API_URL}/flowagent${path}`, { ...init, headers });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, body.message ?? response.statusText);
  return body as T;
}

export const devUsers = () => call<{ users: User[] }>("/auth/dev-users").then((r) => r.users);

export const devToken = (userId: string) =>
  call<Session>("/auth/dev-token", { method: "POST", body: JSON.stringify({ user_id: userId }) });

export const myTasks = (token: string) => call<{ todo: Task[]; requests: Request[]; copied?: Request[] }>("/api/tasks", {}, token);

export const myDiagrams = (token: string) =>
  call<{ diagrams: Record<string, string> }>("/api/diagrams", {}, token).then((r) => r.diagrams);

export const myOutbox = (token: string) => call<{ emails: Email[] }>("/api/outbox", {}, token).then((r) => r.emails);

export const me = (token: string) => call<User & { email: string }>("/api/me", {}, token);

/** The LangGraph API client for this person: every request carries their token. */
export function langgraphClient(token: string): Client {
  return new Client({ apiUrl: API_URL, apiKey: null, defaultHeaders: { Authorization: `Bearer ${token}` } });
}

export function savedSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(SESSION_KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  if (session) sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(SESSION_KEY);
}
