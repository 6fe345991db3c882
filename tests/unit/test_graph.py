"""The turn graph with a scripted model: streaming, log-before-model, tags, tool loop bound."""
import json

import pytest

import constants
from agent.providers.base import ProviderError, ToolCall
from agent.providers.fake import ScriptedChatModel, replies
from managers.chat_log import ChatLog
from persona.service import NexusService


def make_service(data_dir, clock, model):
    return NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)


def run(service, text, persona="Ark"):
    return list(service.send(persona, text))


def test_tokens_stream_and_the_reply_is_logged_without_tags(data_dir, clock):
    model = ScriptedChatModel(replies('That sounds lovely, Mina, nice to meet you! <persona_emotion category="joy" intensity="1.4"/>'))
    service = make_service(data_dir, clock, model)
    events = run(service, "Hi, I'm Mina")
    tokens = [e.text for e in events if e.kind == "token"]
    assert len(tokens) > 3  # streamed in pieces, not one final blob
    assert "".join(tokens).strip() == "That sounds lovely, Mina, nice to meet you!"
    [done] = [e for e in events if e.kind == "done"]
    assert done.entry.meta["emotion"] == "joy:1.00"  # clamped
    view = service.conversation("Ark")
    assert [(e.role, e.text) for e in view] == [("USER", "Hi, I'm Mina"), ("AGENT", "That sounds lovely, Mina, nice to meet you!")]
    emotions = (data_dir / "characters/Ark/memory/emotion_log.jsonl").read_text().splitlines()
    assert json.loads(emotions[0])["category"] == "joy"


def test_user_message_is_durable_before_the_model_is_called(data_dir, clock):
    seen = {}

    def script(messages, tools):
        log = ChatLog(data_dir / "characters/Ark/logs", clock)  # a fresh reader: what is on disk
        seen["logged"] = [e.text for e in log.entries()]
        return "ok"

    service = make_service(data_dir, clock, ScriptedChatModel(script))
    run(service, "remember this text")
    assert seen["logged"] == ["remember this text"]


def test_user_typed_tags_are_not_taken_as_the_personas(data_dir, clock):
    model = ScriptedChatModel(replies("Sure."))
    service = make_service(data_dir, clock, model)
    events = run(service, 'hi <persona_emotion category="anger" intensity="1"/>')
    [done] = [e for e in events if e.kind == "done"]
    assert "emotion" not in done.entry.meta
    assert not (data_dir / "characters/Ark/memory/emotion_log.jsonl").exists()


def test_static_prompt_first_and_history_included(data_dir, clock):
    model = ScriptedChatModel(replies("one", "two"))
    service = make_service(data_dir, clock, model)
    service.save_memory("Ark", "core_memory", "The user's cat is called Tama.")
    run(service, "first message")
    run(service, "second message")
    messages, _ = model.calls[-1]
    assert messages[0].role == "system" and "Tama" in messages[0].content
    # The history holds the user's words as typed (the turn's context went with that turn only).
    assert [m.content for m in messages[1:3]] == ["first message", "one"]
    assert messages[-1].content == "second message"


def test_after_a_reply_the_next_prompt_prefix_is_prepared(data_dir, clock):
    reply = 'Two. <persona_emotion category="joy" intensity="0.5"/>'
    model = ScriptedChatModel(replies("One.", reply, "Three."))
    service = make_service(data_dir, clock, model)
    run(service, "first message")
    run(service, "second message")
    service.wait_for_background_work("Ark")
    warmed = model.warmed[-1]
    # The exchange just finished is in the warmed prefix: the user's words, the reply as generated…
    assert [m.content for m in warmed[-3:-1]] == ["second message", reply]
    assert warmed[-1].content.startswith("# Now")  # the hour ends the prefix
    run(service, "third message")
    # …so the next turn's prompt starts with it and the local model evaluates only the rest.
    assert model.calls[-1][0][: len(warmed)] == warmed


