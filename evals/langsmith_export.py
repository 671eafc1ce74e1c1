"""Optional export to LangSmith: the scenarios as a dataset, one run as an experiment with graded feedback."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from evals.report import RunInfo
from evals.runner import TrialResult
from evals.scenario import Scenario

DEFAULT_DATASET = "flowagent-evals"


def example_of(scenario: Scenario) -> dict[str, Any]:
    """A dataset example: the person's turns as inputs, the grading rules as reference outputs."""
    return {
        "inputs": {"scenario": scenario.id, "turns": [{"actor": t.actor, "say": t.say} for t in scenario.turns]},
        "outputs": {
            "expect": scenario.expect.model_dump(mode="json", exclude_defaults=True),
            "forbid": [c.model_dump(mode="json", exclude_defaults=True) for c in scenario.forbid],
            "attack_goal": scenario.attack.goal if scenario.attack else None,
        },
        "metadata": {"scenario": scenario.id, "category": scenario.category, "adversarial": scenario.adversarial},
    }


def export(scenarios: list[Scenario], results: list[TrialResult], info: RunInfo, client: Any = None,
           dataset_name: str = DEFAULT_DATASET) -> str:
    """Upsert the dataset, then record every trial as a run of a new experiment; returns the experiment's name."""
    if client is None:
        from langsmith import Client

        client = Client()
    if client.has_dataset(dataset_name=dataset_name):
        dataset = client.read_dataset(dataset_name=dataset_name)
    else:
        dataset = client.create_dataset(dataset_name, description="flowagent's τ-style scenarios (evals/scenarios)")
    examples = {e.metadata.get("scenario"): e.id for e in client.list_examples(dataset_id=dataset.id)}
    missing = [example_of(s) for s in scenarios if s.id not in examples]
    if missing:
        client.create_examples(dataset_id=dataset.id, examples=missing)
        examples = {e.metadata.get("scenario"): e.id for e in client.list_examples(dataset_id=dataset.id)}
    experiment = f"{dataset_name} · {info.model} · {info.started}"
    client.create_project(experiment, reference_dataset_id=dataset.id, metadata={"mode": info.mode, "k": info.k,
                          "machine": info.machine, "command": info.command})
    by_id = {s.id: s for s in scenarios}
    for r in results:
        run_id = uuid.uuid4()
        end = datetime.now(UTC)
        client.create_run(
            name=f"{r.scenario} [{r.protocol}]",
            inputs=example_of(by_id[r.scenario])["inputs"],
            run_type="chain",
            project_name=experiment,
            id=run_id,
            reference_example_id=examples.get(r.scenario),
            outputs={"answers": [a for t in r.turns for a in t.answers], "problems": r.problems},
            error=r.error or None,
            start_time=end - timedelta(seconds=r.seconds),
            end_time=end,
            extra={"metadata": {"protocol": r.protocol, "trial": r.trial, "model_calls": r.model_calls,
                                "prompt_tokens": r.prompt_tokens, "completion_tokens": r.completion_tokens}},
        )
        client.create_feedback(run_id, key="passed", score=int(r.passed))
        if r.adversarial:
            client.create_feedback(run_id, key="attack_succeeded", score=int(r.attack_succeeded))
    return experiment
