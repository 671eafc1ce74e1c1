"""The local server's environment and the timings read from its log (no server is started here)."""

from __future__ import annotations

import pytest

from flowagent.models.local.errors import LocalModelError
from flowagent.models.local.server import LOOKUP_DRAFT_ENV, _draft_args, lookup_draft_tokens, server_environment
from flowagent.models.local.timings import parse_timings


def test_the_server_spins_briefly_at_barriers_unless_told_otherwise() -> None:
    assert server_environment({"PATH": "/bin"}) == {"PATH": "/bin", "GOMP_SPINCOUNT": "10000"}
    for mine in ({"OMP_WAIT_POLICY": "ACTIVE"}, {"GOMP_SPINCOUNT": "300000"}):
        assert server_environment(mine) == mine


def test_tokens_are_guessed_ahead_unless_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(LOOKUP_DRAFT_ENV, raising=False)
    assert lookup_draft_tokens() == 4
    assert _draft_args(4) == ["--logits_all", "true", "--draft_model", "prompt-lookup-decoding",
                              "--draft_model_num_pred_tokens", "4"]
    monkeypatch.setenv(LOOKUP_DRAFT_ENV, " 0 ")
    assert lookup_draft_tokens() == 0
    assert _draft_args(0) == ["--logits_all", "false"]  # only the last token's logits, as before
    monkeypatch.setenv(LOOKUP_DRAFT_ENV, "6")
    assert lookup_draft_tokens() == 6


@pytest.mark.parametrize("bad", ["four", "-1", "2.5"])
def test_a_guess_count_that_is_no_whole_number_says_what_to_set(monkeypatch: pytest.MonkeyPatch, bad: str) -> None:
    monkeypatch.setenv(LOOKUP_DRAFT_ENV, bad)
    with pytest.raises(LocalModelError, match=rf"FLOWAGENT_LOOKUP_DRAFT='{bad}' is not a whole number.*0 turns"):
        lookup_draft_tokens()


# Lines of a real llama-cpp-python 0.3.36 server log (SmolLM2, three identical 1-token requests, then a
# request whose report was still being written when the log was read).
REAL_LOG = """\
llama_perf_context_print:        load time =    7810.60 ms
llama_perf_context_print: prompt eval time =    7810.29 ms /    38 tokens (  205.53 ms per token,     4.87 tokens per second)
llama_perf_context_print:        eval time =       0.00 ms /     1 runs   (    0.00 ms per token,      inf tokens per second)
llama_perf_context_print:       total time =    7811.38 ms /    39 tokens
llama_perf_context_print:    graphs reused =          0
INFO:     127.0.0.1:49930 - "POST /v1/chat/completions HTTP/1.1" 200 OK
Llama.generate: full prompt already cached, skipping reset
llama_perf_context_print:        load time =    7810.60 ms
llama_perf_context_print: prompt eval time =       0.00 ms /     1 tokens (    0.00 ms per token,      inf tokens per second)
llama_perf_context_print:        eval time =       0.00 ms /     1 runs   (    0.00 ms per token,      inf tokens per second)
llama_perf_context_print:       total time =       0.83 ms /     2 tokens
llama_perf_context_print:    graphs reused =          0
INFO:     127.0.0.1:49930 - "POST /v1/chat/completions HTTP/1.1" 200 OK
Llama.generate: 235 prefix-match hit, remaining 43 prompt tokens to eval
llama_perf_context_print:        load time =    7810.60 ms
llama_perf_context_print: prompt eval time =    3326.32 ms /    43 tokens (   77.36 ms per token,    12.93 tokens per second)
llama_perf_context_print:        eval time =    1059.56 ms /     5 runs   (  211.91 ms per token,     4.72 tokens per second)
llama_perf_context_print:       total time =    4387.01 ms /    48 tokens
llama_perf_context_print:    graphs reused =          4
INFO:     127.0.0.1:49930 - "POST /v1/chat/completions HTTP/1.1" 200 OK
Llama.generate: 12 prefix-match hit, remaining 300 prompt tokens to eval
llama_perf_context_print:        load time =    7810.60 ms
llama_perf_context_print: prompt eval time =    9000.00 ms /   300 tokens (   30.00 ms per token,    33.33 tokens per second)
"""


def test_the_timings_parser_on_real_log_lines() -> None:
    assert [r.as_dict() for r in parse_timings(REAL_LOG)] == [
        {"prompt_tokens_read": 38, "prompt_ms": 7810.29, "generated_tokens": 0, "generation_ms": 0.0, "prefix_hit": 0,
         "cut": False},
        # llama.cpp prints "1 tokens" and "1 runs" when there were none.
        {"prompt_tokens_read": 0, "prompt_ms": 0.0, "generated_tokens": 0, "generation_ms": 0.0, "prefix_hit": None,
         "cut": False},
        {"prompt_tokens_read": 43, "prompt_ms": 3326.32, "generated_tokens": 5, "generation_ms": 1059.56,
         "prefix_hit": 235, "cut": False},
    ]  # the last request's report is incomplete, so it is not counted yet
    assert parse_timings("") == []


# A stream the client closed at the complete call (llama-cpp-python 0.3.36, Qwen, 2026-12-01), then a request
# that ended on its own and whose client closed only after it was done.
CUT_LOG = """\
Llama.generate: 1150 prefix-match hit, remaining 128 prompt tokens to eval
disconnected
Disconnected from client (via refresh/close) Address(host='127.0.0.1', port=33536)
Llama.generate: 1080 prefix-match hit, remaining 53 prompt tokens to eval
llama_perf_context_print: prompt eval time =    1340.11 ms /    53 tokens (   25.29 ms per token,    39.55 tokens per second)
llama_perf_context_print:        eval time =    8259.13 ms /    20 runs   (  412.96 ms per token,     2.42 tokens per second)
llama_perf_context_print:       total time =    9600.00 ms /    73 tokens
disconnected
Disconnected from client (via refresh/close) Address(host='127.0.0.1', port=50578)
"""


def test_a_request_cut_by_its_client_is_a_record_with_only_the_prompt_tokens_read() -> None:
    cut, ended = parse_timings(CUT_LOG)
    assert (cut.cut, cut.prompt_tokens_read, cut.prefix_hit, cut.generated_tokens) == (True, 128, 1150, 0)
    assert cut.prompt_ms != cut.prompt_ms  # NaN: llama.cpp printed no counters
    assert (ended.cut, ended.prompt_tokens_read, ended.generated_tokens) == (False, 53, 20)
