"""The drives (seed 004 §8) at their formulas' boundaries, with a fixed `now`; and the prompt's
"how you feel now" in the turn's tail, not its cached prefix."""
from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

import pytest

import constants
from agent.drives import (DriveInputs, boredom, compute_drives, curiosity, duration_words, feelings_lines, goal_drive,
                          narrative, relatedness)
from agent.providers.fake import ScriptedChatModel, replies
from managers.emotion_log import EmotionLog
from persona.service import NexusService
from tests.conftest import StepClock

NOW = datetime(2026, 1, 15, 12, 0, tzinfo=timezone.utc)


def test_boredom_is_a_log_curve_from_zero_to_one_at_a_day():
    assert boredom(None) == 0.0 and boredom(0) == 0.0 and boredom(-5) == 0.0
    assert boredom(constants.BOREDOM_SATURATION_MINUTES) == pytest.approx(1.0)
    assert boredom(constants.BOREDOM_SATURATION_MINUTES * 3) == 1.0  # capped
    assert boredom(60) == pytest.approx(math.log(7) / math.log(145), abs=1e-9)  # ≈ 0.39
    hour, three, twelve = boredom(60), boredom(180), boredom(720)
    assert hour < constants.DRIVE_PROMPT_THRESHOLD < three < twelve < 1.0
    assert boredom(120) - hour > boredom(720) - boredom(660)  # fast at first, then slow


def test_curiosity_is_the_most_pressing_question_halved_each_half_life():
    week = timedelta(days=constants.CURIOSITY_HALF_LIFE_DAYS)
    assert curiosity(NOW, []) == (0.0, "")
    assert curiosity(NOW, [(0.8, NOW, "初詣での雪の冷たさ")]) == (pytest.approx(0.8), "初詣での雪の冷たさ")  # the seed's example
    assert curiosity(NOW, [(0.8, NOW - week)])[0] == pytest.approx(0.4)
    assert curiosity(NOW, [(0.8, NOW + timedelta(days=2))])[0] == pytest.approx(0.8)  # a future time counts as now
    level, text = curiosity(NOW, [(0.9, NOW - 2 * week, "old"), (0.5, NOW, "new"), (1.7, NOW - 3 * week, "huge")])
    assert (level, text) == (pytest.approx(0.5), "new")  # 0.9/4 and 1.0/8 pull less; priority capped at 1
    assert curiosity(NOW, [(0.6, NOW)])[1] == ""  # a question given without its text


def test_the_goal_drive_is_the_top_goals_priority_and_relatedness_weight_times_intensity():
    assert goal_drive(None) == 0.0 and goal_drive(0.6) == 0.6 and goal_drive(3) == 1.0 and goal_drive(-1) == 0.0
    assert relatedness("protective", 0.9) == pytest.approx(0.81)  # the seed's example: ~0.8
    assert relatedness("anxious", 1.0) == 1.0 and relatedness("joy", 1.0) == pytest.approx(0.1)
    assert relatedness(None, 1.0) == 0.0 and relatedness("bliss", 1.0) == 0.0 and relatedness("anxious", 2) == 1.0
    assert set(constants.RELATEDNESS_WEIGHTS) == set(constants.EMOTION_CATEGORIES)


def test_the_dominant_drive_and_its_narrative_in_the_personas_language():
    drives = compute_drives(NOW, DriveInputs(last_user_at=NOW - timedelta(hours=5), questions=[(0.3, NOW, "猫の名前")],
                                             goal_priority=0.5, goal="詩を書く", emotion="protective", intensity=0.9))
    assert drives.dominant == "relatedness" and drives.levels["relatedness"] == pytest.approx(0.81)
    assert narrative(drives, "ja", "美帆") == "美帆を守りたいという気持ちがある。"
    assert narrative(drives, "en", "Miho") == "You feel protective of Miho."
    assert narrative(drives, "de", "Miho") == "You feel protective of Miho."  # others: English
    assert feelings_lines(drives, "ja", "美帆") == ("美帆を守りたいという気持ちがある。", "美帆と5時間話していなくて、少し退屈だ。",
                                                 "目標を進めたい: 詩を書く")  # ≥ 0.4, strongest first; curiosity 0.3 not
    nothing = compute_drives(NOW, DriveInputs())
    assert nothing.dominant == "" and narrative(nothing, "en", "Miho") == "" and feelings_lines(nothing, "en", "M") == ()
    tie = compute_drives(NOW, DriveInputs(goal_priority=0.5, emotion="anxious", intensity=0.5))
    assert tie.dominant == "goal"  # a tie goes to the earlier drive in constants.DRIVES
    assert [duration_words(m, "en") for m in (0.2, 59, 61, 47 * 60, 72 * 60)] == [
        "1 minute", "59 minutes", "1 hour", "47 hours", "3 days"]