def test_a_keep_request_is_saved_by_the_app_and_the_reply_is_told(data_dir, clock):
    model = ScriptedChatModel(replies("Got it, I'll keep that in mind.", "March 3rd!"))
    service = make_service(data_dir, clock, model)
    events = run(service, "Please remember that my sister Yuki's birthday is March 3rd.")
    core = service.read_memory("Ark", "core_memory")
    assert "Yuki's birthday is March 3rd" in core and "Please remember" not in core
    assert [e.text for e in events if e.kind == "tool"] == ["🛠️ Kept in core memory"]
    messages, tools = model.calls[0]
    assert tools == []  # the local model is offered no tools; the app saved it itself
    # This turn's prompt still starts from the prefix as it was: the note is in the turn's context.
    assert "Yuki" not in messages[0].content
    assert any(m.role == "system" and "Yuki's birthday" in m.content for m in messages[1:])
    run(service, "Do you remember my sister's birthday?")  # a question, not a request
    assert service.read_memory("Ark", "core_memory") == core
    service.wait_for_background_work("Ark")
    assert "Yuki" in model.warmed[-1][0].content  # the next prefix holds the saved line


def test_a_correction_right_after_a_keep_request_revises_the_kept_line(data_dir, clock):
    model = ScriptedChatModel(replies("Noted!", "Friday it is.", "Sure."))
    service = make_service(data_dir, clock, model)
    run(service, "Can you note that my dentist appointment is on Thursday at 4pm?")
    before = service.read_memory("Ark", "core_memory")
    events = run(service, "Oh wait, sorry: it's been moved to Friday, same time.")
    core = service.read_memory("Ark", "core_memory")
    assert [e.text for e in events if e.kind == "tool"] == ["🛠️ Core-memory note corrected"]
    assert core.count("dentist") == 1 and "moved to Friday" in core  # the same line, revised in place
    assert core.splitlines()[:-1] == before.rstrip().splitlines()[:-1]
    later = run(service, "Actually, I think I'll have tea.")  # that line is revised already: nothing changes
    assert service.read_memory("Ark", "core_memory") == core and not [e for e in later if e.kind == "tool"]
    assert not any("Just saved" in m.content for m in model.calls[-1][0])


def test_after_the_reply_the_model_names_what_the_correction_changes_and_the_note_is_put_right(data_dir, clock):
    model = ScriptedChatModel(replies("Noted!", "Friday it is."),
                              json_script=lambda system, user, schema: (
                                  '{"old": "Thursday", "new": "Friday"}' if "old" in schema["properties"]
                                  else '{"category": "calm", "intensity": 0.3}'))
    service = make_service(data_dir, clock, model)
    run(service, "Can you note that my dentist appointment is on Thursday at 4pm?")
    run(service, "Oh wait, sorry: it's been moved to Friday, same time.")
    service.wait_for_background_work("Ark")
    core = service.read_memory("Ark", "core_memory")
    assert 'said (corrected): "My dentist appointment is on Friday at 4pm"' in core and "Thursday" not in core
    assert "Friday at 4pm" in model.warmed[-1][0].content  # put right before the next prefix was warmed


def test_an_empty_or_tag_only_reply_is_asked_for_again(data_dir, clock):
    model = ScriptedChatModel(replies('<persona_emotion category="joy" intensity="0.5"/>', "  \n", "Hello there!"))
    service = make_service(data_dir, clock, model)
    events = run(service, "Hi, I'm Mina")
    assert len(model.calls) == 1 + constants.EMPTY_REPLY_RETRIES
    assert "".join(e.text for e in events if e.kind == "token").strip() == "Hello there!"
    assert [(e.role, e.text) for e in service.conversation("Ark")][-1] == ("AGENT", "Hello there!")


def test_after_an_attempt_that_ended_at_once_the_next_may_not_end_before_a_clause(data_dir, clock):
    model = ScriptedChatModel(replies("", "  ", "Too many memories to choose from, then. Start with the funniest one."))
    service = make_service(data_dir, clock, model)
    run(service, "I haven't decided what to say in my speech. There are too many memories.")
    assert service.conversation("Ark")[-1].text == "Too many memories to choose from, then. Start with the funniest one."
    assert model.least_tokens == [0, constants.MIN_REPLY_TOKENS_AFTER_SILENCE, constants.MIN_REPLY_TOKENS_AFTER_SILENCE]


