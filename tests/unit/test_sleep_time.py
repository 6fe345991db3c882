"""A night's sleep-time work through the facade, on a scripted model: the days become episodes
once, a changed day is redone in place, a reply stops the work and the rest resumes, and the
scheduler's look runs it only when due."""
import json
import re
from datetime import datetime, timedelta, timezone

import pytest

import constants
from agent.providers.fake import ScriptedChatModel, replies
from managers.personas import PersonaError
from persona.service import NexusService
from tests.conftest import StepClock, quiet_dream

DAY = datetime(2026, 3, 14, 20, 0, tzinfo=timezone.utc)


def answer_for(days: list[str], arousal: float = 0.7):
    """A scripted JSON answer per call: one rating per session in the prompt, a summary naming the day."""
    def script(system, user, schema):
        if {"insight", "open"} & set(schema["properties"]):  # the night's dream (tests/unit/test_dream.py)
            return quiet_dream()
        if "entities" in schema["properties"]:  # the night's entity step (tests/unit/test_entity_sleep.py)
            return json.dumps({"entities": []})
        if "entry" in schema["properties"]:  # the night's diary entry, written from the day's episode
            return json.dumps({"entry": f"I keep thinking of {user.splitlines()[0][len('Your memory of '):-1]}."})
        days.append(user.splitlines()[0])
        sessions = user.count("## Session ")
        return json.dumps({"sessions": [{"arousal": arousal}] * sessions,
                           "summary": f"Mina told me about her novel. {user.splitlines()[0]}"})
    return script


def make(data_dir, clock, days, tz=timezone.utc):
    model = ScriptedChatModel(replies("ok"), json_script=answer_for(days))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    service.update_settings(user_name="Mina")
    return service, model


def talk(service, clock, when, *texts):
    clock.now = when
    log = service.session("Ark").chat_log
    for i, text in enumerate(texts):
        log.append("USER" if i % 2 == 0 else "AGENT", "Mina" if i % 2 == 0 else "Ark", text)


def test_finished_days_become_episodes_once_and_a_changed_day_is_redone_in_place(data_dir):
    clock, asked = StepClock(DAY), []
    service, model = make(data_dir, clock, asked)
    talk(service, clock, DAY, "I finished my novel today!", "Congratulations!")
    talk(service, clock, DAY + timedelta(days=1), "Back at work.", "How was it?")
    clock.now = DAY + timedelta(days=1, hours=6)  # 02:00 on the 16th
    report = service.sleep_now("Ark")
    assert report.written == ["episode 2026-03-15", "episode 2026-03-14", "diary 2026-03-15", "diary 2026-03-14",
                              "dream 2026-03-16 (level 1)"]
    # each day: its episode (the user's part asked both ways), its diary entry, then its entities; then the
    # night's one dream (nothing said lies ahead and no question is open: no questions' ask)
    assert not report.problems and report.model_calls == 9 and not report.stopped
    episodes = service.episodes("Ark")
    assert [e.id for e in episodes] == ["episode_2026-03-14_001", "episode_2026-03-15_001"]
    assert episodes[0].arousal == 0.7 and "novel" in episodes[0].summary
    arousal = json.loads((data_dir / "characters/Ark/memory/session_arousal.json").read_text())
    assert [(a["date"], a["session"], a["arousal"]) for a in arousal] == [("2026-03-14", 1, 0.7), ("2026-03-15", 1, 0.7)]
    assert service.sleep_state("Ark").last_done_night == "2026-03-16"

    assert service.sleep_now("Ark").written == []  # nothing changed: nothing asked again
    assert len(asked) == 4  # the two days, each asked both ways, once
    talk(service, clock, DAY + timedelta(hours=2), "Oh, and I named the lighthouse keeper Ida.")
    clock.now = DAY + timedelta(days=2, hours=6)
    assert service.sleep_now("Ark").written == ["episode 2026-03-14"]  # the 14th changed (its diary stays); the 16th is not over
    assert [e.id for e in service.episodes("Ark")] == ["episode_2026-03-14_001", "episode_2026-03-15_001"]


