"""A thought on the persona's mind denied in the reply: asked for again, with the thought in the retry's line."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from agent.character_guard import SentenceGate
from agent.on_mind import denies_the_thought
from agent.providers.fake import ScriptedChatModel, replies
from persona.service import NexusService
from tests.conftest import StepClock, stream

THOUGHT = "Has Leila decided between Toronto and Denver?"
NOW = datetime(2026, 2, 3, 19, 40, tzinfo=timezone.utc)


@pytest.mark.parametrize("sentence", [
    "I'm sorry, but I don't have any specific questions or thoughts to share.",
    "Nothing much on my mind, really.", "Not much on my mind today!", "I don't have anything on my mind right now.",
    "Nada en particular, la verdad.", "No tengo nada en mente ahora mismo.", "Rien de spécial, et toi ?",
    "Nichts Besonderes, und bei dir?", "Niente di particolare, tu?", "Nada de especial por aqui.",
    "特に何もないよ。", "考えていることは特にありません。", "没什么特别的想法。", "특별히 없어요.",
])
def test_saying_there_is_nothing_on_ones_mind_is_recognised_in_every_language(sentence):
    assert denies_the_thought(sentence, THOUGHT)


@pytest.mark.parametrize("sentence, thought", [
    ("Nothing special, but has Leila decided on Toronto or Denver yet?", THOUGHT),  # it speaks of the thought
    ("Nothing much on my mind, really.", ""),  # no thought in the prompt: an honest answer
    ("Nothing beats a quick stir-fry on a weeknight.", THOUGHT),
    ("I don't have a car, so I take the bus.", THOUGHT),
    ("特に雨の日が好きです。", THOUGHT),
    ("No tengo tiempo hoy, pero cuéntame.", THOUGHT),
])
def test_other_sentences_do_not_deny_the_thought(sentence, thought):
    assert not denies_the_thought(sentence, thought)


def test_a_denial_is_held_and_asked_for_again_but_shown_on_the_last_attempt():
    reply = "I'm sorry, but I don't have any specific questions or thoughts to share."
    gate = SentenceGate(("Omar", "Ark"), "Evening, Ark! Anything on your mind?", "en", user_names=("Omar",),
                        persona_name="Ark", thought=THOUGHT)
    assert stream(gate, reply) == "" and gate.denied_thought
    last = SentenceGate(("Omar", "Ark"), "Evening, Ark! Anything on your mind?", "en", user_names=("Omar",),
                        persona_name="Ark", thought=THOUGHT, release_fillers=True)
    assert stream(last, reply) == reply and not last.denied_thought
    nothing_wondered = SentenceGate(("Omar", "Ark"), "Evening, Ark! Anything on your mind?", "en",
                                    user_names=("Omar",), persona_name="Ark")
    assert stream(nothing_wondered, reply) == reply


def test_nothing_special_is_held_until_whole_while_a_thought_is_on_the_mind():
    gate = SentenceGate(("Omar", "Ark"), "Hey, what's new?", "en", user_names=("Omar",), persona_name="Ark",
                        thought=THOUGHT)
    assert gate.feed("Nothing spec") == ""  # streamed at once, it could not be taken back
    assert stream(gate, "ial here.") == "" and gate.denied_thought


def test_the_retry_after_denying_the_thought_names_it(data_dir):
    clock = StepClock(NOW)
    model = ScriptedChatModel(replies("I'm sorry, but I don't have any specific questions or thoughts to share.",
                                      "Evening, Omar! Has Leila picked Toronto or Denver yet?"))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model, after_turn_work=False)
    service.update_settings(user_name="Omar")
    session = service.session("Ark")
    session.chat_log.append("USER", "Omar", "My sister Leila got two job offers, Toronto and Denver.")
    session.chat_log.append("AGENT", "Ark", "Exciting!")
    session.questions().add([(THOUGHT, "", 0.8)], NOW)
    clock.now = NOW + timedelta(hours=22)
    list(service.send("Ark", "Evening, Ark! Anything on your mind?"))
    nudge = model.calls[-1][0][-1]
    assert nudge.role == "system" and nudge.content.endswith(f"ask Omar: {THOUGHT}")
    assert service.conversation("Ark")[-1].text == "Evening, Omar! Has Leila picked Toronto or Denver yet?"