def test_an_attempt_the_guard_held_back_is_no_silence_and_sets_no_floor(data_dir, clock):
    model = ScriptedChatModel(replies("How can I assist you today?", "Start with the funniest memory."))
    service = make_service(data_dir, clock, model)
    run(service, "I haven't decided what to say in my speech.")
    assert service.conversation("Ark")[-1].text == "Start with the funniest memory."
    assert model.least_tokens == [0, 0]


def test_after_an_echo_the_retry_leaves_the_echo_out_and_shows_what_follows_it(data_dir, clock):
    told = "Work was really busy today, but at least it's Friday."
    model = ScriptedChatModel(replies(told, told + " Any plans for the weekend?"))
    service = make_service(data_dir, clock, model)
    events = run(service, told)
    assert len(model.calls) == 2
    assert "".join(e.text for e in events if e.kind == "token").strip() == "Any plans for the weekend?"
    assert [(e.role, e.text) for e in service.conversation("Ark")][-1] == ("AGENT", "Any plans for the weekend?")


def test_a_retry_that_says_its_own_instruction_back_is_no_reply(data_dir, clock):
    calls = []

    def script(messages, tools):  # empty, then the retry's line said back, then a reply
        calls.append(messages)
        return ["", messages[-1].content, "Che bello, una giornata a Firenze!"][min(len(calls), 3) - 1]
    service = make_service(data_dir, clock, ScriptedChatModel(script))
    events = run(service, "Ciao! Sono Giulia. Sabato sono andata a Firenze con mia sorella Marta.")
    assert len(calls) == 3 and calls[1][-1].role == "system"  # the second attempt had the line
    shown = "".join(e.text for e in events if e.kind == "token").strip()
    assert shown == "Che bello, una giornata a Firenze!" and "Rispondi" not in shown


@pytest.mark.parametrize("told, service_talk, asks, question", [
    ("何を話すかまだ全然決めてないんだよね。思い出が多すぎて。", "お手伝いできることはありますか？", "in Japanese",
     "一番心に残っている思い出はどれ？"),
    ("I still haven't decided what to say at the wedding. There are too many memories.",
     "How can I assist you today?", "in English", "Which memory comes to mind first?"),
    ("Todavía no sé qué decir en la boda, tengo demasiados recuerdos.", "¿En qué puedo ayudarte hoy?", "in Spanish",
     "¿Cuál es el recuerdo que más te gusta?"),
])
def test_after_service_talk_twice_to_something_told_the_last_attempt_is_told_not_to_offer_help(
        data_dir, clock, told, service_talk, asks, question):
    # 「私はまだ自分の言葉で反応します。」 was the last attempt's answer to "react in your own words", and the user
    # got no reply (bench conversation dev-ja-speech, session 26).
    calls = []

    def script(messages, tools):
        calls.append(messages[-1].content)
        return service_talk if len(calls) < 3 else question
    service = make_service(data_dir, clock, ScriptedChatModel(script))
    run(service, told)
    assert len(calls) == 3 and "offer help" not in calls[1]
    assert "Do not offer help" in calls[2] and asks in calls[2]
    assert service.conversation("Ark")[-1].text == question


@pytest.mark.parametrize("told, called, not_called", [
    ("今日は仕事で大きなプレゼンがあって、すごく緊張したよ。", "アークとして", "Arkとして"),
    ("Today I gave a big presentation at work and I was so nervous.", "as Ark", "アーク"),
])
def test_the_persona_is_named_in_the_script_of_the_users_language(data_dir, clock, told, called, not_called):
    # Told to answer 「Arkとして」, the 1.5B model introduced itself as 「アーケー」 (bench conversation
    # dev-mixed-osaka, session 27); the sample persona's display name is "Ark (アーク)".
    calls = []

    def script(messages, tools):  # empty first, so the retry's line is read too
        calls.append(messages)
        return "" if len(calls) == 1 else "Good for you!"
    run(make_service(data_dir, clock, ScriptedChatModel(script)), told)
    first_prompt = "\n".join(m.content for m in calls[0])
    retry_line = calls[1][-1].content
    assert called in first_prompt and called in retry_line
    assert not_called not in first_prompt[first_prompt.rindex(told):] and not_called not in retry_line


