"""A toolset is three small interfaces: the domain (`Toolset`), its language (`Language`) and its surfaces
(`Surfaces`). A toolset declared in the flat form of one record, as toolsets were written before, builds the same
toolset through the one adapter, `Toolset.flat`."""

from __future__ import annotations

import pytest

from tests.support.rooms import ROOMS
from tests.support.rooms.backend import RoomsBackend
from tests.support.rooms.toolset import REGISTRY as ROOMS_REGISTRY
from tests.support.rooms.toolset import resolve_room, staff, staff_member
from tools.language import Language
from tools.surfaces import Surfaces
from tools.toolset import Limit, Toolset
from tools.workflow import approver_words, batch_words, cc_urge_specs, lookup, request_words
from tools.workflow import toolset as workflow
from tools.workflow.batch import DEFAULT_BATCH_LIMIT
from tools.workflow.cc import pick_person
from tools.workflow.commands import CLI, COMMANDS
from tools.workflow.leave import words as leave_words
from tools.workflow.leave.cli import LEAVE_CLI
from tools.workflow.mailer import Mailer
from tools.workflow.panels import diagrams_of, outbox_of, tasks_of
from tools.workflow.policy import DEFAULT_MAIL_RATE_LIMIT
from tools.workflow.prompts import CARD_LABELS, INTRO, QUESTIONS, REFUSALS, UNKNOWNS, WORKFLOW_PROMPT
from tools.workflow.refile import next_asked
from tools.workflow.specs import REGISTRY as WORKFLOW_REGISTRY
from tools.workflow.store import WorkflowStore
from tools.workflow.timer_service import TIMERS_CLI, start_timer_service


def test_a_flat_declaration_of_the_rooms_toolset_builds_the_same_toolset():
    flat = Toolset.flat(
        name="rooms",
        registry=ROOMS_REGISTRY,
        prompt="You book meeting rooms for the signed-in member of staff. Use only values they gave.",
        title="Meeting rooms",
        backend=RoomsBackend,
        actor=staff_member,
        people=staff,
        resolvers={"room": resolve_room},
        questions={"zh": {"date": "请问订哪一天？"}, "en": {"date": "Which day should I book it for?"}},
        intro={"zh": "我可以帮你查看和预订会议室。", "en": "I can list and book meeting rooms."},
    )
    assert flat == ROOMS
    assert flat.language.questions["en"]["date"] == "Which day should I book it for?"
    assert flat.surfaces == Surfaces()


def test_a_flat_declaration_with_surfaces_and_card_labels_builds_the_workflow_toolset():
    # The workflow's declaration as it was written in one record, with what it now declares itself (its graph's id,
    # record ids and refusal words, the engine's before): its card labels, which nothing read, are dropped.
    flat = Toolset.flat(
        name="workflow",
        graph_id="flowagent",  # named by the engine from the toolset's name before; the workflow now declares it
        registry=WORKFLOW_REGISTRY,
        prompt=WORKFLOW_PROMPT,
        title="Approvals on BPMN processes: workflows, requests, to-do tasks, reminders",
        titles={
            "zh": "审批：BPMN 流程、申请、待办、提醒",
            "en": "Approvals on BPMN processes: workflows, requests, to-do tasks, reminders",
        },
        card_labels=CARD_LABELS,
        lookup_answers=True,
        record_ids=workflow.RECORD_IDS,  # the engine's default before; the workflow now declares its own
        backend=WorkflowStore,
        deps=Mailer.from_env,
        actor=lookup.require_actor,
        people=workflow.directory,
        stored_rules=workflow.stored_rules,  # the bounds an answer may state (the eightieth round's writer)
        people_kind="user",
        actor_kind="user",
        resolvers={"user": workflow.resolve_user, "task": workflow.resolve_task, "process": workflow.resolve_process,
                   "request": workflow.resolve_request},  # the requester's requests (issue 33)
        stable_kinds=("user",),
        named_record=workflow.named_record,
        questions=request_words.merged(request_words.merged(QUESTIONS, request_words.QUESTIONS),  # transfer, deputies,
                                       request_words.merged(approver_words.QUESTIONS, batch_words.QUESTIONS)),  # batch (34)
        pick_person=approver_words.taker_first(pick_person),  # a transfer's or a deputy's taker first, never one copied (34)
        asked_next=next_asked,  # the other to-dos one message decides, once one is (the twenty-second round)
        limits={"mail_rate_limit": Limit(DEFAULT_MAIL_RATE_LIMIT, "E-mails one conversation thread may send per hour."),
                "batch_limit": Limit(DEFAULT_BATCH_LIMIT, "The most tasks one batch decision decides.")},  # issue 34
        intro=INTRO,
        refusals=request_words.merged(request_words.merged(  # worded by the graph before; the leave's own (issue 33)
            request_words.merged(REFUSALS, request_words.REFUSALS), leave_words.REFUSALS),
            request_words.merged(request_words.merged(approver_words.REFUSALS, cc_urge_specs.REFUSALS),
                                 batch_words.REFUSALS)),  # transfer, deputies, CC, urge, batch (34)
        unknowns=UNKNOWNS,  # what no tool knows: payments, salaries (the sixteenth round)
        guards=workflow.TOOLSET.guards,  # its pipeline with its own guard (issue 33): a guard is equal only to itself
        help=workflow.help_tables,
        commands=COMMANDS,
        panels={"tasks": tasks_of, "diagrams": diagrams_of, "outbox": outbox_of},
        cli={**CLI, "leave": LEAVE_CLI, "timers": TIMERS_CLI},  # leave balances (issue 33), the timer service (34)
        services=(start_timer_service,),  # the timer service in each server process (issue 34)
    )
    assert flat == workflow.TOOLSET


def test_the_language_and_the_surfaces_are_their_own_records_and_a_flat_keyword_is_not_the_domains():
    assert ROOMS.language == Language(
        title="Meeting rooms",
        intro={"zh": "我可以帮你查看和预订会议室。", "en": "I can list and book meeting rooms."},
        questions={"zh": {"date": "请问订哪一天？"}, "en": {"date": "Which day should I book it for?"}},
    )
    with pytest.raises(TypeError, match="questions"):
        Toolset(name="rooms", registry=ROOMS_REGISTRY, prompt="", questions={})  # type: ignore[call-arg]
