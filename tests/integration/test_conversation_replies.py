"""The test that was missing in November: what the persona says, on the real embedded model.

A short conversation in English and one in Japanese through the Send path, greedy decoding and a
fixed seed (so it cannot flake): every reply is non-empty, in the user's language, and shows no
markup; a "please remember" request lands in core memory and the chat says it was saved.
"""
import re

import pytest

from agent.language import message_language
from persona.service import NexusService

pytestmark = pytest.mark.integration

MARKUP = re.compile(r"<\s*/?\s*[a-z_]+[^>]*>|<\|[^|]*\|>|^\s*\[(now|context)\b|^\s*(Ark|Ken|ハルカ)\s*[:：]|\{\s*\"name\"",
                    re.I | re.M)


def converse(tmp_path, real_model, user_name, messages):
    service = NexusService(tmp_path / "data", model_factory=lambda s, k, p: real_model)
    service.update_settings(temperature=0.0, seed=7, user_name=user_name)
    service.warm_up()
    assert service.model_status.state == "ready"
    turns = []
    try:
        for text in messages:
            events = list(service.send("Ark", text))
            errors = [e.text for e in events if e.kind == "error"]
            assert not errors, f"{text!r} ended in a notice: {errors}"
            [done] = [e for e in events if e.kind == "done"]
            turns.append((text, done.text, [e.text for e in events if e.kind == "tool"]))
            service.wait_for_background_work("Ark")
    finally:
        service.wait_for_background_work("Ark")
    return service, turns


def assert_replies_talk(turns, language):
    for text, reply, _ in turns:
        visible = re.sub(r"🛠️[^\n]*\n?", "", reply).strip()
        assert len(visible) >= 2, f"empty reply to {text!r}"
        # A short kanji-only reply (大丈夫！) may be Japanese or Chinese: the message it answers decides.
        assert message_language(visible, [text]) == language, f"{text!r} was answered in another language: {visible!r}"
        assert not MARKUP.search(visible), f"markup in the reply to {text!r}: {visible!r}"


CONVERSATIONS = {
    "en": ("Ken", ["Hi! I'm Ken. I just got back from hiking and saw a fox near the summit.",
                   "Please remember that my sister Yuki's birthday is March 3rd.",
                   "Do you like winter?"], "Yuki's birthday is March 3rd"),
    "ja": ("ハルカ", ["こんばんは！ハルカです。今日は初めてスパイスからカレーを作ってみたよ。",
                    "覚えておいてほしいんだけど、私はエビのアレルギーがあるの。",
                    "アークは料理に興味ある？"], "エビ"),
}


@pytest.mark.parametrize("language", sorted(CONVERSATIONS))
def test_a_conversation_gets_replies_in_its_language_and_a_kept_request(tmp_path, real_model, language):
    user_name, messages, kept = CONVERSATIONS[language]
    service, turns = converse(tmp_path, real_model, user_name, messages)
    assert_replies_talk(turns, language)
    assert kept in service.read_memory("Ark", "core_memory")
    assert turns[1][2], "the chat should say the request was saved"
