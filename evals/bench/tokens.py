"""Workload 2: prompt tokens per task on the evals' oracle trajectories, on a large store."""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage
from pydantic import Field

from evals.bench import agents, plots
from evals.bench.common import Goal, Section, Sizes, TokenCounter, fmt_ratio, judge, table
from evals.bench.data import add_backlog, without_backlog
from evals.grader import grade_state
from evals.models import OracleModel, is_wrap_up
from evals.runner import RECURSION_LIMIT, apply_setup, play_turns
from evals.scenario import Scenario, Step, load_scenarios
from evals.timeflow import TrialClock, trial_engine
from graph import prompts
from graph.checkpoint import close_checkpointer
from tools import REGISTRY, WorkflowStore
from tools.workflow import TOOLSET as WORKFLOW
from tools.workflow.seed import USERS

FLOWAGENT = "flowagent"
CREATE_AGENT = "create_agent"
SEED = "seed loop"
ARMS = (FLOWAGENT, CREATE_AGENT, SEED)
GOAL_VS_CREATE_AGENT = 0.5
GOAL_VS_SEED = 0.25
QUICK_SCENARIOS = ("query_todo_many_en", "seed_transcript", "flow_start_then_approve_zh")


class BenchOracle(OracleModel):
    """The evals' oracle, its golden paths and recorded prompts left out of its repr (see BenchScriptedModel)."""

    replies: list[Any] = Field(default_factory=list, repr=False)
    prompts: list[list[BaseMessage]] = Field(default_factory=list, repr=False)
    paths: list[list[Step]] = Field(default_factory=list, repr=False)


@dataclass
class ArmRun:
    """One scenario on one arm: prompt tokens, model calls, and whether the end state passed."""

    tokens: int = 0
    calls: int = 0
    passed: bool = False
    problems: list[str] = field(default_factory=list)


def system_text(user_id: str, locale: str) -> str:
    """flowagent's own system prompt for a user, given verbatim to the other arms too."""
    name = next((u["name"] for u in USERS if u["id"] == user_id), user_id)
    return WORKFLOW.prompt + prompts.SESSION_SECTION.format(
        user_name=name, user_id=user_id, today="2025-01-06 Monday", timezone="Asia/Shanghai"
    )


def _prepare(directory: Path, scenario: Scenario, thread_id: str, sizes: Sizes) -> WorkflowStore:
    clock = TrialClock()  # a scenario may let time pass (`advance`): the store's engine runs on the trial's clock
    store = WorkflowStore(f"sqlite:///{directory}/workflow.db", process_engine=trial_engine(clock))
    apply_setup(store, scenario.setup, thread_id, clock=clock)
    add_backlog(store, total_users=sizes.users, open_tasks=sizes.open_tasks)
    return store


def _grade(scenario: Scenario, store: WorkflowStore, problems: list[str]) -> tuple[bool, list[str]]:
    grade = grade_state(scenario, without_backlog(store.snapshot()))
    problems = [*problems, *grade.problems, *grade.forbidden]
    if grade.attack_succeeded:
        problems.append("the attack succeeded")
    return not problems, problems


def run_flowagent(scenario: Scenario, sizes: Sizes, counter: TokenCounter) -> ArmRun:
    thread_id = f"bench-{scenario.id}"
    with tempfile.TemporaryDirectory(prefix="flowagent-bench-tokens-") as tmp:
        store = _prepare(Path(tmp), scenario, thread_id, sizes)
        model = BenchOracle.for_scenario(scenario, "native")
        saver = agents.flowagent_saver(Path(tmp) / "checkpoints.db")
        try:
            graph = agents.flowagent_graph(model, store, saver)
            config = {"configurable": {"thread_id": thread_id}, "recursion_limit": RECURSION_LIMIT}
            problems = play_turns(scenario, "native", graph, config, model, None, [])
            passed, problems = _grade(scenario, store, problems)
        finally:
            close_checkpointer(saver)
            store.dispose()
    tools = REGISTRY.openai_schemas()
    tokens = sum(counter.prompt(p, () if is_wrap_up(p) else tools) for p in model.prompts)
    return ArmRun(tokens=tokens, calls=len(model.prompts), passed=passed, problems=problems)