def test_how_you_feel_is_in_the_turns_tail_and_never_in_the_cached_prefix(data_dir):
    clock = StepClock(NOW)
    model = ScriptedChatModel(lambda messages, tools: "Good to see you, Mina. How was your day?", budget_family="remote")
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model, after_turn_work=False)
    service.update_settings(user_name="Mina")
    session = service.session("Ark")
    session.chat_log.append("USER", "Mina", "See you tonight.")
    session.chat_log.append("AGENT", "Ark", "See you!")
    EmotionLog(session.character.memory_dir).append(NOW, "anxious", 0.8)
    clock.now = NOW + timedelta(hours=6)
    list(service.send("Ark", "I'm back."))
    messages = model.calls[-1][0]
    context = messages[-2].content
    assert context.startswith("# How you feel now\nYou are a little worried about Mina.\n"
                              "No talk with Mina for 6 hours: you are a little bored.")
    assert not any("How you feel now" in m.content for m in messages[:-2])
    list(service.send("Ark", "So, what's new?"))  # a minute later: bored no more
    context = model.calls[-1][0][-2].content
    assert "No talk with" not in context and "worried about Mina" in context

    session.open_questions = lambda: [(0.9, NOW, "Did Mina's interview go well?")]  # wired by the facade later
    session.top_goal = lambda: (0.3, "Write a poem")
    list(service.send("Ark", "Anything on your mind?"))
    context = model.calls[-1][0][-2].content
    assert "Something is on your mind: Did Mina's interview go well?" in context and "poem" not in context  # 0.3 < 0.4
    tokens = model.count_tokens(context.split("\n\n")[0])
    assert tokens <= constants.PROMPT_BUDGETS["remote"]["inner_state"]  # its own budget


def test_the_drives_read_the_personas_open_questions_and_goals(data_dir):
    clock = StepClock(NOW)
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: ScriptedChatModel(replies("ok")),
                           after_turn_work=False)
    session = service.session("Ark")
    before = session.drives(now=NOW)
    assert before.levels["curiosity"] == 0.0 and before.levels["goal"] == 0.0
    session.questions().add([("Did Mina's interview go well?", "", 0.8)], NOW - timedelta(days=7))
    service.add_goal("Ark", "Learn Mina's favourite songs", priority=1)
    after = session.drives(now=NOW)
    assert after.top_question == "Did Mina's interview go well?"
    assert after.levels["curiosity"] == pytest.approx(0.8 * 0.5 ** (7 / constants.CURIOSITY_HALF_LIFE_DAYS), abs=0.01)
    assert after.levels["goal"] == 1.0 and after.goal == "Learn Mina's favourite songs"


def test_the_embedded_model_is_not_told_how_it_feels(data_dir):
    # measured: the 1.5B model took "you are a little worried" as its reply's subject (constants.py)
    clock = StepClock(NOW)
    model = ScriptedChatModel(lambda messages, tools: "Welcome back, Mina!")
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model, after_turn_work=False)
    service.update_settings(user_name="Mina")
    EmotionLog(service.session("Ark").character.memory_dir).append(NOW, "anxious", 0.8)
    clock.now = NOW + timedelta(hours=6)
    list(service.send("Ark", "I'm back."))
    assert not any("How you feel now" in m.content for m in model.calls[-1][0])
    assert service.session("Ark").drives(now=clock.now).levels["relatedness"] > 0  # the dashboard still has them


def test_the_embedded_model_hears_its_open_question_on_the_first_message_after_a_silence_only(data_dir):
    clock = StepClock(NOW)
    model = ScriptedChatModel(lambda messages, tools: "Good to see you, Mina.")  # the embedded model's budgets
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model, after_turn_work=False)
    service.update_settings(user_name="Mina")
    session = service.session("Ark")
    session.chat_log.append("USER", "Mina", "My interview is tomorrow morning.")
    session.chat_log.append("AGENT", "Ark", "Good luck!")
    session.questions().add([("Did Mina's interview go well?", "", 0.8)], NOW)
    EmotionLog(session.character.memory_dir).append(NOW, "anxious", 0.8)
    clock.now = NOW + timedelta(hours=20)
    list(service.send("Ark", "Evening!"))
    context = model.calls[-1][0][-2].content
    assert "# On your mind\nSince you last talked, you have wondered: Did Mina's interview go well?" in context
    assert "How you feel now" not in context and "worried" not in context  # no drives lines on this model
    list(service.send("Ark", "What should I cook tonight?"))  # the conversation is going on
    assert "Did Mina's interview" not in model.calls[-1][0][-2].content
    clock.now += timedelta(minutes=constants.SESSION_GAP_MINUTES - 5)
    list(service.send("Ark", "Back again."))  # a short break is the same conversation
    assert "On your mind" not in model.calls[-1][0][-2].content
