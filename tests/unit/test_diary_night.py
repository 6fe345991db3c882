"""The night's main-diary entries on a scripted model: one call per day, from that day's episode,
in the day's language and the persona's voice; a day is never written twice; a reply stops the
work and the rest follows; the user's doings stay the user's."""
import json
from datetime import datetime, timedelta, timezone

from agent.providers.fake import ScriptedChatModel, replies
from managers.diaries import MAIN_DIARY, DiaryStore, entry_days
from persona.service import NexusService
from tests.conftest import StepClock, quiet_dream

DAY = datetime(2026, 3, 14, 20, 0, tzinfo=timezone.utc)


def make(data_dir, clock, entry_for):
    """`entry_for(system, user)` answers the diary's ask; the day's ask gets a summary naming the day's first line."""
    asked = []

    def script(system, user, schema):
        if {"insight", "open"} & set(schema["properties"]):  # the night's dream (tests/unit/test_dream.py)
            return quiet_dream()
        if "entities" in schema["properties"]:  # the night's entity notes: none here
            return json.dumps({"entities": []})
        if "entry" not in schema["properties"]:  # the day's ask: the user's words, one "- " line each
            first = next(line[2:] for line in user.splitlines() if line.startswith("- "))
            return json.dumps({"sessions": [{"arousal": 0.4}] * user.count("## Session "),
                               "summary": f"ユイさんが話してくれたこと：「{first}」"})
        asked.append((system, user))
        return entry_for(system, user)
    model = ScriptedChatModel(replies("ok"), json_script=script)
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    service.update_settings(user_name="ユイ")
    return service, asked


def talk(service, clock, when, *texts):
    clock.now = when
    for i, text in enumerate(texts):
        service.session("Ark").chat_log.append("USER" if i % 2 == 0 else "AGENT", "ユイ" if i % 2 == 0 else "Ark", text)


def diary(service):
    session = service.session("Ark")
    return DiaryStore(session.character.memory_dir, session.files)


def test_each_finished_day_gets_one_entry_from_its_episode_in_the_days_language(data_dir):
    clock = StepClock(DAY)
    service, asked = make(data_dir, clock, lambda s, u: json.dumps({"entry": "今日はユイさんと話せて嬉しかった。"}))
    service.save_memory("Ark", "system_prompt", "You are Ark, a gentle lighthouse keeper who loves the sea.")
    talk(service, clock, DAY, "初めてスパイスからカレーを作った！", "すごいね！")
    talk(service, clock, DAY + timedelta(days=1), "今日は雨だったよ。", "そうなんだ。")
    clock.now = DAY + timedelta(days=1, hours=6)
    report = service.sleep_now("Ark")
    assert [w for w in report.written if w.startswith("diary")] == ["diary 2026-03-15", "diary 2026-03-14"]
    [(system, user), _] = asked
    assert "gentle lighthouse keeper" in system and "Japanese" in system and "first person" in system
    assert user.startswith("Your memory of 2026-03-15:") and "2026年3月15日は雨だったよ。" in user  # the day's episode
    text = diary(service).read(MAIN_DIARY)
    assert entry_days(text) == ["2026-03-14", "2026-03-15"]  # in date order though written newest first
    assert text.count("今日はユイさんと話せて嬉しかった。") == 2

    assert not [w for w in service.sleep_now("Ark").written if w.startswith("diary")]
    talk(service, clock, DAY + timedelta(hours=1), "あ、ルーも手作りしたんだ。")  # the 14th changes: a new episode
    clock.now = DAY + timedelta(days=2, hours=6)
    service.sleep_now("Ark")
    assert [u[len("Your memory of "):][:10] for _, u in asked] == ["2026-03-15", "2026-03-14"]  # never twice
    assert entry_days(diary(service).read(MAIN_DIARY)) == ["2026-03-14", "2026-03-15"]


def test_a_day_the_persona_already_wrote_about_is_left_as_it_is(data_dir):
    clock = StepClock(DAY)
    service, asked = make(data_dir, clock, lambda s, u: json.dumps({"entry": "A quiet evening."}))
    talk(service, clock, DAY, "I painted all day.", "Lovely!")
    diary(service).add_entry(MAIN_DIARY, DAY.date(), "My own note of the day.")
    clock.now = DAY + timedelta(days=1, hours=6)
    service.sleep_now("Ark")
    assert asked == [] and diary(service).read(MAIN_DIARY).count("## 2026-03-14") == 1