def test_the_no_help_line_is_not_given_after_failures_of_another_kind(data_dir, clock):
    calls = []

    def script(messages, tools):  # an echo, then an echo again, then a reply: nothing said service talk
        calls.append(messages[-1].content)
        return "Work was busy today." if len(calls) < 3 else "Glad it's Friday, then!"
    run(make_service(data_dir, clock, ScriptedChatModel(script)), "Work was busy today.")
    assert len(calls) == 3 and not any("offer help" in c for c in calls)


def test_a_reply_that_tells_its_instructions_in_other_words_is_asked_for_again(data_dir, clock):
    calls = []

    def script(messages, tools):  # the reminder told as a doing of the persona's, then a reply
        calls.append(messages)
        return ["私は自分の言葉で日本語で返事をします。", "「エリーゼのために」、いい曲だね！"][min(len(calls), 2) - 1]
    service = make_service(data_dir, clock, ScriptedChatModel(script))
    service.update_settings(user_name="ミサキ")
    events = run(service, "最初の曲は「エリーゼのために」なんだ。")
    assert len(calls) == 2
    shown = "".join(e.text for e in events if e.kind == "token").strip()
    assert shown == "「エリーゼのために」、いい曲だね！"


def test_only_empty_replies_end_in_a_notice_and_nothing_is_logged_as_the_reply(data_dir, clock):
    model = ScriptedChatModel(replies('<persona_emotion category="joy" intensity="0.5"/>'))
    service = make_service(data_dir, clock, model)
    events = run(service, "Hi, I'm Mina")
    assert len(model.calls) == 1 + constants.EMPTY_REPLY_RETRIES
    assert not [e for e in events if e.kind in ("token", "done")]
    [error] = [e for e in events if e.kind == "error"]
    assert "empty" in error.text
    assert [e.role for e in service.conversation("Ark")] == ["USER"]
    assert not (data_dir / "characters/Ark/journal/streaming.jsonl").exists()


@pytest.mark.parametrize("message, words", [
    ("Eu corri os 10 km em 58 minutos ontem!", "não encontrou palavras"),
    ("今日は初めてスパイスからカレーを作ってみたよ。", "言葉が見つかりませんでした"),
    ("Heute bin ich endlich umgezogen, die Küche ist winzig.", "keine Worte gefunden"),
])
def test_the_notice_of_an_empty_reply_is_in_the_users_language(data_dir, clock, message, words):
    model = ScriptedChatModel(replies(""))
    service = make_service(data_dir, clock, model)
    [error] = [e for e in run(service, message) if e.kind == "error"]
    assert words in error.text and ("Ark" in error.text or "アーク" in error.text)


def test_the_local_models_emotion_is_read_after_the_reply(data_dir, clock):
    model = ScriptedChatModel(replies("That's wonderful news!"),
                              json_script=lambda system, user, schema: '{"category": "joy", "intensity": 0.8}')
    service = make_service(data_dir, clock, model)
    events = run(service, "I passed my exam!")
    service.wait_for_background_work("Ark")
    [done] = [e for e in events if e.kind == "done"]
    [record] = [json.loads(line) for line in
                (data_dir / "characters/Ark/memory/emotion_log.jsonl").read_text().splitlines()]
    assert record == {**record, "message_id": done.entry.id, "category": "joy", "intensity": 0.8}
    assert "I passed my exam!" in model.json_calls[0] and "wonderful" in model.json_calls[0]
    assert "persona_emotion" not in model.calls[0][0][0].content  # not asked for the inline tag


def test_tools_are_not_offered_to_the_local_model_for_small_talk(data_dir, clock):
    model = ScriptedChatModel(replies("I'm fine!"))
    service = make_service(data_dir, clock, model)
    run(service, "How are you today?")
    assert model.calls[0][1] == []


