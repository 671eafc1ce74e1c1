"""The language each person writes in, kept with their writes, and the system's e-mails written in it.

A person's language is the one they last wrote to the assistant in, when they last started, decided or changed
anything (`user_languages`, written in that write's transaction). The system's e-mails to them (a task waiting, an
urge, a request sent back or ended) are then in that language alone; to a person who never wrote, in both, Chinese
first. Nothing is asked of anyone: the language follows the person, and changes when they do.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Connection, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from tools.workflow.tables import user_languages

LANGS = ("zh", "en")


def keep_language(conn: Connection, user_id: str, lang: str, at: str) -> None:
    """Keeps `lang` as the person's language (one row per person: the latest write's wins, with no conflict when two
    writes of theirs commit at once). A language other than zh and en is not kept."""
    if lang not in LANGS or not user_id:
        return
    insert = postgresql_insert if conn.dialect.name == "postgresql" else sqlite_insert
    statement = insert(user_languages).values(user_id=user_id, lang=lang, at=at)
    conn.execute(statement.on_conflict_do_update(index_elements=[user_languages.c.user_id],
                                                 set_={"lang": lang, "at": at}))


def languages_of(conn: Connection, user_ids: Iterable[str]) -> dict[str, str]:
    """The kept language of each of these people who has one."""
    ids = list(dict.fromkeys(user_ids))
    if not ids:
        return {}
    rows = conn.execute(select(user_languages.c.user_id, user_languages.c.lang)
                        .where(user_languages.c.user_id.in_(ids)))
    return {str(user): str(lang) for user, lang in rows}


def in_language(lang: str | None, zh: str, en: str, *, between: str = "\n") -> str:
    """A text in a person's language, or in both (Chinese first) when theirs is not known."""
    if lang == "zh":
        return zh
    if lang == "en":
        return en
    return f"{zh}{between}{en}"


@dataclass(frozen=True)
class Letter:
    """A system e-mail in both languages: its subject's words in Chinese and in English and what follows them
    (": task_2"), and its text in Chinese and in English."""

    subject: tuple[str, str, str]
    body: tuple[str, str]

    def written(self, lang: str | None) -> tuple[str, str]:
        """The subject and text in a recipient's language, or in both when it is not known
        ("[flowagent] 待审批 / Waiting for your decision: task_2")."""
        zh, en, tail = self.subject
        subject = {"zh": f"[flowagent] {zh}{tail}", "en": f"[flowagent] {en}{tail}"}.get(
            lang or "", f"[flowagent] {zh} / {en}{tail}")
        return subject, in_language(lang, *self.body)