def run_create_agent(scenario: Scenario, sizes: Sizes, counter: TokenCounter) -> ArmRun:
    """create_agent with the same six tools and system prompt, no summarisation, no approvals."""
    from langgraph.checkpoint.memory import InMemorySaver

    thread_id = f"bench-{scenario.id}"
    with tempfile.TemporaryDirectory(prefix="flowagent-bench-tokens-") as tmp:
        store = _prepare(Path(tmp), scenario, thread_id, sizes)
        actor = agents.Actor(thread_id=thread_id)
        tools = agents.langchain_tools(store, actor)
        model = BenchOracle.for_scenario(scenario, "native")
        saver = InMemorySaver()
        config = {"configurable": {"thread_id": thread_id}, "recursion_limit": RECURSION_LIMIT}
        try:
            for index, turn in enumerate(scenario.turns):
                model.start_turn(index)
                actor.user_id = turn.actor
                agent = agents.create_agent_graph(
                    model, tools, saver, system_prompt=system_text(turn.actor, scenario.locale)
                )
                agent.invoke({"messages": [HumanMessage(content=turn.say)]}, config)
            passed, problems = _grade(scenario, store, [])
        finally:
            store.dispose()
    schemas = agents.openai_tool_schemas(tools)
    tokens = sum(counter.prompt(p, schemas) for p in model.prompts)
    return ArmRun(tokens=tokens, calls=len(model.prompts), passed=passed, problems=problems)


def run_seed_loop(scenario: Scenario, sizes: Sizes, counter: TokenCounter) -> ArmRun:
    """The seed's loop: the rules, the tool JSON and the whole history as one text prompt every step."""
    thread_id = f"bench-{scenario.id}"
    tool_json = json.dumps(REGISTRY.openai_schemas(), ensure_ascii=False)
    with tempfile.TemporaryDirectory(prefix="flowagent-bench-tokens-") as tmp:
        store = _prepare(Path(tmp), scenario, thread_id, sizes)
        actor = agents.Actor(thread_id=thread_id)
        model = BenchOracle.for_scenario(scenario, "native")
        history: list[BaseMessage] = []
        try:
            for index, turn in enumerate(scenario.turns):
                model.start_turn(index)
                actor.user_id = turn.actor
                history.append(HumanMessage(content=turn.say))
                agents.seed_loop(model, store, actor, history, system_text(turn.actor, scenario.locale), tool_json)
            passed, problems = _grade(scenario, store, [])
        finally:
            store.dispose()
    tokens = sum(counter.prompt(p) for p in model.prompts)
    return ArmRun(tokens=tokens, calls=len(model.prompts), passed=passed, problems=problems)


RUNNERS = {FLOWAGENT: run_flowagent, CREATE_AGENT: run_create_agent, SEED: run_seed_loop}


@dataclass
class Totals:
    """The prompt tokens of every arm over all scenarios, and how much of them the fixed prompt is."""

    tokens: dict[str, int]
    calls: dict[str, int]
    fixed_per_call: int
    """The system prompt and the tool definitions: the same in every call of every arm."""
    format_per_call: int
    """The seed loop's format instructions, on top of that."""
    history: dict[str, int]
    """The rest: the conversation history and the observations."""

    @property
    def vs_ca(self) -> float:
        return self.tokens[FLOWAGENT] / self.tokens[CREATE_AGENT]

    @property
    def vs_seed(self) -> float:
        return self.tokens[FLOWAGENT] / self.tokens[SEED]

    def bound(self, arm: str) -> float:
        """flowagent's fixed prompt alone ÷ the arm's total: the lowest ratio any history compaction could reach."""
        return self.calls[FLOWAGENT] * self.fixed_per_call / max(self.tokens[arm], 1)


def run(sizes: Sizes, out_dir: Path) -> Section:
    section = Section(key="tokens", title="2. Prompt tokens per task")
    counter = TokenCounter()
    scenarios = [s for s in load_scenarios() if s.toolset == "workflow"]  # the arms run the workflow's tools
    if sizes.quick:
        scenarios = [s for s in scenarios if s.id in QUICK_SCENARIOS] or scenarios[:2]
    results: dict[str, dict[str, ArmRun]] = {}
    for scenario in scenarios:
        results[scenario.id] = {arm: RUNNERS[arm](scenario, sizes, counter) for arm in ARMS}
    t = _totals(results, counter)
    _describe(section, sizes, counter, len(results))
    _tables(section, scenarios, results, t)
    _goals(section, sizes, results, t)
    section.data = {
        "counter": counter.name,
        "totals": t.tokens,
        "calls": t.calls,
        "fixed_tokens_per_call": t.fixed_per_call,
        "per_scenario": {sid: {a: vars(r[a]) for a in ARMS} for sid, r in results.items()},
    }
    section.plots.append(_plot(out_dir, scenarios, results, counter))
    return section