def test_the_users_doings_stay_the_users_in_the_entry(data_dir):
    clock = StepClock(DAY)
    service, _ = make(data_dir, clock, lambda s, u: json.dumps(
        {"entry": "## 2026-03-14\n私は初めてスパイスからカレーを作りました。嬉しかった。"}))
    talk(service, clock, DAY, "初めてスパイスからカレーを作った！", "すごいね！")
    clock.now = DAY + timedelta(days=1, hours=6)
    service.sleep_now("Ark")
    text = diary(service).read(MAIN_DIARY)
    assert "ユイさんは初めてスパイスからカレーを作りました。嬉しかった。" in text
    assert "私は初めて" not in text and text.count("## 2026-03-14") == 1  # the model's own heading dropped


def test_the_users_doings_told_as_the_personas_by_its_name_stay_the_users(data_dir):
    # 「ARKは上司の森さんが話しやすい人で」: Yui's new boss given to the persona by name (bench nights, session 23)
    clock = StepClock(DAY)
    service, _ = make(data_dir, clock, lambda s, u: json.dumps(
        {"entry": "ARKは企画チームに異動して、上司が話しやすい人で安心した。Arkはユイさんの話を聞けて嬉しかった。"}))
    talk(service, clock, DAY, "企画チームに異動したよ。上司が話しやすい人で安心した。", "よかったね！")
    clock.now = DAY + timedelta(days=1, hours=6)
    service.sleep_now("Ark")
    text = diary(service).read(MAIN_DIARY)
    assert "ユイは企画チームに異動して、上司が話しやすい人で安心した。" in text  # her name where its was
    assert "Arkはユイさんの話を聞けて嬉しかった。" in text  # its own gladness stays its own


def test_a_reply_stops_the_diary_and_the_rest_follows_without_repeats(data_dir):
    clock = StepClock(DAY)
    service, asked = [None], []

    def busy_after_first(system, user):
        if user.startswith("Your memory of"):  # a diary entry (the night's entity step asks too)
            asked.append(user)
            service[0]._replying = 1  # a reply arrives while the entry is written
        return json.dumps({"entry": "A day to remember."})
    service[0], _ = make(data_dir, clock, busy_after_first)
    for day in range(3):
        talk(service[0], clock, DAY + timedelta(days=day), f"Day {day} news.", "Nice!")
    clock.now = DAY + timedelta(days=3, hours=6)
    first = service[0].sleep_now("Ark")  # the three episodes, the newest day's entry, then stopped
    assert first.stopped and first.written[-1] == "diary 2026-03-16" and len(asked) == 1
    for _ in range(3):  # the two other entries, then the night's last steps
        service[0]._replying = 0
        service[0].sleep_now("Ark")
    assert [u.splitlines()[0] for u in asked] == [f"Your memory of 2026-03-{d}:" for d in (16, 15, 14)]
    assert entry_days(diary(service[0]).read(MAIN_DIARY)) == ["2026-03-14", "2026-03-15", "2026-03-16"]
    assert service[0].sleep_state("Ark").last_done_night == "2026-03-18"


def test_an_unusable_answer_is_reported_and_asked_again_the_next_night(data_dir):
    clock = StepClock(DAY)
    answers = iter(['{"entry": ""}', '{"entry": "Better now."}'])
    service, asked = make(data_dir, clock, lambda s, u: next(answers))
    talk(service, clock, DAY, "A day.", "Yes.")
    clock.now = DAY + timedelta(days=1, hours=6)
    assert "diary 2026-03-14: the model's answer was not a usable entry" in service.sleep_now("Ark").problems
    assert diary(service).read(MAIN_DIARY) == ""
    clock.now = DAY + timedelta(days=2, hours=6)
    assert "diary 2026-03-14" in service.sleep_now("Ark").written


def test_an_entry_cut_off_by_the_answers_room_keeps_its_whole_sentences(data_dir):
    clock = StepClock(DAY)
    cut = '{ "entry": "I remember Mina telling me about her novel. It made me happy to hear her plans. She said the light'
    service, asked = make(data_dir, clock, lambda s, u: cut)
    talk(service, clock, DAY, "I finished the first chapter of my novel!", "That's wonderful!")
    clock.now = DAY + timedelta(days=1, hours=6)
    report = service.sleep_now("Ark")
    assert "diary 2026-03-14" in report.written and not [p for p in report.problems if p.startswith("diary")]
    written = diary(service).read(MAIN_DIARY)
    assert "It made me happy to hear her plans." in written and "She said the light" not in written
