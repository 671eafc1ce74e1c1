"""`tools.kept.KeptMap`: the bounded, expiring map behind the graph's kept actors, checked reads, known records and
thread indexes."""

from __future__ import annotations

import threading

from tools.kept import KeptMap


def test_a_value_is_kept_until_it_expires(monkeypatch):
    now = [100.0]
    monkeypatch.setattr("tools.kept.time.monotonic", lambda: now[0])
    kept: KeptMap[str, int] = KeptMap(8, ttl_s=5)
    kept.put("a", 1)
    now[0] += 5
    assert kept.get("a") == 1
    now[0] += 0.1
    assert kept.get("a") is None and kept.take("a") is None
    kept.put("a", 2)  # put again: kept anew
    assert kept.get("a") == 2


def test_take_hands_a_value_over_once():
    kept: KeptMap[str, int] = KeptMap(8, ttl_s=5)
    kept.put("a", 1)
    assert kept.take("a") == 1
    assert kept.take("a") is None and kept.get("a") is None


def test_a_full_map_forgets_the_value_put_longest_ago():
    kept: KeptMap[str, int] = KeptMap(2)
    kept.put("a", 1)
    kept.put("b", 2)
    kept.put("a", 3)  # put again: now the newest
    kept.put("c", 4)
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (3, None, 4)


def test_without_a_ttl_values_never_expire(monkeypatch):
    now = [0.0]
    monkeypatch.setattr("tools.kept.time.monotonic", lambda: now[0])
    kept: KeptMap[str, int] = KeptMap(2)
    kept.put("a", 1)
    now[0] += 1e9
    assert kept.get("a") == 1


def test_threads_putting_at_once_never_pass_the_bound():
    kept: KeptMap[int, int] = KeptMap(64)

    def put_many(offset: int) -> None:
        for i in range(2000):
            kept.put(offset + i, i)

    threads = [threading.Thread(target=put_many, args=(n * 10_000,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(kept) == 64
