"""The work after a reply, called directly with the dependencies the facade hands it."""
from __future__ import annotations

import json

from agent.providers.fake import ScriptedChatModel, replies
from persona.after_turn import AfterTurnDeps, after_turn
from persona.service import NexusService

JOY = '{"category": "joy", "intensity": 0.8}'


def session_and_reply(data_dir, clock):
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: None, after_turn_work=False)
    session = service.session("Ark")
    session.chat_log.append("USER", "User", "I passed my exam!")
    return session, session.chat_log.append("AGENT", "Ark", "That's wonderful news!")


def test_the_latest_turn_indexes_warms_and_reads_the_emotion_with_the_name_of_the_moment(data_dir, clock):
    session, reply = session_and_reply(data_dir, clock)
    model = ScriptedChatModel(replies(), json_script=lambda system, user, schema: JOY)
    indexed, names = [], iter(["Mina", "Ken"])
    after_turn(session, model, "I passed my exam!", reply,
               AfterTurnDeps(index=lambda: indexed.append(True), is_latest=lambda: True, user_name=lambda: next(names)))
    assert indexed == [True] and len(model.warmed) == 1
    assert model.json_calls == ["Ken: I passed my exam!\nArk: That's wonderful news!"]  # read when it is used
    [record] = [json.loads(line) for line in (data_dir / "characters/Ark/memory/emotion_log.jsonl").read_text().splitlines()]
    assert record["message_id"] == reply.id and record["category"] == "joy"


def test_after_a_newer_turn_began_only_the_indexing_is_done(data_dir, clock):
    session, reply = session_and_reply(data_dir, clock)
    model = ScriptedChatModel(replies(), json_script=lambda system, user, schema: JOY)
    indexed = []
    after_turn(session, model, "I passed my exam!", reply,
               AfterTurnDeps(index=lambda: indexed.append(True), is_latest=lambda: False, user_name=lambda: "Mina"))
    assert indexed == [True] and model.warmed == [] and model.json_calls == []


def test_a_newer_turn_during_the_warm_up_leaves_the_emotion_to_it(data_dir, clock):
    session, reply = session_and_reply(data_dir, clock)
    model = ScriptedChatModel(replies(), json_script=lambda system, user, schema: JOY)
    latest = iter([True, False])
    after_turn(session, model, "I passed my exam!", reply,
               AfterTurnDeps(index=None, is_latest=lambda: next(latest), user_name=lambda: "Mina"))
    assert len(model.warmed) == 1 and model.json_calls == []