def test_a_reply_stops_the_night_and_the_rest_follows_later(data_dir):
    clock, asked = StepClock(DAY), []
    service, model = make(data_dir, clock, asked)
    for day in range(3):
        talk(service, clock, DAY + timedelta(days=day), f"Day {day} news.", "Nice!")
    clock.now = DAY + timedelta(days=3, hours=6)
    calls = []
    original = model.json_script

    def busy_after_first(system, user, schema):
        calls.append(1)
        if len(calls) == 2:  # a reply arrives while the first day is written (its second ask)
            service._replying = 1
        return original(system, user, schema)
    model.json_script = busy_after_first
    first = service.sleep_now("Ark")
    assert first.stopped and first.written == ["episode 2026-03-16"]
    assert list(first.step_seconds) == ["episodes"]  # the report times the steps this run took up
    assert service.sleep_state("Ark").last_done_night == ""
    service._replying = 0
    model.json_script = original
    rest = service.sleep_now("Ark")
    assert not rest.stopped and rest.written == ["episode 2026-03-15", "episode 2026-03-14", "diary 2026-03-16",
                                                 "diary 2026-03-15", "diary 2026-03-14", "dream 2026-03-18 (level 1)"]
    assert list(rest.step_seconds) == ["episodes", "diary", "weeks", "entities", "dream"]
    assert all(seconds >= 0 for seconds in rest.step_seconds.values())
    assert len(service.episodes("Ark")) == 3


def test_an_unusable_answer_is_reported_and_the_day_is_asked_again_next_night(data_dir):
    clock = StepClock(DAY)
    model = ScriptedChatModel(replies("ok"), json_script=lambda s, u, schema: '{"sessions": [], "summary": ""}')
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    talk(service, clock, DAY, "A day.", "Yes.")
    clock.now = DAY + timedelta(days=1, hours=6)
    report = service.sleep_now("Ark")
    assert report.written == [] and "not a usable summary" in report.problems[0]
    assert service.episodes("Ark") == []


def test_the_schedulers_look_runs_a_night_only_when_due(data_dir):
    clock, asked = StepClock(DAY), []
    service, _ = make(data_dir, clock, asked)
    talk(service, clock, DAY, "Evening chat.", "Lovely.")
    night = datetime(2026, 3, 15, 1, 0, tzinfo=timezone.utc)  # inside 00:00-07:00, idle since 20:00
    assert service.sleep_tick(datetime(2026, 3, 14, 20, 10, tzinfo=timezone.utc)) == []  # still talking
    [report] = service.sleep_tick(night)
    assert report.written == ["episode 2026-03-14", "diary 2026-03-14", "dream 2026-03-15 (level 1)"]
    assert service.sleep_tick(night + timedelta(hours=2)) == []  # done tonight
    service.update_settings(sleep_enabled=False)
    assert service.sleep_tick(night + timedelta(days=1)) == []


def test_the_users_edit_of_an_episode_is_kept_when_the_day_changes(data_dir):
    clock, asked = StepClock(DAY), []
    service, _ = make(data_dir, clock, asked)
    talk(service, clock, DAY, "I finished my novel today!", "Congratulations!")
    clock.now = DAY + timedelta(days=1, hours=6)
    service.sleep_now("Ark")
    edited = service.save_episode("Ark", "episode_2026-03-14_001", "Mina finished her novel. I was so proud.")
    assert edited.user_edited
    talk(service, clock, DAY + timedelta(hours=1), "One more thing about that day.")
    clock.now = DAY + timedelta(days=2, hours=6)
    service.sleep_now("Ark")
    [episode] = [e for e in service.episodes("Ark") if e.date == "2026-03-14"]
    assert episode.summary == "Mina finished her novel. I was so proud."
    with pytest.raises(PersonaError, match="needs some text"):
        service.save_episode("Ark", "episode_2026-03-14_001", "  ")


def test_episodes_of_the_days_before_the_history_window_reach_the_prompt(data_dir):
    clock, asked = StepClock(DAY), []
    service, model = make(data_dir, clock, asked)
    for day in range(6):  # long days: the history window holds only the last of them
        talk(service, clock, DAY + timedelta(days=day), *[f"Day {day} message {i}: " + "words " * 80 for i in range(6)])
    clock.now = DAY + timedelta(days=5, hours=8)  # 04:00 on the 20th: six finished days
    service.sleep_now("Ark")
    assert len(service.episodes("Ark")) == 6
    list(service.send("Ark", "Good morning!"))
    system = model.calls[-1][0][0].content
    assert "# Earlier days (your episodes)" in system
    window_first_day = min(e.ts for e in service.session("Ark").chat_log.view()
                           if e.text.startswith("Day") and e.text.split(":")[0] in model.calls[-1][0][1].content)
    shown = [line for line in system.splitlines() if re.match(r"- \[\d+ March 2026\]", line)]
    days_shown = [int(re.match(r"- \[(\d+)", line).group(1)) for line in shown]
    assert shown and all(day < window_first_day.day for day in days_shown) and window_first_day.month == 3
    assert all("★" in line for line in shown)  # every scripted day was rated 0.7
    assert days_shown[-1] == window_first_day.day - 1  # the newest kept


