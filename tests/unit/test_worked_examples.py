"""The worked examples a text-protocol model copies: in the person's language, and with no record ids to copy."""

import re

import pytest
from langchain_core.messages import HumanMessage

from graph.nodes.reasoner import fixed_messages
from tools.parsers import language_of
from tools.toolsets import get_toolset


def test_no_example_shows_a_record_id_a_model_could_copy_into_a_real_call():
    # A model copied the example's req_7/task_7 into real reminders and decisions ("remind Li Si about my request").
    # (Travel's example shows a flight number: its calls take none, so there is no call to copy it into. The toy
    # declares no record ids: there are none to copy.)
    toolset = get_toolset("workflow")
    assert toolset.record_ids and not get_toolset("toy").record_ids
    for spec, example in toolset.registry.examples():
        shown = f"{example.args} {example.observation} {example.answer}"
        assert not re.search(toolset.record_ids, shown), (spec.name, example.lang, shown)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_person_writing_english_is_shown_the_english_example_and_a_chinese_writer_the_chinese(lang):
    # A Chinese example's reason was copied as a translation of an English request's (which is not the person's).
    questions = [m.content for m in fixed_messages(get_toolset("workflow"), "react", lang) if isinstance(m, HumanMessage)]
    assert questions
    assert {language_of(str(q)) for q in questions} == {lang}


def test_a_toolset_with_one_language_of_examples_shows_it_to_everyone():
    travel = get_toolset("travel")
    asked = {lang: [m for m in fixed_messages(travel, "react", lang) if isinstance(m, HumanMessage)] for lang in ("zh", "en")}
    assert asked["en"] == asked["zh"] and asked["zh"]
