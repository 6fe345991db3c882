"""The crash bench's checks (bench/sleep_crash_bench.py): a torn or undecodable file is flagged and a
temp file a write left behind is counted, not read; a duplicated, lost or stray episode, a diary day
written twice and a repeated dream or entity line are flagged; the step a kill landed in is read from
the night's state; and a whole scripted night, as the app writes it, passes every check."""
import json
from datetime import datetime, timezone

from agent.providers.fake import ScriptedChatModel, night_answers, replies
from bench import sleep_crash_bench as bench
from bench.synthetic_history import seed_history
from persona.service import NexusService
from persona.sleep import STEP_NAMES


def test_a_torn_json_file_an_undecodable_text_and_a_torn_backup_are_flagged_and_temp_files_counted(tmp_path):
    memory = tmp_path / "characters/Ark/memory"
    (memory / "entities").mkdir(parents=True)
    (memory / "episodic_memory.json").write_text('[{"id": "episode_2026-10-30_001"}]')
    (memory / "goals.json").write_text('{"short_term": [{"id": "sh_1", "goal": "Ask ab')  # torn mid-write
    (memory / "entities" / "Ken.md").write_bytes(b"# Entity Memory: Ken\n\xff\xfe")
    (memory / ".episodic_memory.json.x1y2.tmp").write_text('[{"id": "episode_2026-10-30_0')  # never read as data
    (memory / ".episodic_memory.json.lock").write_text("")
    (memory / "activity.jsonl").write_text('{"a": 1}\n{"b": \n')
    backups = tmp_path / "characters/Ark/backups/memory"
    backups.mkdir(parents=True)
    (backups / "insights.json.20261101T020000000000.bak").write_text("[{")
    quarantined = tmp_path / "characters/Ark/backups/quarantine/memory"
    quarantined.mkdir(parents=True)
    (quarantined / "open_questions.json.20261101T020000000000.corrupt").write_text("{")

    check = bench.check_files(tmp_path)
    flagged = sorted(problem.split(":")[0] for problem in check.problems)
    assert flagged == ["characters/Ark/backups/memory/insights.json.20261101T020000000000.bak",
                       "characters/Ark/memory/activity.jsonl", "characters/Ark/memory/entities/Ken.md",
                       "characters/Ark/memory/goals.json"]
    assert check.leftovers == ["characters/Ark/memory/.episodic_memory.json.x1y2.tmp"]
    assert check.quarantined == ["characters/Ark/backups/quarantine/memory/open_questions.json.20261101T020000000000.corrupt"]
    assert check.checked == 5


def test_a_duplicated_lost_or_stray_episode_is_flagged_and_milestones_and_weeks_are_not_days():
    days = ["2026-10-29", "2026-10-30", "2026-10-31"]
    good = [{"id": f"episode_{d}_001", "date": d, "summary": "…"} for d in days]
    milestone = {"id": "episode_2026-10-30_discovery_ab12", "date": "2026-10-30", "type": "discovery", "summary": "…"}
    week = {"id": "episode_2026-08-03~2026-08-09_001", "date": "2026-08-03~2026-08-09", "compressed": True}
    assert bench.episode_problems([*good, milestone, week], days) == []
    twice_by_id = [*good, dict(good[1])]
    assert "episode id episode_2026-10-30_001 is there 2 times" in bench.episode_problems(twice_by_id, days)
    twice_by_day = [*good, {"id": "episode_2026-10-30_002", "date": "2026-10-30"}]
    assert bench.episode_problems(twice_by_day, days) == ["day 2026-10-30 has 2 episodes"]
    assert bench.episode_problems(good[:2], days) == ["day 2026-10-31 has no episode (lost)"]
    stray = [*good, {"id": "episode_2026-10-28_001", "date": "2026-10-28"}]
    assert bench.episode_problems(stray, days) == ["episode of 2026-10-28, a day without conversation"]