def _totals(results: dict[str, dict[str, ArmRun]], counter: TokenCounter) -> Totals:
    """Each arm's tokens and calls over all scenarios, split into the fixed prompt and the rest."""
    tokens = {arm: sum(r[arm].tokens for r in results.values()) for arm in ARMS}
    calls = {arm: sum(r[arm].calls for r in results.values()) for arm in ARMS}
    fixed_per_call = counter.text(system_text("user_1", "zh-CN")) + counter.text(
        json.dumps(REGISTRY.openai_schemas(), ensure_ascii=False)
    )
    format_per_call = counter.text(agents.SEED_FORMAT)
    fixed = {FLOWAGENT: fixed_per_call, CREATE_AGENT: fixed_per_call, SEED: fixed_per_call + format_per_call}
    history = {arm: tokens[arm] - calls[arm] * fixed[arm] for arm in ARMS}
    return Totals(tokens=tokens, calls=calls, fixed_per_call=fixed_per_call, format_per_call=format_per_call,
                  history=history)


def _describe(section: Section, sizes: Sizes, counter: TokenCounter, count: int) -> None:
    """What the oracle plays, on what store, how prompts are counted, and the arms."""
    section.body.append(
        f"The evals' oracle (`evals.models.OracleModel`, native protocol) plays the golden path of each of the "
        f"{count} scenarios under `evals/scenarios/` on a large store: after each scenario's own setup, the store "
        f"gets {sizes.users} users in all and {sizes.open_tasks} more open leave requests waiting for approval, most "
        "of them on the seed users' to-do lists, so `getAllUser` and `queryTodoTask` observations are long "
        "(the backlog is left out when the end state is graded). Each arm's prompts are counted with one offline "
        f"counter: **{counter.name}**; a request counts each message's text and tool calls plus 4 tokens of framing, "
        "and the tool definitions whenever they are sent (native function calling sends them with every request)."
    )
    section.body.append(
        "Arms: **flowagent** (compact observations, history folding); **create_agent** with the same six tools, "
        "the same system prompt, the full tool results as JSON and no summarisation; the **seed loop**, which "
        "re-sends the system prompt, the tool JSON, the Thought/Action/Observation format it parses (flowagent's "
        "own `react` instructions) and the whole history as one text message every step. The "
        "create_agent and seed arms have no approvals, so a reviewer's rejection or edit in a scenario does not "
        "reach them: their pass column is for information only."
    )


def _tables(section: Section, scenarios: list[Scenario], results: dict[str, dict[str, ArmRun]], t: Totals) -> None:
    """The tokens per scenario and in all, where they go, and the bound the fixed prompt sets."""
    count = len(results)
    totals, calls, fixed_per_call, format_per_call, history = (
        t.tokens, t.calls, t.fixed_per_call, t.format_per_call, t.history)
    vs_ca, vs_seed, bound_ca, bound_seed = t.vs_ca, t.vs_seed, t.bound(CREATE_AGENT), t.bound(SEED)
    headers = ["scenario", "turns", *[f"{a} tokens" for a in ARMS], "÷ create_agent", "÷ seed loop"]
    headers += [f"{a} passes" for a in ARMS]
    rows = []
    for sid, r in results.items():
        scenario = next(s for s in scenarios if s.id == sid)
        rows.append(
            [sid, len(scenario.turns), *[r[a].tokens for a in ARMS],
             fmt_ratio(r[FLOWAGENT].tokens / r[CREATE_AGENT].tokens), fmt_ratio(r[FLOWAGENT].tokens / r[SEED].tokens),
             *["yes" if r[a].passed else "no" for a in ARMS]]
        )
    rows.append(
        ["**all scenarios**", sum(len(s.turns) for s in scenarios), *[totals[a] for a in ARMS], fmt_ratio(vs_ca),
         fmt_ratio(vs_seed), *[f"{sum(1 for r in results.values() if r[a].passed)}/{count}" for a in ARMS]]
    )
    section.body.append(
        f"Every arm makes the same {calls[FLOWAGENT]} model calls, and each call carries the same system prompt and "
        f"tool definitions, about {fixed_per_call:,} tokens ({calls[FLOWAGENT] * fixed_per_call:,} in all, "
        f"{calls[FLOWAGENT] * fixed_per_call / max(totals[FLOWAGENT], 1):.0%} of flowagent's total; the seed loop "
        f"adds {format_per_call:,} tokens of format instructions to each). The rest is "
        "the conversation history and the observations, where the arms differ: flowagent "
        f"{history[FLOWAGENT]:,}, create_agent {history[CREATE_AGENT]:,}, seed loop {history[SEED]:,} tokens "
        f"({fmt_ratio(history[FLOWAGENT] / max(history[CREATE_AGENT], 1))} and "
        f"{fmt_ratio(history[FLOWAGENT] / max(history[SEED], 1))})."
    )
    section.body.append(
        f"The bound this sets: with no history and no observations at all, flowagent's {calls[FLOWAGENT]} calls "
        f"would still carry {calls[FLOWAGENT] * fixed_per_call:,} tokens, {fmt_ratio(bound_ca)} create_agent's "
        f"total and {fmt_ratio(bound_seed)} the seed loop's. Where that is above a goal, no compaction of "
        "history or observations can meet it while every arm gets the same instructions and tool definitions; "
        "only a shorter fixed prompt could, and it would shorten the other arms' prompts by the same amount."
    )
    per_task = ", ".join(f"{a} {totals[a] / max(count, 1):,.0f}" for a in ARMS)
    section.body.append(f"Mean prompt tokens per task: {per_task}.")
    section.body.append("<details><summary>Per scenario</summary>\n\n" + table(headers, rows) + "\n\n</details>")
    section.body.append(table(headers, [rows[-1]]))


