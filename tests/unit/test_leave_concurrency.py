"""Two leave requests started at once against one balance, on a real SQLite file, each on its own thread and
connection: the balance is never overdrawn (one is filed, the other refused naming the balance)."""

from __future__ import annotations

import pytest

from tests.support.leave import assert_one_got_the_days, start_two_at_once


@pytest.mark.parametrize("days", [(3, 3), (5, 1), (4.5, 1)])
def test_two_requests_at_once_cannot_overdraw_a_sqlite_balance(store, monkeypatch, days):
    # 李四 has 5 days of annual leave: the two together need more than that
    results = start_two_at_once(store, "user_2", days, monkeypatch, meet=False)
    filed = next(r for r in results if isinstance(r, dict))
    assert_one_got_the_days(store, results, "user_2", allocated=5, held=filed["leave"]["days"])