def test_a_diary_day_twice_or_missing_a_repeated_dream_and_a_repeated_page_line_are_flagged():
    diary = "## 2026-10-30\nA quiet day.\n\n## 2026-10-31\nRain.\n\n## 2026-10-31\nRain again.\n"
    assert bench.diary_problems(diary, ["2026-10-29", "2026-10-30", "2026-10-31"]) == [
        "diary entry of 2026-10-31 is there 2 times", "diary has no entry of 2026-10-29"]
    dreams = [{"night": "2026-11-01", "insight": "a"}, {"night": "2026-11-01", "insight": "a"},
              {"night": "2026-11-02", "source_question": "q_1"}]
    page = "# Entity Memory: Tama\nCreated: 2026-11-01 02:00:00\n\n- [2026-10-30] Tama is the cat.\n- [2026-10-31] Tama is the cat.\n"
    problems = bench.inner_life_problems(dreams, {"short_term": [{"goal": "Ask"}], "completed": [{"goal": "ask "}]},
                                         [{"id": "q_1"}], {"proposals": [{"id": "2026-10-30:tama"}]}, {"Tama.md": page})
    assert problems == ["dream of night 2026-11-01 is there 2 times", "goal 'ask' is there 2 times",
                        "entity page Tama.md: 'tama is the cat.' is there 2 times"]


def test_the_step_a_kill_landed_in_is_read_from_the_nights_state():
    night = "2026-11-01"
    assert bench.step_at_kill({"last_done_night": "", "night_in_progress": ""}, night) == STEP_NAMES[0]
    assert bench.step_at_kill({"night_in_progress": "2026-10-31", "steps_done": ["episodes", "diary"]}, night) == "episodes"
    assert bench.step_at_kill({"night_in_progress": night, "steps_done": ["episodes", "diary"]}, night) == "weeks"
    assert bench.step_at_kill({"last_done_night": night}, night) == bench.AFTER_THE_WORK
    assert bench.state_problems({"last_done_night": night, "night_in_progress": ""}, night) == []
    assert bench.state_problems({"last_done_night": "", "night_in_progress": night}, night)


def test_a_whole_scripted_night_passes_every_check_and_a_copied_episode_does_not(tmp_path):
    data = tmp_path / "data"
    night = bench.night_of_round(0)
    model = ScriptedChatModel(replies("ok"), json_script=night_answers())
    service = NexusService(data, model_factory=lambda s, k, p: model)
    service.update_settings(user_name=bench.USER)
    root = service.session(bench.PERSONA).character.root
    seed_history(root / "logs", 3 * bench.PER_DAY, user=bench.USER, persona=bench.PERSONA,
                 end=datetime(2026, 11, 1, tzinfo=timezone.utc), per_day=bench.PER_DAY)
    service.session(bench.PERSONA).chat_log.invalidate()
    report = service.sleep_now(bench.PERSONA, now=night)
    assert not report.problems and not report.stopped
    days = bench.conversation_days(data, night)
    assert days == ["2026-10-29", "2026-10-30", "2026-10-31"]
    memory = root / "memory"
    assert bench.final_problems(memory, days, night.date().isoformat()) == []
    assert not bench.check_files(data).problems

    episodes = json.loads((memory / "episodic_memory.json").read_text())
    (memory / "episodic_memory.json").write_text(json.dumps(episodes + episodes[:1]))
    assert bench.final_problems(memory, days, night.date().isoformat()) == [
        f"episode id {episodes[0]['id']} is there 2 times", f"day {episodes[0]['date']} has 2 episodes"]


def test_a_day_a_compressed_week_holds_is_kept_and_one_also_kept_alone_is_a_duplicate():
    days = ["2026-08-03", "2026-08-04", "2026-10-31"]
    week = {"id": "episode_2026-08-03~2026-08-09_001", "date": "2026-08-03~2026-08-09", "compressed": True}
    recent = {"id": "episode_2026-10-31_001", "date": "2026-10-31"}
    assert bench.episode_problems([week, recent], days) == []
    again = {"id": "episode_2026-08-04_001", "date": "2026-08-04"}
    assert bench.episode_problems([week, again, recent], days) == ["day 2026-08-04 is in a week and has its own episode"]