def three_long_days_slept(data_dir):
    """A persona with three long days talked and the night after them done (each day its episode)."""
    clock, asked = StepClock(DAY), []
    service, model = make(data_dir, clock, asked)
    for day in range(3):
        talk(service, clock, DAY + timedelta(days=day), *[f"Day {day} message {i}: " + "words " * 80 for i in range(6)])
    clock.now = DAY + timedelta(days=2, hours=8)
    service.sleep_now("Ark")
    return service, model


def test_with_no_days_of_episodes_set_in_the_personas_settings_the_prompt_shows_none(data_dir):
    service, model = three_long_days_slept(data_dir)
    list(service.send("Ark", "Good morning!"))
    assert "# Earlier days (your episodes)" in model.calls[-1][0][0].content
    service.update_persona_settings("Ark", "Ark (アーク)", "ja/en", 0)
    list(service.send("Ark", "Good morning again!"))
    assert "# Earlier days (your episodes)" not in model.calls[-1][0][0].content


def test_after_a_night_the_next_turn_starts_with_a_prefix_already_read(data_dir):
    clock, asked = StepClock(DAY), []
    service, model = make(data_dir, clock, asked)
    for day in range(6):
        talk(service, clock, DAY + timedelta(days=day), *[f"Day {day} message {i}: " + "words " * 80 for i in range(6)])
    service.warm_up()  # the app's start: the model ready, the persona current
    clock.now = DAY + timedelta(days=5, hours=8)
    assert service.sleep_now("Ark").written
    service.wait_for_background_work("Ark")  # hours pass before the user is back: the app has re-read
    warmed = model.warmed[-1]
    assert "# Earlier days (your episodes)" in warmed[0].content  # the night's episodes, already read
    list(service.send("Ark", "Good morning!"))
    assert model.calls[-1][0][:len(warmed)] == warmed


def test_episodes_older_than_sixty_days_become_one_a_week_and_are_not_written_again(data_dir):
    clock = StepClock(DAY)
    weeks_asked = []

    def script(system, user, schema):
        if "sessions" in schema["properties"]:
            return json.dumps({"sessions": [{"arousal": 0.3}] * user.count("## Session "), "summary": "A day with Mina."})
        if "entities" in schema["properties"]:
            return json.dumps({"entities": []})
        if {"insight", "open"} & set(schema["properties"]):
            return quiet_dream()
        if "entry" in schema["properties"]:
            return json.dumps({"entry": "A calm evening with Mina."})
        weeks_asked.append(user)
        return json.dumps({"summary": "A calm week: Mina wrote every evening."})
    model = ScriptedChatModel(replies("ok"), json_script=script)
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    monday = datetime(2026, 3, 16, 20, 0, tzinfo=timezone.utc)  # a Monday
    for day in (0, 2, 4):
        talk(service, clock, monday + timedelta(days=day), f"Evening {day}.", "Nice.")
    service.sleep_now("Ark", now=monday + timedelta(days=5, hours=6))
    assert len(service.episodes("Ark")) == 3
    later = monday + timedelta(days=70)
    report = service.sleep_now("Ark", now=later)
    assert report.written == ["week 2026-03-16~2026-03-20"]
    [week] = service.episodes("Ark")
    assert week.compressed and week.original_count == 3 and week.id == "episode_2026-03-16~2026-03-20_001"
    assert week.arousal_avg == 0.3 and "calm week" in week.summary
    assert weeks_asked[0].count("[2026-03-") == 3
    assert service.sleep_now("Ark", now=later + timedelta(days=1)).written == []  # its days are not written again


def _long_history_with_episodes(data_dir, budget_family, reply):
    clock, asked = StepClock(DAY), []
    model = ScriptedChatModel(replies(reply), budget_family=budget_family, json_script=answer_for(asked, arousal=0.3))
    # a window of the local model's size for both (the remote one's would hold every day)
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model,
                           prompt_budgets={"history": constants.PROMPT_BUDGETS["local"]["history"]})
    service.update_settings(user_name="Mina")
    for day in range(4):  # long days: the window holds the last one only
        talk(service, clock, DAY + timedelta(days=day), *[f"Day {day} message {i}: " + "words " * 80 for i in range(6)])
    clock.now = DAY + timedelta(days=3, hours=8)
    service.sleep_now("Ark")
    return service, clock


