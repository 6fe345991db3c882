"""The user's own fact comes back as the user's, on the real embedded model (issue 18).

The user tells something about themself ("I adopted a puppy called Mochi last week."), two other
turns follow, then the user asks about it. Greedy decoding and a fixed seed, so the replies are
the same on every run. The reply to the question must not be empty, must be in the user's
language, show no markup, contain the fact, and must not tell it as the persona's own ("I adopted
a puppy called Mochi", "Mochi is my friend"). No reply of the conversation may take the user's
part.

The judgement is the shared §4 scorer's (`../shared/bench/conversation_checks.py`, or the folder
in NEXUS_ARK_SHARED_DIR), loaded by path: checking the app with its own guard
(`agent/role.py`) would test nothing. In Japanese a reply with no written subject
(「モチだよね！」) is fine; the scorer only judges sentences whose subject is the persona. Beside it,
one pattern per conversation catches the persona calling the puppy its own (「モチは、私の友達で犬
です。」 shares too few words with the user's sentence for the scorer's overlap rule).
"""
import importlib.util
import os
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from persona.service import NexusService
from tests.conftest import REPO

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SHARED_ENV = "NEXUS_ARK_SHARED_DIR"
PERSONA = "Ark"


@pytest.fixture(scope="session")
def shared_checks():
    """The shared conversation scorer, or a skip that says where it was looked for (before the
    model is loaded: this fixture comes first in the test's arguments)."""
    folder = Path(os.environ[SHARED_ENV]) if os.environ.get(SHARED_ENV) else REPO.parent / "shared"
    path = folder / "bench" / "conversation_checks.py"
    if not path.is_file():
        pytest.skip(f"the shared §4 scorer is not at {path}: set {SHARED_ENV} to the shared folder")
    spec = importlib.util.spec_from_file_location("shared_conversation_checks", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# language: (user name, [the fact, another turn, another turn, the question], ways the fact may be
# said, the persona calling the puppy its own ("my puppy", "Mochi is my …", 「モチは私の…」, 「我的小狗」)
CONVERSATIONS = {
    "en": ("Alex", ["I adopted a puppy called Mochi last week.",
                    "Work was really busy today, but at least it's Friday.",
                    "Do you like rainy days?",
                    "What's my puppy called?"], ("Mochi",),
           r"\b(?:my|our)\s+(?:\w+\s+)?(?:puppy|pup|dog|pet)\b|\bMochi\s+is\s+(?:my|our)\b"),
    "ja": ("ユイ", ["先週、子犬を飼い始めたんだ。名前はモチ。",
                  "今日は仕事がすごく忙しかったけど、やっと金曜日だ。",
                  "雨の日って好き？",
                  "私の子犬の名前、覚えてる？"], ("モチ", "もち", "Mochi"),
           r"(?:私|僕|俺|わたし|あたし|うち)の(?:新しい)?(?:子犬|犬|ワンちゃん|ペット|モチ)|モチ(?:ちゃん)?は、?(?:私|僕|俺|わたし|あたし|うち)の"),
    "zh": ("林芳", ["上周我领养了一只小狗，给它取名叫年糕。",
                  "今天工作特别忙，不过总算到周五了。",
                  "你喜欢下雨天吗？",
                  "我的小狗叫什么名字，你还记得吗？"], ("年糕",),
           r"我(?:们)?的(?:新)?(?:小狗|狗|宠物|年糕)|年糕是我(?:们)?的"),
}


# The prompt's "Now" line is part of what the model reads: on the wall clock the replies changed with
# the hour the tests ran at (a CI run at 07:49 UTC got 「モチは、私の友達で犬です。」 where one at 05:00 passed).
CONVERSATION_START = datetime(2026, 11, 20, 5, 0, tzinfo=timezone.utc)
MINUTES_BETWEEN_MESSAGES = 2


class SteppedClock:
    """A fixed time, moved on by the test between messages."""

    def __init__(self, start: datetime):
        self.now = start

    def __call__(self) -> datetime:
        return self.now


def converse(tmp_path, real_model, user_name, messages):
    clock = SteppedClock(CONVERSATION_START)
    service = NexusService(tmp_path / "data", clock=clock, model_factory=lambda s, k, p: real_model)
    service.update_settings(temperature=0.0, seed=11, user_name=user_name)
    service.warm_up()
    assert service.model_status.state == "ready"
    replies = []
    try:
        for text in messages:
            clock.now += timedelta(minutes=MINUTES_BETWEEN_MESSAGES)
            events = list(service.send(PERSONA, text))
            errors = [e.text for e in events if e.kind == "error"]
            assert not errors, f"{text!r} ended in a notice: {errors}"
            [done] = [e for e in events if e.kind == "done"]
            # what the chat shows, without the app's own "🛠️ …" lines
            replies.append("\n".join(line for line in done.text.splitlines()
                                     if not line.lstrip().startswith("🛠")).strip())
            service.wait_for_background_work(PERSONA)
    finally:
        service.wait_for_background_work(PERSONA)
    return replies


@pytest.mark.parametrize("language", sorted(CONVERSATIONS))
def test_the_users_fact_comes_back_as_the_users(shared_checks, real_model, tmp_path, report_metric, language):
    checks = shared_checks
    user_name, messages, fact, persona_owns = CONVERSATIONS[language]
    replies = converse(tmp_path, real_model, user_name, messages)
    report_metric(f"own_fact_{language}", replies)
    names = (user_name, PERSONA)

    for i, (text, reply) in enumerate(zip(messages, replies)):
        assert len(re.sub(r"\s+", "", reply)) >= 2, f"empty reply to {text!r}"
        assert checks.same_language(reply, text), f"{text!r} was answered in another language: {reply!r}"
        assert not checks.LEAK.search(reply) and not re.search(rf"^\s*({re.escape(user_name)}|{PERSONA})\s*[:：]",
                                                              reply, re.M), f"markup in the reply to {text!r}: {reply!r}"
        assert not checks.takes_users_part(reply, messages[:i + 1], names), \
            f"the persona told the user's fact as its own in reply to {text!r}: {reply!r}"
        assert not re.search(persona_owns, reply, re.I), f"the persona calls the user's puppy its own in reply to {text!r}: {reply!r}"

    answer = replies[-1]
    assert any(checks.contains(checks.norm(answer), f) for f in fact), \
        f"the answer to {messages[-1]!r} does not contain {' / '.join(fact)}: {answer!r}"


# A question about something the user told, which the model first answered "I don't have the information"
# (bench conversation, session 17): asked again, pointed at what the user told (agent/not_knowing.py).
TOLD_THEN_ASKED = {
    "en": ("Priya", ["Hi there, I'm Priya. Just had my second interview at the museum and I think it went okay?",
                     "They asked me about a project I led, and I blanked for a second.",
                     "Where was my interview again?"], ("museum",)),
    "de": ("Jonas", ["Hallo Ark! Ich bin Jonas. Heute habe ich zum ersten Mal selbst Brot gebacken, mit Roggen und Walnüssen.",
                     "Merk dir bitte, dass mein Bruder Felix am 12. Juni heiratet, das ist mir wichtig.",
                     "Sag mal, weißt du noch, wer von meiner Familie im Juni heiratet?"], ("Felix",)),
}


@pytest.mark.parametrize("language", sorted(TOLD_THEN_ASKED))
def test_what_the_user_told_is_answered_not_forgotten(shared_checks, real_model, tmp_path, report_metric, language):
    checks = shared_checks
    user_name, messages, fact = TOLD_THEN_ASKED[language]
    replies = converse(tmp_path, real_model, user_name, messages)
    report_metric(f"told_then_asked_{language}", replies)
    answer = replies[-1]
    assert len(re.sub(r"\s+", "", answer)) >= 2 and checks.same_language(answer, messages[-1]), answer
    assert any(checks.contains(checks.norm(answer), f) for f in fact), \
        f"the answer to {messages[-1]!r} does not contain {' / '.join(fact)}: {answer!r}"
    assert not checks.takes_users_part(answer, messages, (user_name, PERSONA)), answer
