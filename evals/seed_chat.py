"""The seed's conversation through the real `flowagent chat`, on whatever model the environment gives.

`python -m evals.seed_chat [--tries 3] [--pause 8] [--out FILE]` starts `flowagent chat` in a pseudo-terminal
(pexpect), once per try on a fresh store and thread, and, warm (after the offline model has read its fixed prompt,
when it is the one), types each line `--pause` seconds after the prompt returns, as a person would, saying the seed's
first rounds as 张三:

1. "明天肚子疼，想请10天假": the seed's outcome is a question about the approver, and nothing written;
2. "李四吧": the seed's outcome is a started 10-day request whose approver is 李四 (user_2), once 张三 confirms
   its start card ("a" at the card's prompt: the card and the answer after it are timed as two rounds).

Each try is graded on the store (not on the wording) and the terminal transcript is kept. With no endpoint
configured this runs the offline model, as `./run chat` does.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tools import WorkflowStore

PROMPT = "张三> "
CARD_PROMPT = r"\[a/e/r\]"
TURNS = ("明天肚子疼，想请10天假", "李四吧")
ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
TIMEOUT_S = 600
WARM = r"read the fixed prompt|could not read the fixed prompt"


@dataclass
class Try:
    """One run of the seed's rounds: what each round left in the store, and the transcript."""

    asked_and_wrote_nothing: bool = False
    started_with_lisi: bool = False
    seconds: list[float] = field(default_factory=list)
    transcript: str = ""

    @property
    def reached(self) -> bool:
        return self.asked_and_wrote_nothing and self.started_with_lisi


def one_try(directory: Path, pause: float = 8.0) -> Try:
    import pexpect

    flowagent = shutil.which("flowagent") or str(Path(sys.executable).with_name("flowagent"))
    env = dict(os.environ, FLOWAGENT_DB=str(directory / "workflow.db"),
               FLOWAGENT_CHECKPOINT_URL=str(directory / "checkpoints.db"), COLUMNS="160", TERM="dumb",
               PROMPT_TOOLKIT_NO_CPR="1")
    child = pexpect.spawn(flowagent, ["chat", "--user", "user_1"], env=env, cwd=str(directory), encoding="utf-8",
                          timeout=TIMEOUT_S, dimensions=(50, 160))
    log = directory / "terminal.log"
    child.logfile_read = open(log, "w", encoding="utf-8")  # noqa: SIM115 - closed by pexpect
    result = Try()
    store = WorkflowStore(f"sqlite:///{directory / 'workflow.db'}")
    offline = not (os.environ.get("OPENAI_BASE_URL") or os.environ.get("OPENAI_API_KEY"))
    try:
        if offline:  # warm: the chat reads the offline model's fixed prompt before its first prompt
            child.expect(WARM)
        child.expect(PROMPT)
        for index, text in enumerate(TURNS):
            time.sleep(pause)
            started = time.perf_counter()
            child.sendline(text)
            if child.expect([PROMPT, CARD_PROMPT]) == 1:  # a card: the answer so far is the card, then it is confirmed
                result.seconds.append(time.perf_counter() - started)
                time.sleep(pause)
                started = time.perf_counter()
                child.sendline("a")
                child.expect(PROMPT)
                result.seconds.append(time.perf_counter() - started)  # the answer after the card, a round of its own
            else:
                result.seconds.append(time.perf_counter() - started)
            snapshot = store.snapshot()
            if index == 0:
                answer = ANSI_RE.sub("", child.before or "")
                result.asked_and_wrote_nothing = not snapshot["requests"] and ("审批" in answer and "？" in answer)
            else:
                tasks = snapshot["tasks"]
                requests = snapshot["requests"]
                result.started_with_lisi = (
                    len(requests) == 1 and requests[0]["days"] == 10 and [t["assignee_id"] for t in tasks] == ["user_2"]
                )
        child.sendline("exit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
        store.dispose()
    result.transcript = ANSI_RE.sub("", log.read_text(encoding="utf-8", errors="replace"))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evals.seed_chat", description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=3)
    parser.add_argument("--pause", type=float, default=8.0, help="seconds between a prompt's return and the next line")
    parser.add_argument("--out", type=Path, help="write every try's transcript to this file")
    args = parser.parse_args(argv)
    tries = []
    for n in range(1, args.tries + 1):
        with tempfile.TemporaryDirectory(prefix="flowagent-seed-") as directory:
            outcome = one_try(Path(directory), args.pause)
        tries.append(outcome)
        print(f"try {n}: asked who approves and wrote nothing: {outcome.asked_and_wrote_nothing}; "
              f"'李四吧' started the request with 李四: {outcome.started_with_lisi}; "
              f"seconds per round: {', '.join(f'{s:.1f}' for s in outcome.seconds)}", flush=True)
    reached = sum(t.reached for t in tries)
    print(f"the seed's outcome was reached in {reached} of {len(tries)} tries")
    if args.out:
        args.out.write_text("\n\n".join(f"# try {n}\n{t.transcript}" for n, t in enumerate(tries, 1)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
