"""Rolling conversation compression: a long sitting's turns that leave the history window are
folded into a running summary shown before the window, each turn once; a new sitting starts afresh."""
import json
import re
from datetime import timedelta

from agent.conversation_summary import live_session
from agent.providers.fake import ScriptedChatModel
from managers.chat_log import LogEntry
from persona.service import NexusService
from tests.conftest import StepClock


def test_the_sitting_in_progress_starts_after_the_last_long_pause():
    t0 = StepClock().now
    entries = [LogEntry("USER", "Mina", "old", "a", t0), LogEntry("AGENT", "Ark", "old reply", "b", t0 + timedelta(minutes=1)),
               LogEntry("USER", "Mina", "new", "c", t0 + timedelta(hours=3)),
               LogEntry("SYSTEM", "edit", "x", "d", t0 + timedelta(hours=3, minutes=1)),
               LogEntry("AGENT", "Ark", "new reply", "e", t0 + timedelta(hours=3, minutes=2))]
    just_after = t0 + timedelta(hours=3, minutes=3)
    assert [e.id for e in live_session(entries, just_after)] == ["c", "e"]
    assert live_session([], just_after) == []


def test_a_sitting_is_over_once_the_pause_after_it_is_long():
    t0 = StepClock().now
    entries = [LogEntry("USER", "Mina", "hi", "a", t0), LogEntry("AGENT", "Ark", "hello", "b", t0 + timedelta(minutes=1))]
    gap = timedelta(minutes=30)
    assert [e.id for e in live_session(entries, t0 + timedelta(minutes=31), gap)] == ["a", "b"]
    assert live_session(entries, t0 + timedelta(minutes=32), gap) == []


def _long_sitting(data_dir):
    """A sitting long enough that its first turns leave the history window and are folded."""
    clock = StepClock()
    folds: list[list[str]] = []

    def json_script(system, user, schema):
        if "summary" in schema["properties"] and "sessions" not in schema["properties"]:
            new = user.split("New turns:\n", 1)[1].splitlines()
            folds.append(new)
            return json.dumps({"summary": f"Notes through turn {len(folds)}: " + "; ".join(l[:12] for l in new)})
        return '{"category": "neutral", "intensity": 0.2}'  # the emotion after each reply

    def reply(messages, tools):
        return f"Reply {len(model.calls)}: " + "that sounds good " * 25

    model = ScriptedChatModel(reply, json_script=json_script)
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    service.warm_up()
    for turn in range(14):
        list(service.send("Ark", f"Message {turn}: " + "I am telling you about my day " * 12))
        service.wait_for_background_work("Ark")
    return service, model, clock, folds


def test_a_long_sitting_keeps_its_start_in_a_running_summary_and_a_new_sitting_starts_afresh(data_dir):
    service, model, clock, folds = _long_sitting(data_dir)
    assert folds, "the window overflowed, so some turns were folded"
    folded = [line for fold in folds for line in fold]
    assert folded[0].startswith("User: Message 0") or folded[0].split(": ", 1)[1].startswith("Message 0")
    assert len(folded) == len(set(folded))  # each turn folded once
    system = model.calls[-1][0][0].content
    assert "# Earlier in this conversation\nNotes through turn" in system
    history = "\n".join(m.content for m in model.calls[-1][0][1:])
    first_in_window = min(int(n) for n in re.findall(r"Message (\d+)", history))
    assert first_in_window > 0 and any(f"Message {first_in_window - 1}" in line for line in folded)

    clock.now += timedelta(hours=3)  # the next evening: a new sitting
    list(service.send("Ark", "Hello again!"))
    assert "Earlier in this conversation" not in model.calls[-1][0][0].content


def test_when_the_sitting_ends_the_scheduler_prepares_the_next_prompt_without_its_summary(data_dir):
    service, model, clock, _ = _long_sitting(data_dir)
    assert "Earlier in this conversation" in model.warmed[-1][0].content
    assert service.keep_warm() is False  # the after-turn warm-up's prefix is still the next one

    clock.now += timedelta(hours=3)  # the user went away; the scheduler looks meanwhile (no night due)
    warm_ups = len(model.warmed)
    service.update_settings(sleep_enabled=False)
    assert service.sleep_tick(clock.now) == [] and len(model.warmed) == warm_ups + 1
    warmed = model.warmed[-1]
    assert "Earlier in this conversation" not in warmed[0].content
    assert service.keep_warm() is False  # once is enough

    list(service.send("Ark", "Hello again!"))
    assert model.calls[-1][0][: len(warmed)] == warmed  # the reply found its prefix evaluated