def test_a_reply_that_draws_on_an_earlier_day_makes_that_episode_more_vivid(data_dir):
    service, clock = _long_history_with_episodes(
        data_dir, "local", "Your novel! Mina told me about her novel, how is the novel going?")
    before = {e.id: e.arousal for e in service.episodes("Ark")}
    list(service.send("Ark", "Guess what I did today?"))
    service.wait_for_background_work("Ark")
    after = {e.id: e.arousal for e in service.episodes("Ark")}
    moved = [i for i in after if after[i] != before[i]]
    assert moved == ["episode_2026-03-14_001", "episode_2026-03-15_001", "episode_2026-03-16_001"]  # the days shown
    assert all(after[i] == pytest.approx(0.3 + 0.2 * (0.7 - 0.3)) for i in moved)
    traces = [json.loads(l) for l in (data_dir / "characters/Ark/memory/memory_traces.jsonl").read_text().splitlines()]
    assert {t["episode"] for t in traces} == set(moved) and all(t["source"] == "words" for t in traces)
    assert all(t["resonance"] == 0.7 for t in traces)


def test_a_capable_models_trace_tag_moves_the_episode_it_names_if_it_was_shown(data_dir):
    reply = ('That reminds me of your novel! <memory_trace id="episode_2026-03-14_001" resonance="1.0"/>'
             '<memory_trace id="episode_1999-01-01_001" resonance="1.0"/>')
    service, clock = _long_history_with_episodes(data_dir, "remote", reply)
    list(service.send("Ark", "Guess what I did today?"))
    service.wait_for_background_work("Ark")
    [traced] = [e for e in service.episodes("Ark") if e.id == "episode_2026-03-14_001"]
    assert traced.arousal == pytest.approx(0.3 + 0.2 * (1.0 - 0.3))
    traces = [json.loads(l) for l in (data_dir / "characters/Ark/memory/memory_traces.jsonl").read_text().splitlines()]
    assert [(t["episode"], t["source"]) for t in traces] == [("episode_2026-03-14_001", "tag")]


def test_a_deleted_episode_stays_deleted_and_a_sitting_past_midnight_stays_with_its_evening(data_dir):
    clock, asked = StepClock(DAY), []
    service, _ = make(data_dir, clock, asked)
    late = DAY.replace(hour=23, minute=50)
    talk(service, clock, late, "Still up, writing.", "Don't stay up too late!", "Just one more chapter.")
    clock.now = DAY + timedelta(days=1, hours=6)
    service.sleep_now("Ark")
    assert [e.date for e in service.episodes("Ark")] == ["2026-03-14"]  # the 00:00 message joined its evening
    service.delete_episode("Ark", "episode_2026-03-14_001")
    assert service.episodes("Ark") == []
    talk(service, clock, DAY + timedelta(hours=1), "A message added to that day later.")
    clock.now = DAY + timedelta(days=2, hours=6)
    assert service.sleep_now("Ark").written == []
    assert service.episodes("Ark") == []


def test_a_day_the_user_said_nothing_on_makes_no_episode(data_dir):
    clock, asked = StepClock(DAY), []
    service, _ = make(data_dir, clock, asked)
    clock.now = DAY
    service.session("Ark").chat_log.append("AGENT", "Ark", "Are you there? I missed you today.")
    clock.now = DAY + timedelta(days=1, hours=6)
    assert service.sleep_now("Ark").written == [] and asked == []


def test_a_crash_before_the_days_session_arousal_is_written_leaves_no_day_without_it(data_dir, monkeypatch):
    """The day's episode marks the day done, so it is written last: a crash (kill -9, bench sleep-crash)
    after the episode and before the day's session ratings left that day without them for good."""
    from persona import episodes_job

    clock, asked = StepClock(DAY), []
    service, _ = make(data_dir, clock, asked)
    talk(service, clock, DAY, "I finished my novel today!", "Congratulations!")
    clock.now = DAY + timedelta(days=1, hours=6)

    class Crash(Exception):
        pass

    def crash(*args):
        raise Crash()
    real = episodes_job.write_session_arousal
    monkeypatch.setattr(episodes_job, "write_session_arousal", crash)
    with pytest.raises(Crash):
        service.sleep_now("Ark")
    monkeypatch.setattr(episodes_job, "write_session_arousal", real)
    service.sleep_now("Ark")  # the restart resumes the night
    arousal = json.loads((data_dir / "characters/Ark/memory/session_arousal.json").read_text())
    assert [(a["date"], a["session"]) for a in arousal] == [("2026-03-14", 1)]
    assert [e.id for e in service.episodes("Ark")] == ["episode_2026-03-14_001"]


