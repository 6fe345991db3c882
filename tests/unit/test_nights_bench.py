"""The nights bench (bench/nights_bench.py): its automatic checks, the label matching, and a run on
a scripted model over a tiny LoCoMo conversation and a tiny Japanese script."""
import json
from dataclasses import replace
from datetime import date

import pytest

from agent.providers.fake import ScriptedChatModel, replies
from bench import nights_bench as nb

CONVERSATION = {
    "speaker_a": "Caroline", "speaker_b": "Melanie",
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [{"speaker": "Caroline", "dia_id": "D1:1", "text": "I went to a support group for my adoption plans. The next meeting is on Friday."},
                  {"speaker": "Melanie", "dia_id": "D1:2", "text": "I painted a lake sunrise with my kids."}],
    "session_2_date_time": "1:14 pm on 25 May, 2023",
    "session_2": [{"speaker": "Caroline", "dia_id": "D2:1", "text": "My counselling course starts next week."},
                  {"speaker": "Melanie", "dia_id": "D2:2", "text": "Wow, the course sounds great!"}],
}
SCRIPT = {
    "name": "ja-tiny", "user_name": "ユイ", "start": "2026-05-11T20:30:00+09:00",
    "steps": [{"user": "今日は弟の健太と餃子を作ったよ。", "persona": "楽しそうですね。"},
              {"sleep": True}, {"advance_hours": 23},
              {"user": "朝に川沿いを五キロ走った。", "persona": "すごいですね。"},
              {"sleep": True}],
}


@pytest.fixture
def locomo_file(tmp_path):
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps({"conversation": CONVERSATION, "qa": []}))
    return path


@pytest.fixture
def script_file(tmp_path):
    path = tmp_path / "ja-tiny.json"
    path.write_text(json.dumps(SCRIPT, ensure_ascii=False), encoding="utf-8")
    return path


def _field(kind, text, night="2023-05-08", source="tiny"):
    return nb.NightField(source, night, kind, text)


# --- the automatic checks ----------------------------------------------------------------------------
def test_each_check_flags_its_own_failure(locomo_file):
    source = nb.load_source(locomo_file)
    logs = nb.day_logs(source)
    ok = nb.check(_field("episode", "Caroline went to a support group about her adoption plans."), logs, source)
    empty = nb.check(_field("diary", "  "), logs, source)
    japanese = nb.check(_field("dream_insight", "キャロラインはサポートグループに行った。"), logs, source)
    invented = nb.check(_field("question", "How was the skiing trip to Norway with your brother?"), logs, source)
    assert ok.auto_ok and ok.day_language == "en" and ok.overlap >= 0.5
    assert not empty.non_empty and not empty.auto_ok
    assert empty.language_ok is False and empty.overlap_ok is False  # an empty field passes nothing
    assert japanese.non_empty and japanese.language == "ja" and not japanese.language_ok and not japanese.auto_ok
    assert invented.language_ok and not invented.overlap_ok and invented.overlap < 0.34


def test_a_field_is_checked_against_its_own_night_day_only(locomo_file):
    source = nb.load_source(locomo_file)
    logs = nb.day_logs(source)
    second_day = "Caroline's counselling course starts next week."
    assert nb.check(_field("episode", second_day, night="2023-05-25"), logs, source).overlap_ok
    assert not nb.check(_field("episode", second_day, night="2023-05-08"), logs, source).overlap_ok


def test_a_japanese_day_wants_japanese_fields(script_file):
    source = nb.load_source(script_file)
    logs = nb.day_logs(source)
    assert [d.isoformat() for d, _ in source.nights] == ["2026-05-11", "2026-05-12"]
    assert logs[date(2026, 5, 11)].language == "ja"
    japanese = nb.check(_field("diary", "ユイさんは弟の健太さんと餃子を作った。", "2026-05-11", "ja-tiny"), logs, source)
    english = nb.check(_field("diary", "Yui made dumplings with her brother Kenta.", "2026-05-11", "ja-tiny"), logs, source)
    assert japanese.auto_ok
    assert english.language == "en" and not english.language_ok


def test_a_night_without_its_episode_gives_an_empty_episode(locomo_file):
    source = nb.load_source(locomo_file, days=1)
    fields = nb.with_missing([_field("diary", "A good day.")], source)
    assert ("episode", "") in {(f.field, f.text) for f in fields}
    assert not any(f.field == "diary" and not f.text for f in fields)  # the night made that one
    assert {f.night for f in fields} == {"2023-05-08"}  # --days 1: the first night only


