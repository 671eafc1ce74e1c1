"""`flowagent leave allocate | import | show` (the workflow's own subcommand) and the balance question's read tool:
allocations with their history, an import refused whole naming its line, and "我还有几天年假？" answered from the store
with no write."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from flowagent.cli import main
from tools import DomainError, WorkflowStore, execute_call
from tools.workflow import TOOLSET
from tools.workflow.leave.specs import described

YEAR = date.today().year


def balances(db: Path, user: str) -> dict[tuple[str, int], tuple[float, float, float]]:
    store = WorkflowStore(f"sqlite:///{db}")
    try:
        return {(r["leave_type"], r["year"]): (r["allocated"], r["held"], r["used"])
                for r in store.snapshot()["leave_balances"] if r["user_id"] == user}
    finally:
        store.dispose()


def test_an_allocation_is_set_by_name_or_id_and_its_history_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("COLUMNS", "300")
    db = tmp_path / "wf.db"
    assert main(["leave", "allocate", "张三", "annual", "12", "--year", str(YEAR), "--note", "5 years", "--db", str(db)]) == 0
    assert capsys.readouterr().out.strip() == f"user_1 年假 (annual) {YEAR}: allocated 12, held 0, used 0, left 12"
    assert balances(db, "user_1")[("年假", YEAR)] == (12, 0, 0)
    assert main(["leave", "show", "user_1", "--db", str(db)]) == 0
    shown = capsys.readouterr().out
    assert "Leave balances of user_1" in shown and "5 years" in shown and "seed" in shown


def test_a_type_with_no_balance_or_an_unknown_person_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    db = tmp_path / "wf.db"
    assert main(["leave", "allocate", "user_1", "事假", "5", "--db", str(db)]) == 2
    assert "not counted against a balance" in " ".join(capsys.readouterr().out.split())
    assert main(["leave", "allocate", "user_1", "holiday", "5", "--db", str(db)]) == 2
    assert "no leave type 'holiday'" in " ".join(capsys.readouterr().out.split())
    assert main(["leave", "allocate", "nobody", "年假", "5", "--db", str(db)]) == 2


def test_an_import_sets_every_row_or_none_naming_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    db, good, bad = tmp_path / "wf.db", tmp_path / "good.csv", tmp_path / "bad.csv"
    good.write_text(f"user,type,year,days,note\nuser_2,年假,{YEAR},8,promotion\n李四,compensatory,{YEAR},2\n",
                    encoding="utf-8")
    assert main(["leave", "import", str(good), "--db", str(db)]) == 0
    # the console wraps a long path anywhere: compared without the spaces it puts in
    assert "".join(capsys.readouterr().out.split()) == "".join(f"imported 2 allocations from {good}".split())
    assert balances(db, "user_2")[("年假", YEAR)] == (8, 0, 0)
    assert balances(db, "user_2")[("调休", YEAR)] == (2, 0, 0)
    bad.write_text(f"user,type,year,days\nuser_3,年假,{YEAR},9\nuser_3,年假,{YEAR},2.3\n", encoding="utf-8")
    assert main(["leave", "import", str(bad), "--db", str(db)]) == 2
    assert "line 3" in " ".join(capsys.readouterr().out.split())
    assert balances(db, "user_3")[("年假", YEAR)] == (7, 0, 0)  # the seed's: line 2 was not kept either


def test_the_balance_question_reads_the_store_and_writes_nothing(store, make_ctx):
    before = store.snapshot()
    result = execute_call(TOOLSET, "getLeaveBalance", {}, make_ctx("user_1"))
    assert store.snapshot() == before
    assert result["balances"][0] == {"type": "年假", "year": YEAR, "left": 10.0, "allocated": 10.0, "pending": 0.0,
                                     "used": 0.0}
    assert described(result, "zh").startswith(f"你 {YEAR} 年的假期余额：年假剩余 10 天（共 10 天，审批中 0 天，已用 0 天）")
    english = execute_call(TOOLSET, "getLeaveBalance", {}, make_ctx("user_2", lang="en"))
    assert described(english, "en").startswith(f"Your leave balance for {YEAR}: annual leave: 5 days left")


def test_the_balance_question_is_only_ever_about_the_signed_in_user(store, make_ctx):
    with pytest.raises(DomainError):
        execute_call(TOOLSET, "getLeaveBalance", {"userId": "user_2"}, make_ctx("user_1"))