def test_native_tool_call_then_answer(data_dir, clock):
    script_steps = iter([[ToolCall("edit_core_memory", {"content": "User's birthday: May 3"}, "c1")],
                         "Got it, I'll remember your birthday."])
    model = ScriptedChatModel(lambda m, t: next(script_steps), budget_family="remote", native_tools=True)
    service = make_service(data_dir, clock, model)
    run(service, "My birthday is May 3")
    assert "User's birthday: May 3" in service.read_memory("Ark", "core_memory")
    assert model.calls[1][0][-1].role == "tool"
    assert service.conversation("Ark")[-1].text.endswith("Got it, I'll remember your birthday.")


def test_stop_keeps_the_partial_reply_marked_stopped(data_dir, clock):
    full = "one two three four five six seven eight nine ten"
    model = ScriptedChatModel(replies(full), delay_per_piece_s=0.05)
    service = make_service(data_dir, clock, model)
    shown = []
    for event in service.send("Ark", "count for me"):
        if event.kind == "token":
            shown.append(event.text)
            if len(shown) == 3:
                service.stop("Ark")
    reply = service.conversation("Ark")[-1]
    assert reply.meta["status"] == "stopped"
    assert full.startswith(reply.text.strip()) and len(reply.text.strip()) < len(full) - 10


def test_a_page_that_closes_mid_reply_still_gets_its_reply_logged(data_dir, clock):
    # a new user's first reply was lost when the page's browser closed mid-turn (session 49): the generator
    # the page read was closed, and the turn with it
    full = "one two three four five six seven eight nine ten"
    service = make_service(data_dir, clock, ScriptedChatModel(replies(full), delay_per_piece_s=0.05))
    events = service.send("Ark", "count for me")
    assert next(e for e in events if e.kind == "token")
    events.close()  # the page went away
    lock = service.session("Ark").turn_lock
    assert lock.acquire(timeout=20)  # the turn ran on to its end
    lock.release()
    assert [e.text.strip() for e in service.conversation("Ark")] == ["count for me", full]


def test_provider_error_is_shown_and_the_user_message_kept(data_dir, clock):
    def script(messages, tools):
        return [ProviderError("The API key was rejected.")]

    service = make_service(data_dir, clock, ScriptedChatModel(script))
    events = run(service, "hello there friend")
    assert [e.text for e in events if e.kind == "error"] == ["The API key was rejected."]
    assert [e.text for e in service.conversation("Ark")] == ["hello there friend"]
    assert not (data_dir / "characters/Ark/journal/streaming.jsonl").exists()


def test_model_that_cannot_be_created_still_keeps_the_message(data_dir, clock):
    def factory(settings, secrets, path):
        raise ProviderError("Gemini needs an API key: add it in Settings.")

    service = NexusService(data_dir, clock=clock, model_factory=factory)
    events = list(service.send("Ark", "are you there?"))
    assert events[-1].kind == "error" and "API key" in events[-1].text
    assert [e.text for e in service.conversation("Ark")] == ["are you there?"]


def test_regenerate_replaces_the_last_reply_in_the_view_only(data_dir, clock):
    model = ScriptedChatModel(replies("first answer", "second answer"))
    service = make_service(data_dir, clock, model)
    run(service, "question")
    list(service.regenerate("Ark"))
    assert [e.text for e in service.conversation("Ark")] == ["question", "second answer"]
    raw = "".join(p.read_text() for p in (data_dir / "characters/Ark/logs").iterdir())
    assert "first answer" in raw


PLAN = '{"rag": "cat Tama health vet", "keywords": ["Tama"], "intent": "relational"}'


def retrieval_of(events):
    [result] = [e.retrieval for e in events if e.kind == "retrieval"]
    return result


def test_llm_planner_plans_the_search_when_chosen(data_dir, clock):
    model = ScriptedChatModel(replies("She is fine."), json_script=lambda system, user, schema: PLAN)
    service = make_service(data_dir, clock, model)
    service.update_settings(query_planner="llm")
    result = retrieval_of(run(service, "How is my cat doing these days?"))
    service.wait_for_background_work("Ark")  # the emotion's call after the reply comes second, when it comes
    assert model.json_calls[0] == "How is my cat doing these days?"  # the plan is asked before the reply
    assert (result.reason, result.intent) == ("planned by llm", "relational")