# --- the labels -----------------------------------------------------------------------------------
def test_labels_match_by_source_night_field_and_text(tmp_path, locomo_file):
    source = nb.load_source(locomo_file)
    logs = nb.day_logs(source)
    good = _field("episode", "Caroline went to a support group about her adoption plans.")
    wrong = _field("dream_insight", "キャロラインはサポートグループに行った。")
    path = tmp_path / "labels.json"
    path.write_text(json.dumps({"labels": [
        nb.label_record(good, "ok", "true to the day"),
        nb.label_record(wrong, "wrong_language", "Japanese on an English day"),
        nb.label_record(_field("diary", "An entry a re-run no longer writes."), "ok", "")]}))
    labels = nb.load_labels(path)
    rerun = _field("episode", "Caroline  went to a support group about her adoption plans.")  # spacing only
    changed = _field("dream_log_entry", "I dreamt of a lake at sunrise.")
    report = nb.score([nb.check(f, logs, source) for f in (rerun, wrong, changed)], labels)
    assert report["labels"]["matched"] == 2 and report["labels"]["unlabelled"] == 1 and report["labels"]["stale"] == 1
    assert report["labels"]["by_kind"]["episode"]["ok"] == 100.0
    assert report["labels"]["by_kind"]["dream_insight"] == {"labelled": 1, "ok": 0.0, "failures": {"wrong_language": 1},
                                                            "meets_target": False}
    assert report["agreement"]["agree"] == 100.0 and report["agreement"]["language_check"]["both"] == 1


def test_agreement_counts_where_the_checks_and_the_labels_part(tmp_path, locomo_file):
    source = nb.load_source(locomo_file)
    logs = nb.day_logs(source)
    # shares the day's words but gives the persona's painting to the user: the checks cannot see that
    misattributed = _field("episode", "Caroline painted a lake sunrise with her kids.")
    paraphrase = _field("dream_insight", "She is hopeful about becoming a mother.")  # true, few shared words
    path = tmp_path / "labels.json"
    path.write_text(json.dumps({"labels": [nb.label_record(misattributed, "misattributed", "Melanie painted it"),
                                           nb.label_record(paraphrase, "ok", "the adoption plans")]}))
    report = nb.score([nb.check(f, logs, source) for f in (misattributed, paraphrase)], nb.load_labels(path))
    assert report["agreement"]["agree"] == 0.0
    assert report["agreement"]["auto_ok_label_not"] == 1 and report["agreement"]["auto_not_label_ok"] == 1
    assert report["labels"]["by_kind"]["all"]["failures"] == {"misattributed": 1}


def test_an_unknown_label_is_refused(tmp_path):
    path = tmp_path / "labels.json"
    path.write_text(json.dumps({"labels": [{"source": "s", "night": "2023-05-08", "field": "episode",
                                            "hash": "x", "label": "fine"}]}))
    with pytest.raises(ValueError, match="fine"):
        nb.load_labels(path)
    with pytest.raises(ValueError):
        nb.label_record(_field("episode", "x"), "good", "")


# --- a run on a scripted model --------------------------------------------------------------------
def _night_answers(insights: dict[str, str]):
    """Answers to each ask of a night: the day's episode and diary from its first line, the dream's
    insight by the day it sees (`insights`), a goal and a question."""
    def answer(system, user, schema):
        props = schema["properties"]
        if "entities" in props:
            return json.dumps({"entities": [{"name": "Kenta", "kind": "person", "facts": ["Kenta is the user's brother."]}]})
        if "insight" in props:
            insight = next((text for day, text in insights.items() if day in user), "")
            return json.dumps({"trigger_topic": "the day", "insight": insight, "strategy": "", "log_entry": "",
                               "new_goals": [{"goal": "Ask Caroline about the support group", "term": "short_term", "priority": 2}],
                               "completed_goals": [], "abandoned_goals": [], "entity_updates": []})
        if "open" in props:  # the questions' ask: the first message's words left open
            words = " ".join(next(line[3:] for line in user.splitlines() if line.startswith("1. ")).split()[:5])
            return json.dumps({"open": [{"message": 1, "words": words, "question": f"What about {words}?"}],
                               "answered": []})
        if "entry" in props:
            return json.dumps({"entry": "Caroline went to a support group today."})
        return json.dumps({"sessions": [{"arousal": 0.5}] * user.count("## Session "),
                           "summary": "Caroline went to a support group about her adoption plans."})
    return answer