def test_the_nights_ask_dates_what_the_user_called_yesterday_and_the_log_keeps_their_words(data_dir):
    clock, asked = StepClock(DAY), []
    service, model = make(data_dir, clock, asked)
    talk(service, clock, DAY, "Yesterday I climbed Mount Tsukuba.", "How was the view?",
         "来週、京都に行くよ。", "いいですね！", "Today's plan: nothing at all.")
    clock.now = DAY + timedelta(days=1, hours=6)
    service.sleep_now("Ark")
    day_asks = [user for user in model.json_calls if "## Session " in user]
    assert day_asks
    for ask in day_asks:
        assert "13 March 2026 I climbed Mount Tsukuba" in ask and "Yesterday" not in ask
        assert "2026年3月14日の次の週、京都に行くよ" in ask
        assert "14 March 2026's plan" in ask  # "Today's": the day it was said
    texts = [e.text for e in service.session("Ark").chat_log.entries()]
    assert "Yesterday I climbed Mount Tsukuba." in texts and "来週、京都に行くよ。" in texts


def test_an_episodes_dates_reach_the_prompt_with_their_year(data_dir):
    # §5 with episodes, session 32: "the Friday before June 24th" in an episode was answered "June 24th"
    service, model = three_long_days_slept(data_dir)
    service.save_episode("Ark", "episode_2026-03-14_001", "Mina baked bread the Friday before March 13th. "
                                                           "She starts her course on 2 January.")
    list(service.send("Ark", "Good morning!"))
    system = model.calls[-1][0][0].content
    assert "the Friday before 13 March 2026" in system and "on 2 January 2026" in system
    assert [e.summary for e in service.episodes("Ark") if e.date == "2026-03-14"] == [
        "Mina baked bread the Friday before March 13th. She starts her course on 2 January."]  # the store keeps its words


def test_a_recalled_episode_has_its_dates_years_and_the_prompts_own_days_are_not_recalled_again():
    from agent.retrieval import RetrievalResult, RetrievedItem
    from persona.session import _recalled_episodes_for_prompt
    items = (RetrievedItem("[2022-06-24] Episode: Nate made ice cream the Friday before June 24th.", "episodic_memory", 0.5, ""),
             RetrievedItem("[2022-06-20~2022-06-26] Episode: A week: 6月3日に映画を見た。", "episodic_memory", 0.4, ""),
             RetrievedItem("[2022-07-01] Episode: Joanna wrote all day.", "episodic_memory", 0.4, ""),
             RetrievedItem("[1 July 2022] Nate: See you on July 3rd!", "current_log", 0.3, ""))
    shown = _recalled_episodes_for_prompt(RetrievalResult(False, "", items, "factual"), {"2022-07-01"})
    assert [i.text for i in shown.items] == [
        "[2022-06-24] Episode: Nate made ice cream the Friday before 24 June 2022.",
        "[2022-06-20~2022-06-26] Episode: A week: 2022年6月3日に映画を見た。",
        "[1 July 2022] Nate: See you on July 3rd!"]  # a message's own words are left as said


def test_sleep_now_asked_during_a_reply_waits_for_it_instead_of_stopping_at_once(data_dir):
    import threading
    import time

    clock, asked = StepClock(DAY), []
    service, _ = make(data_dir, clock, asked)
    talk(service, clock, DAY, "I finished my novel today!", "Congratulations!")
    clock.now = DAY + timedelta(hours=6)  # 02:00 on the 15th
    service._replying = 1  # a long reply is still being written when "Sleep now" is pressed
    threading.Timer(0.5, lambda: setattr(service, "_replying", 0)).start()
    seen = []
    started = time.monotonic()
    report = service.sleep_now("Ark", lambda what, done: seen.append(what), wait_for_reply_s=10)
    assert not report.stopped and "episode 2026-03-14" in report.written
    assert seen[0].startswith("Waiting for the reply") and time.monotonic() - started >= 0.5


def test_sleep_now_shows_each_model_call_as_it_starts(data_dir):
    # "Writing the day's episodes - 0.0%" stood for 150 s of a new user's "Sleep now" (session 48)
    clock, asked = StepClock(DAY), []
    service, model = make(data_dir, clock, asked)
    talk(service, clock, DAY, "I finished my novel today!", "Congratulations!")
    clock.now = DAY + timedelta(days=1, hours=2)
    shown = []
    report = service.sleep_now("Ark", progress=lambda what, done: shown.append((what, done)))
    calls = [what for what, _ in shown if "model call" in what]
    assert len(calls) == report.model_calls and calls[0] == "Writing the day's episodes (model call 1)"
    assert [done for _, done in shown] == sorted(done for _, done in shown)  # never goes back
