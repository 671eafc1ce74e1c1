"""Leave balances on a real PostgreSQL server: two requests started at once against one balance, each on its own
thread, connection and transaction, both past every check before either holds its days; the balance's conditional
update gives the days to one and refuses the other, naming the balance."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from graph.calls import new_call_id
from tests.support.leave import assert_one_got_the_days, start_two_at_once
from tests.support.postgres import PostgresServer
from tools import CallContext, WorkflowStore, execute_call
from tools.workflow import TOOLSET

pytestmark = pytest.mark.e2e


@pytest.fixture
def pg_store(postgres: PostgresServer) -> Iterator[WorkflowStore]:
    store = WorkflowStore(postgres.url(postgres.create_database("leave")))
    yield store
    store.dispose()


@pytest.mark.parametrize("meet", [True, False], ids=["both-checked-first", "free-race"])
def test_two_requests_at_once_cannot_overdraw_a_postgres_balance(pg_store, monkeypatch, meet):
    # 李四 has 5 days of annual leave; 3 + 3 is more
    results = start_two_at_once(pg_store, "user_2", (3, 3), monkeypatch, meet=meet)
    assert_one_got_the_days(pg_store, results, "user_2", allocated=5, held=3)


def test_a_rejection_gives_the_days_back_on_postgres(pg_store, monkeypatch):
    results = start_two_at_once(pg_store, "user_2", (5, 1), monkeypatch, meet=True)
    filed = next(r for r in results if isinstance(r, dict))
    execute_call(TOOLSET, "handleTodoTask", {"taskId": filed["taskId"], "isOK": False, "result": "项目上线，换个时间"},
                 CallContext(backend=pg_store, actor_id="user_3", thread_id="t-reject", call_id=new_call_id()))
    [row] = [r for r in pg_store.snapshot()["leave_balances"] if r["user_id"] == "user_2" and r["leave_type"] == "年假"
             and r["year"] == filed["leave"]["year"]]
    assert (row["allocated"], row["held"], row["used"]) == (5, 0, 0)


def test_a_persons_language_is_kept_with_their_writes_on_postgres(pg_store):
    """PostgreSQL's own upsert (`ON CONFLICT DO UPDATE`): the latest write's language wins, in one row."""
    from tools.workflow.languages import languages_of

    for lang, day in (("en", "2027-01-11"), ("zh", "2027-01-18")):
        execute_call(TOOLSET, "setDeputy", {"deputyUserId": "user_4", "startDate": day, "endDate": day},
                     CallContext(backend=pg_store, actor_id="user_2", thread_id="t-lang", call_id=new_call_id(),
                                 lang=lang))
        with pg_store.read() as conn:
            assert languages_of(conn, ["user_2"]) == {"user_2": lang}
    assert [r["user_id"] for r in pg_store.snapshot()["user_languages"]] == ["user_2"]