def test_a_live_run_lists_every_field_of_every_night_and_scores_it(locomo_file, tmp_path):
    model = ScriptedChatModel(replies("ok"), json_script=_night_answers({"2023-05-08": "Caroline is brave."}))
    out = tmp_path / "out"
    outcome = nb.evaluate(locomo_file, 1, out, tmp_path / "none.json", lambda: model)
    kinds = {c.field.field: c for c in outcome["checked"]}
    assert {"episode", "diary", "dream_insight", "dream_strategy", "dream_log_entry", "dream_trigger_topic", "goal",
            "question"} <= set(kinds)
    assert {c.field.night for c in outcome["checked"]} == {"2023-05-08"}
    assert kinds["episode"].auto_ok and not kinds["dream_log_entry"].non_empty  # the dream left it empty
    written = json.loads((out / "tiny-fields.json").read_text())
    assert written["nights"][0]["day"] == "2023-05-08" and all(f["label"] is None for f in written["fields"])
    assert (out / "tiny-memory" / "episodic_memory.json").is_file()
    # scored again offline from the kept folder: the same fields, and no model
    again = nb.evaluate(locomo_file, 1, out, tmp_path / "none.json", lambda: pytest.fail("no model offline"),
                        from_dir=out / "tiny-memory")
    assert sorted(c.field.key for c in again["checked"]) == sorted(c.field.key for c in outcome["checked"])
    # an episodes bench's folder has no fields file: its fields are read from the stores, dated by their days
    (out / "tiny-fields.json").unlink()
    read = nb.evaluate(locomo_file, None, out, tmp_path / "none.json", lambda: pytest.fail("no model offline"),
                       from_dir=out / "tiny-memory")
    assert sorted(c.field.key for c in read["checked"]) == sorted(c.field.key for c in outcome["checked"])


def test_a_script_is_replayed_with_the_persona_replies_and_its_nights(script_file, tmp_path):
    seen = []

    def answer(system, user, schema):
        seen.append(user)
        props = schema["properties"]
        if "entities" in props:
            return json.dumps({"entities": []})
        if "insight" in props:
            return json.dumps({"trigger_topic": "餃子", "insight": "ユイさんは弟さんと仲がいい。", "strategy": "",
                               "log_entry": "", "new_goals": [], "completed_goals": [], "abandoned_goals": [],
                               "entity_updates": []})
        if "entry" in props:
            return json.dumps({"entry": "ユイさんが餃子の話をしてくれた。"})
        return json.dumps({"sessions": [{"arousal": 0.5}] * user.count("## Session "),
                           "summary": "ユイさんは弟の健太さんと餃子を作った。"})
    model = ScriptedChatModel(replies("ok"), json_script=answer)
    outcome = nb.evaluate(script_file, None, tmp_path / "out", tmp_path / "none.json", lambda: model)
    assert any("楽しそうですね" in text for text in seen)  # the persona's written reply is in the day's log
    nights = {c.field.night for c in outcome["checked"]}
    assert nights == {"2026-05-11", "2026-05-12"}
    insight = next(c for c in outcome["checked"] if c.field.field == "dream_insight" and c.field.night == "2026-05-11")
    assert insight.day_language == "ja" and insight.language_ok


def test_the_prompt_checks_are_judged_on_every_labelled_strategy_and_goal_by_label(tmp_path, script_file):
    """What each check lets into the prompt, per label, from the labels alone (no run): a strategy telling Yui's
    gyoza as the persona's own (by the persona's display name) is not taken, one that asks her about it is."""
    source = nb.load_source(script_file)
    good = _field("dream_strategy", "次にユイと話すときは、餃子の作り方を聞いてみたい。", "2026-05-11", "tiny")
    taken = _field("dream_strategy", "次にユイと話すときは、アークは弟の健太と餃子を作ったことを話す。", "2026-05-11", "tiny")
    goal = _field("goal", "Make gyoza every weekend", "2026-05-11", "tiny")  # names nobody: not taken
    path = tmp_path / "labels.json"
    path.write_text(json.dumps({"labels": [nb.label_record(good, "ok", "asks her"),
                                           nb.label_record(taken, "misattributed", "Yui's gyoza as Ark's"),
                                           nb.label_record(goal, "misattributed", "her cooking as Ark's goal")]},
                               ensure_ascii=False), encoding="utf-8")
    checks = nb.prompt_checks_on_labels(replace(source, name="tiny"), nb.load_labels(path))
    assert checks == {"dream_strategy": {"ok": {"labelled": 1, "taken": 1}, "misattributed": {"labelled": 1, "taken": 0}},
                      "goal": {"misattributed": {"labelled": 1, "taken": 0}}}
