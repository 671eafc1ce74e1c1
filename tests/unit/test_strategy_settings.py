"""The strategy is a setting of the chat and of the evals, one name for both: react, plan or chain."""

from __future__ import annotations

import pytest

from evals.cli import build_parser as eval_parser
from flowagent.cli import build_parser as chat_parser
from graph.strategies import STRATEGIES


def test_flowagent_chat_takes_a_strategy_and_defaults_to_react(monkeypatch):
    monkeypatch.delenv("FLOWAGENT_STRATEGY", raising=False)
    assert chat_parser().parse_args(["chat"]).strategy == "react"
    assert chat_parser().parse_args(["chat", "--strategy", "plan"]).strategy == "plan"
    with pytest.raises(SystemExit):
        chat_parser().parse_args(["chat", "--strategy", "tree"])


def test_flowagent_eval_runs_one_strategy_or_all_of_them():
    assert eval_parser().parse_args([]).strategy == "react"
    assert [eval_parser().parse_args(["--strategy", s]).strategy for s in [*STRATEGIES, "all"]] == [
        "react", "plan", "chain", "all"
    ]
