"""Patterns built from words are compiled once and kept apart from `re`'s own cache of 512."""

import re

from tools.patterns import compiled


def test_a_pattern_built_from_words_is_compiled_once_with_its_flags() -> None:
    first = compiled(r"(?<![a-z])taxi(?![a-z])", re.IGNORECASE)
    assert compiled(r"(?<![a-z])taxi(?![a-z])", re.IGNORECASE) is first
    assert first.search("Two TAXI fares") and not compiled(r"(?<![a-z])taxi(?![a-z])").search("Two TAXI fares")


def test_patterns_outlive_more_than_re_keeps() -> None:
    kept = compiled("kept-first")
    for n in range(2 * 512):  # more than `re` keeps, built the way a conversation's names and terms are
        re.search(re.escape(f"name{n}"), "text")
        compiled(re.escape(f"term{n}"))
    assert compiled("kept-first") is kept
