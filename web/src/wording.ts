// How a run's records read to a person, worded with what the server owns (`GET /flowagent/words`, the same words the
// terminal chat uses: graph/prompts.py): an action by its title, never by its tool's name; a refusal or the
// person's own rejection, written for the model, by what it means for them; the "what actually happened" line.
// The rules mirror graph/history.py (`refusal_key`, `outcome_line`).
import type { Lang } from "./i18n";

export interface ServerWords {
  /** Each tool's title by language (`ToolSpec.title`). */
  titles: Record<string, Record<Lang, string>>;
  /** An action of no known tool. */
  unnamed: Record<Lang, string>;
  /** Why an action was not done, by `refusalKey`: the graph's words and the served toolset's for its own codes. */
  refusals: Record<Lang, Record<string, string>>;
  /** The outcome line's templates: executed, rejected, said, refused, failed, waiting, none, title, sep. */
  outcome: Record<Lang, Record<string, string>>;
  /** The card's own words (`retry`: a card shown again). */
  card: Record<Lang, Record<string, string>>;
}

/** The words, once per page. */
let loaded: Promise<ServerWords> | null = null;

export function serverWords(): Promise<ServerWords> {
  loaded ??= fetch(`${window.location.origin}/flowagent/words`).then((response) => {
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    return response.json() as Promise<ServerWords>;
  });
  loaded.catch(() => {
    loaded = null; // the next call tries again
  });
  return loaded;
}

/** One person-facing wording of a run, in one language. */
export interface Wording {
  lang: Lang;
  server: ServerWords;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? "");
}

/** What an action is called for the person; several tools named together each by their title. */
export function actionTitle(name: string, { lang, server }: Wording): string {
  const names = name.split(",").map((n) => n.trim()).filter(Boolean);
  const titles = (names.length ? names : [name]).map((n) => server.titles[n]?.[lang] ?? server.unnamed[lang]);
  return titles.join(lang === "zh" ? "、" : ", ");
}

const CODE = /^\s*(?:Error\s*)?\[([a-z_]+)\]/;
const ASKS = /^(?:missing|unclear|ambiguous|which)_|_not_(?:given|named)$/;
const STARTS: [RegExp, string][] = [
  [/^Not run:/, "not_run"],
  [/^Error: the arguments of/, "invalid_json"],
  [/^Error: only one write action/, "second_write"],
  [/^Your last reply could not be parsed/, "format_error"],
  [/^Error: \S+ needs /, "asks"],
  [/^Error: \S+ was already called/, "repeated"],
];
const REVIEWER = /^Rejected by the reviewer \([^)]*\): ([\s\S]*?) Do not retry this action/;
const UNSAID = new Set(["the reviewer declined this action.", "no valid decision was given."]);

/** The `refusals` entry for a refusal's text (as graph/history.py `refusal_key`). */
export function refusalKey(text: string, server: ServerWords): string {
  const code = CODE.exec(text);
  if (!code) return STARTS.find(([start]) => start.test(text))?.[1] ?? "other";
  const name = code[1];
  if (name in server.refusals.en) return name;
  return ASKS.test(name) ? "asks" : "other";
}

export function refusalText(text: string, { lang, server }: Wording): string {
  return server.refusals[lang][refusalKey(text, server)];
}

/** What the person said when they rejected a call at its card ("" when they said nothing). */
export function reviewerMessage(text: string): string {
  const said = REVIEWER.exec(text)?.[1]?.trim() ?? "";
  return UNSAID.has(said) ? "" : said;
}

export function isRejection(text: string): boolean {
  return REVIEWER.test(text);
}

export interface OutcomeLine {
  tool: string;
  status: string;
  detail: string;
}

/** One write of the run: the action by its title, what became of it, and what it did or why it was not done. */
export function outcomeLine(line: OutcomeLine, wording: Wording): string {
  const labels = wording.server.outcome[wording.lang];
  const title = actionTitle(line.tool, wording);
  let text: string;
  if (line.status === "rejected") {
    const said = reviewerMessage(line.detail);
    text = fill(labels.rejected, { title }) + (said ? fill(labels.said, { message: said }) : "");
  } else if (line.status === "refused" || line.status === "failed") {
    text = fill(labels[line.status], { title, reason: refusalText(line.detail, wording) });
  } else {
    // what it did, a sentence of its own: the line's parts are joined by the separator
    text = fill(labels[line.status] ?? labels.executed, { title, detail: line.detail.replace(/[。. ]+$/, "") });
  }
  return wording.lang === "en" ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** The "what actually happened" line after an answer. */
export function outcomeText(outcome: OutcomeLine[], wording: Wording): string {
  const labels = wording.server.outcome[wording.lang];
  if (outcome.length === 0) return labels.title + labels.none;
  return labels.title + outcome.map((line) => outcomeLine(line, wording)).join(labels.sep);
}