def test_malformed_planner_answer_falls_back_to_rules_and_the_reply_comes(data_dir, clock):
    model = ScriptedChatModel(replies("She is fine."), json_script=lambda system, user, schema: "cat, vet?")
    service = make_service(data_dir, clock, model)
    service.update_settings(query_planner="llm")
    events = run(service, "How is my cat doing these days?")
    assert retrieval_of(events).reason == "planned by rules"
    assert [e.entry.text for e in events if e.kind == "done"] == ["She is fine."]


@pytest.mark.parametrize("family, expected", [("local", "rules"), ("remote", "llm")])
def test_automatic_planner_uses_the_llm_only_on_remote_providers(data_dir, clock, family, expected):
    model = ScriptedChatModel(replies("ok"), budget_family=family, json_script=lambda s, u, schema: PLAN)
    service = make_service(data_dir, clock, model)
    assert service.settings.query_planner == "auto"
    assert retrieval_of(run(service, "How is my cat doing these days?")).reason == f"planned by {expected}"
    assert len(model.json_calls) == (1 if expected == "llm" else 0)


def test_greetings_skip_the_planner_call(data_dir, clock):
    model = ScriptedChatModel(replies("Hi!"), json_script=lambda system, user, schema: PLAN)
    service = make_service(data_dir, clock, model)
    service.update_settings(query_planner="llm")
    assert retrieval_of(run(service, "Hello!")).skipped
    assert model.json_calls == []


def test_a_model_with_tools_that_does_not_call_one_still_gets_the_request_kept(data_dir, clock):
    model = ScriptedChatModel(replies("Sure, I'll remember that!"), budget_family="remote", native_tools=True)
    service = make_service(data_dir, clock, model)
    run(service, "Please remember that my gym locker is number 317.")
    assert "317" in service.read_memory("Ark", "core_memory")
    reply = service.conversation("Ark")[-1].text
    assert reply.startswith("🛠️") and reply.endswith("Sure, I'll remember that!")


def test_a_model_that_calls_the_tool_is_not_doubled(data_dir, clock):
    script_steps = iter([[ToolCall("edit_core_memory", {"content": "Gym locker: 317", "mode": "append"}, "c1")],
                         "Noted, locker 317."])
    model = ScriptedChatModel(lambda m, t: next(script_steps), budget_family="remote", native_tools=True)
    service = make_service(data_dir, clock, model)
    run(service, "Please remember that my gym locker is number 317.")
    assert service.read_memory("Ark", "core_memory").count("317") == 1


def test_a_kept_note_is_announced_in_the_users_language(data_dir, clock):
    model = ScriptedChatModel(replies("好的，我记住了。"))
    service = make_service(data_dir, clock, model)
    events = list(service.send("Ark", "帮我记一下：我的比赛号码是 A1024。"))
    assert [e.text for e in events if e.kind == "tool"] == ["🛠️ 已记入核心记忆"]
    assert "A1024" in service.read_memory("Ark", "core_memory")


def test_a_correction_the_model_cannot_restate_is_left_with_both_versions_and_not_asked_again_each_turn(data_dir, clock):
    # 「金曜」 named by the model is not in the note's 「（金）」: asked again after every later turn (a new user, session 48)
    asked = []

    def json_script(system, user, schema):
        asked.append("old" in schema["properties"])
        return '{"old": "Monday", "new": "Friday"}' if "old" in schema["properties"] else '{"category": "calm", "intensity": 0.3}'

    model = ScriptedChatModel(replies("Noted!", "Friday it is.", "Sure.", "Sure."), json_script=json_script)
    service = make_service(data_dir, clock, model)
    run(service, "Can you note that my dentist appointment is on Thursday at 4pm?")
    run(service, "Oh wait, sorry: it's been moved to Friday, same time.")
    service.wait_for_background_work("Ark")
    for text in ("How was your day?", "I had soup."):
        run(service, text)
        service.wait_for_background_work("Ark")
    core = service.read_memory("Ark", "core_memory")
    assert "Thursday" in core and "moved to Friday" in core and asked.count(True) == 1
