"""The eval suite in CI: the oracle scores pass^k = 1.0 and the compromised model never reaches its goal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from evals.metrics import summarize
from evals.models import CompromisedModel, OracleModel
from evals.runner import TrialResult, run_suite
from evals.scenario import load_scenarios
from state.context import Protocol

PROTOCOLS: list[Protocol] = ["native", "react", "json"]
FLOWAGENT_EVAL = str(Path(sys.executable).with_name("flowagent-eval"))


def describe(results: list[TrialResult], *, attack_only: bool = False) -> str:
    """The failing trials, one line each (for the compromised model: only attacks, guards and crashes)."""
    lines = []
    for r in sorted(results, key=lambda r: (not r.crashed, r.passed)):  # crashes, then failures: the 40 lines shown
        broken = r.crashed or r.attack_succeeded or r.guard_hit is False
        if broken or (not attack_only and not r.passed):
            reasons = [*r.problems, *r.forbidden, r.error.splitlines()[0] if r.error else ""]
            lines.append(f"{r.scenario} [{r.protocol} #{r.trial}] attack succeeded={r.attack_succeeded} "
                         f"guard seen={r.guard_hit}: " + "; ".join(x for x in reasons if x)[:300])
    return "\n".join(lines[:40])


def test_oracle_scores_pass_hat_k_one_on_every_protocol() -> None:
    # Every scenario on the native protocol, a third of them twice: a second trial on a fresh store gives what the first
    # gave (nothing leaks between trials). Every scenario twice there took 32 s more of CI's 15 minutes (twice on all
    # three protocols, 173 s) for no other finding. The scenarios the project wrote run on react and json too; the
    # held-out rounds' (1,050 of 1,242 at ho42) run on those under plan, each on one protocol in turn
    # (test_evals_strategies.py): in the 51 runs of the oracle on all three protocols kept on this machine (to
    # 2026-12-06), no scenario ever failed on one protocol but not on all, and the held-out set on react and json
    # too was 2,100 trials, about 40 % of the oracle's share of CI.
    scenarios = load_scenarios()
    twice = scenarios[::3]
    ours = [s for s in scenarios if "heldout" not in s.tags]
    for chosen, protocols, k in ((twice, PROTOCOLS[:1], 2), (scenarios[1::3] + scenarios[2::3], PROTOCOLS[:1], 1),
                                 (ours, PROTOCOLS[1:], 1)):
        results = run_suite(chosen, protocols, k, OracleModel.for_scenario, jobs=2, processes=True)
        summaries = summarize(results, k)
        assert [s.protocol for s in summaries] == protocols
        for s in summaries:
            scores = (s.pass_hat, s.utility, s.utility_under_attack, s.attack_success, s.crashes, s.trials)
            assert scores == ({n: 1.0 for n in range(1, k + 1)}, 1.0, 1.0, 0.0, 0, k * len(chosen)), describe(results)


def test_trials_in_worker_processes_give_what_one_process_gives() -> None:
    scenarios = [s for s in load_scenarios() if s.id.startswith(("seed_r1_", "adv_self_approval", "adv_fake_"))]
    assert len(scenarios) >= 3
    alone = run_suite(scenarios, ["json"], 1, CompromisedModel.for_scenario)
    seen: list[str] = []
    pooled = run_suite(scenarios, ["json"], 1, CompromisedModel.for_scenario, jobs=2, processes=True,
                       progress=lambda r: seen.append(r.scenario))
    outcome = [(r.scenario, r.passed, r.attack_succeeded, r.guard_hit, r.problems) for r in alone]
    assert [(r.scenario, r.passed, r.attack_succeeded, r.guard_hit, r.problems) for r in pooled] == outcome
    assert seen == [r.scenario for r in alone]


def test_compromised_model_never_reaches_its_goal_and_never_crashes() -> None:
    scenarios = [s for s in load_scenarios() if s.adversarial]
    results = run_suite(scenarios, PROTOCOLS, 1, CompromisedModel.for_scenario, jobs=2, processes=True)
    assert len(results) == 3 * len(scenarios)
    for s in summarize(results, 1):
        # unguarded: the refusal the scenario names never happened, i.e. the attack was not really tried and stopped
        outcome = (s.protocol, s.attack_success, s.attacks_succeeded, s.crashes, s.unguarded)
        assert outcome == (s.protocol, 0.0, [], 0, []), describe(results, attack_only=True)


def test_flowagent_eval_and_python_m_evals_run_the_eval_command(tmp_path: Path) -> None:
    for command in ([FLOWAGENT_EVAL], [sys.executable, "-m", "evals"]):
        done = subprocess.run([*command, "--list", "--scenario", "seed_r1_"], capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("seed_r1_capabilities ") and "1 scenarios (1 benign, 0 adversarial)" in done.stdout
        bad = subprocess.run([*command, "--subset", "nope"], capture_output=True, text=True, timeout=120, check=False)
        assert bad.returncode == 2 and bad.stderr.startswith("flowagent-eval: no subset 'nope' (known: "), bad.stderr

    # --jobs runs the scripted oracle's trials in worker processes started from the command itself
    out = tmp_path / "report"
    pooled = subprocess.run([FLOWAGENT_EVAL, "--oracle", "--scenario", "seed_r1*", "--protocol", "json", "-k", "2",
                             "--jobs", "2", "--out", str(out), "--check"], capture_output=True, text=True, timeout=300,
                            check=False)
    assert pooled.returncode == 0, pooled.stderr
    assert "| pass^2 | 1.000 |" in (out / "report.md").read_text(encoding="utf-8")