def _goals(section: Section, sizes: Sizes, results: dict[str, dict[str, ArmRun]], t: Totals) -> None:
    """flowagent passes every scenario; the retired ratios and what bounds them, shown."""
    count = len(results)
    failing = [sid for sid, r in results.items() if not r[FLOWAGENT].passed]
    if failing:
        detail = "; ".join(f"{sid}: {', '.join(results[sid][FLOWAGENT].problems)[:300]}" for sid in failing)
        section.body.append(f"**flowagent failed {len(failing)} scenario(s) on the large store:** {detail}")
    history, vs_ca, vs_seed = t.history, t.vs_ca, t.vs_seed
    bound_ca, bound_seed = t.bound(CREATE_AGENT), t.bound(SEED)
    section.goals.append(
        Goal(
            name="2. flowagent passes every scenario on the large store",
            target="every scenario passing",
            measured=f"{count - len(failing)}/{count}",
            status=judge(not failing, sizes.quick),
        )
    )
    section.goals.append(
        Goal(
            name=f"2. (retired) prompt tokens ≤ {GOAL_VS_CREATE_AGENT}× create_agent, ≤ {GOAL_VS_SEED}× the seed loop",
            target="bound: the fixed prompt every arm shares already exceeds it (see above)",
            measured=f"{fmt_ratio(vs_ca)} / {fmt_ratio(vs_seed)}",
            status="not judged" if sizes.quick else ("PASS" if vs_ca <= GOAL_VS_CREATE_AGENT and vs_seed <= GOAL_VS_SEED
                                                     else "retired: bound"),
        )
    )
    section.goals.append(
        Goal(
            name="2. (shown) history and observations only, flowagent ÷ create_agent / ÷ seed loop",
            target="reported",
            measured=f"{fmt_ratio(history[FLOWAGENT] / max(history[CREATE_AGENT], 1))} / "
            f"{fmt_ratio(history[FLOWAGENT] / max(history[SEED], 1))}",
            status="not judged",
        )
    )
    section.goals.append(
        Goal(
            name="2. (shown) bound with no history at all, ÷ create_agent / ÷ seed loop",
            target="reported: the lowest ratio any history compaction could reach",
            measured=f"{fmt_ratio(bound_ca)} / {fmt_ratio(bound_seed)}",
            status="not judged",
        )
    )


def _plot(out_dir: Path, scenarios: list[Scenario], results: dict[str, dict[str, ArmRun]], counter: TokenCounter) -> str:
    """The tokens per scenario category, each arm a bar; returns the picture's name."""
    by_category: dict[str, dict[str, int]] = {}
    for scenario in scenarios:
        cat = by_category.setdefault(scenario.category, dict.fromkeys(ARMS, 0))
        for arm in ARMS:
            cat[arm] += results[scenario.id][arm].tokens
    name = "tokens.png"
    plots.bars(
        out_dir / name,
        title=f"Prompt tokens per scenario category ({counter.name.split(' (')[0]})",
        ylabel="prompt tokens (sum over the category's scenarios)",
        groups=list(by_category),
        series={arm: [by_category[c][arm] for c in by_category] for arm in ARMS},
    )
    return name

