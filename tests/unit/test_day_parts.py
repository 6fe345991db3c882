"""A day longer than the model's context (issue 19, "Days"): told in parts that each fit, on session
boundaries where they can, merged by one more ask into one episode; the newest parts kept over the
cap; a stop or a crash between the asks leaves one episode and asks the kept parts no more. And the
issue's other day rules: an empty day or one of the persona's unanswered messages makes no episode,
a sitting past midnight stays with its evening."""
import json
import logging
import re
from datetime import date, datetime, timedelta, timezone

import pytest

import constants
from agent.episodes import (DaySession, day_prompt, merge_prompt, own_life, parse_summary, sessions_of_day, split_day,
                            words_of)
from agent.providers.base import CallStopped
from agent.providers.fake import ScriptedChatModel, replies
from managers.chat_log import LogEntry
from managers.episodes import PARTS_PENDING_FILE, EpisodeStore
from managers.store import CharacterFiles
from persona import episodes_job
from persona.episodes_job import JobTally, summarise_days

DAY = date(2026, 11, 20)
NOW = datetime(2026, 11, 21, 3, 0, tzinfo=timezone.utc)  # the night after
LIMIT = constants.CONTEXT_TOKENS["local"] - constants.EPISODE_MAX_TOKENS


class SmallContext(ScriptedChatModel):
    """Counts `per_char` tokens a character, so that the embedded model's context holds a short log."""

    def __init__(self, script, per_char: int = 2):
        super().__init__(replies("ok"), json_script=script)
        self.per_char = per_char
        self.asks: list[tuple[str, str, dict]] = []

    def count_tokens(self, text: str) -> int:
        return len(text) * self.per_char


def talk(sessions: int, messages: int = 8, start_hour: int = 9, day: date = DAY, filler: int = 6) -> list[LogEntry]:
    """`sessions` sittings two hours apart: Ken's `messages` messages, each naming its fact
    (`fact<session>x<message>`), and Ark's "ok" (too little of its own to tell: the user's part alone)."""
    entries = []
    for s in range(1, sessions + 1):
        begin = datetime(day.year, day.month, day.day, start_hour, 0, tzinfo=timezone.utc) + timedelta(hours=2 * (s - 1))
        for i in range(messages):
            entries.append(LogEntry("USER", "Ken", f"fact{s}x{i} " + "and more words " * filler, f"m{s}-{i}",
                                    begin + timedelta(minutes=i)))
        entries.append(LogEntry("AGENT", "Ark", "ok", f"a{s}", begin + timedelta(minutes=messages)))
    return entries


def answering(model: SmallContext, fail_at: int | None = None, merge_answer: str | None = None,
              stop_at: int | None = None, unusable_at: int | None = None):
    """A part's answer rates each session shown N/10 and names the facts of Ken's lines; the merge's
    names every fact it was shown. The `fail_at`-th ask (1-based) crashes, the `stop_at`-th is
    stopped for a reply, the `unusable_at`-th answers no summary."""
    def script(system, user, schema):
        model.asks.append((system, user, schema))
        if len(model.asks) == fail_at:
            raise RuntimeError("the process died here")
        if len(model.asks) == stop_at:
            raise CallStopped()
        if len(model.asks) == unusable_at:
            return '{"sessions": [], "summary": ""}'
        if "sessions" in schema["properties"]:
            numbers = [int(n) for n in re.findall(r"^## Session (\d+)", user, re.M)]
            facts = re.findall(r"^- (fact\d+x\d+)", user, re.M)
            return json.dumps({"sessions": [{"arousal": n / 10} for n in numbers],
                               "summary": f"Ken told me about {', '.join(facts)}."})
        if merge_answer is not None:
            return merge_answer
        facts = re.findall(r"fact\d+x\d+", user)
        return json.dumps({"summary": f"A long day with Ken: {', '.join(facts)}."})
    return script


@pytest.fixture(autouse=True)
def asked_one_way(monkeypatch):
    """The parts' and voices' ways, each part of the user's words asked one way (the embedded model's two
    ways of asking it, and the answer kept of them: tests/unit/test_day_ways.py)."""
    monkeypatch.setattr(constants, "EPISODE_DAY_ASKS", {"local": 1, "remote": 1})


def run(model, store, memory, entries, stop=lambda: False):
    tally = JobTally()
    done = summarise_days(entries, store, memory, model, persona="Ark", user_name="Ken", language_hint="en", now=NOW,
                          should_stop=stop, tally=tally)
    return done, tally


@pytest.fixture
def memory(tmp_path):
    return tmp_path / "memory"


@pytest.fixture
def store(tmp_path, memory):
    return EpisodeStore(memory, CharacterFiles(tmp_path))


def part_asks(model):
    return [a for a in model.asks if "sessions" in a[2]["properties"]]


def session_arousal(memory):
    return [(r["session"], r["arousal"]) for r in json.loads((memory / "session_arousal.json").read_text())]


def test_a_day_that_fits_is_one_ask_with_its_whole_log_as_before(store, memory):
    entries = talk(2, messages=4, filler=2)
    model = SmallContext(None, per_char=1)
    model.json_script = answering(model)
    done, tally = run(model, store, memory, entries)
    assert done and tally.model_calls == 1 and tally.written == [f"episode {DAY}"]
    [(system, user, schema)] = model.asks
    assert (system, user) == day_prompt("Ark", "Ken", DAY, words_of(sessions_of_day(entries), users=True), "en",
                                        10_000)  # nothing cut
    assert schema["properties"]["sessions"]["minItems"] == 2
    [episode] = store.all()
    assert "fact1x0" in episode.summary and episode.arousal == 0.15 and episode.arousal_max == 0.2
    assert not (memory / PARTS_PENDING_FILE).exists()
    assert "Ark: ok" not in user and "- fact2x3" in user  # the user's words only


def test_a_day_longer_than_the_context_is_told_in_parts_on_session_boundaries_and_merged(store, memory):
    entries = talk(4)
    model = SmallContext(None)
    model.json_script = answering(model)
    assert model.count_tokens("\n".join(e.text for e in entries)) > LIMIT  # not one ask
    done, tally = run(model, store, memory, entries)
    assert done and not tally.problems and tally.written == [f"episode {DAY}"]
    parts, (merge_system, merge_user, _) = part_asks(model), model.asks[-1]
    assert len(parts) >= 2 and len(model.asks) == len(parts) + 1
    for system, user, _ in model.asks:  # every prompt fits beside the answer
        assert model.count_tokens(system) + model.count_tokens(user) <= LIMIT
    for entry in entries[:-1]:  # every message of the user's whole, in exactly one part
        assert sum(f"- {entry.text.strip()}" in user for _, user, _ in parts) == (entry.role == "USER")
    for _, user, _ in parts:  # whole sessions (each fills most of a part of its own), in their order
        numbers = [int(n) for n in re.findall(r"^## Session (\d+)", user, re.M)]
        assert numbers == sorted(numbers) and user.count("- fact") == 8 * len(numbers)
    assert "fact1x0" in merge_user and "fact4x6" in merge_user  # the first part's and the last part's
    assert "never as yours" in merge_system and "English" in merge_system
    [episode] = store.all()
    assert "fact1x0" in episode.summary and "fact4x6" in episode.summary
    assert session_arousal(memory) == [(1, 0.1), (2, 0.2), (3, 0.3), (4, 0.4)]
    assert episode.arousal == 0.25 and episode.arousal_max == 0.4  # the sessions' mean, as for one ask
    assert tally.model_calls == len(model.asks)
    assert tally.prompt_tokens == sum(model.count_tokens(s) + model.count_tokens(u) for s, u, _ in model.asks)
    assert not (memory / PARTS_PENDING_FILE).exists()


def test_a_session_longer_than_a_part_is_cut_between_messages_and_rated_by_its_highest_piece(store, memory):
    entries = talk(1, messages=30)
    model = SmallContext(None)
    ratings = iter([0.2, 0.9, 0.4, 0.1, 0.3, 0.5])

    def script(system, user, schema):
        model.asks.append((system, user, schema))
        if "sessions" in schema["properties"]:
            return json.dumps({"sessions": [{"arousal": next(ratings)}], "summary": "Ken talked on and on."})
        return json.dumps({"summary": "A long talk with Ken."})
    model.json_script = script
    done, _ = run(model, store, memory, entries)
    parts = part_asks(model)
    assert done and len(parts) >= 2
    for entry in entries[:-1]:
        assert sum(f"- {entry.text.strip()}" in user for _, user, _ in parts) == 1
    assert session_arousal(memory) == [(1, 0.9)]
    assert re.search(r"^## Session 1 \(09:\d\d\)", parts[1][1], re.M)  # a piece from its own first message


def test_parts_meet_between_sessions_only_when_the_part_closed_there_is_full_enough():
    at = lambda h, m: datetime(2026, 11, 20, h, m, tzinfo=timezone.utc)
    talk_ = [LogEntry("USER", "Ken", f"a{h:02d}{m}", f"{h}-{m}", at(h, m)) for h in (9, 12) for m in range(4)]
    sessions = sessions_of_day(talk_)  # each: a 22-token heading and 4 lines of 10 tokens = 62 of 100
    lines = lambda split: [[line[5:] for s in part for line in s.lines] for part in split.parts]
    whole = split_day(sessions, 100, len, 6, min_fill=0.0)
    assert lines(whole) == [["a090", "a091", "a092", "a093"], ["a120", "a121", "a122", "a123"]]
    filled = split_day(sessions, 100, len, 6, min_fill=0.75)  # 62 % full: the 9 o'clock sitting's last message joins
    assert lines(filled) == [["a090", "a091", "a092"], ["a093", "a120", "a121", "a122", "a123"]]
    assert [s.start.strftime("%H:%M") for s in filled.parts[1]] == ["09:03", "12:00"]
    assert split_day(sessions, 100, len, 1, min_fill=0.75).left_out == 3  # the newest part only


def test_a_message_longer_than_a_whole_part_goes_alone_and_is_cut_to_fit():
    sessions = sessions_of_day([LogEntry("USER", "Ken", "short", "a", datetime(2026, 11, 20, 9, tzinfo=timezone.utc)),
                                LogEntry("USER", "Ken", "x" * 500, "b", datetime(2026, 11, 20, 9, 1, tzinfo=timezone.utc)),
                                LogEntry("USER", "Ken", "after", "c", datetime(2026, 11, 20, 9, 2, tzinfo=timezone.utc))])
    split = split_day(sessions, 100, len, 6)
    assert [[line for s in part for line in s.lines] for part in split.parts] == [
        ["Ken: short"], ["Ken: " + "x" * 500], ["Ken: after"]]
    assert split.left_out == 0


def test_over_the_cap_the_newest_parts_are_kept_and_the_problem_reported(store, memory, monkeypatch, caplog):
    monkeypatch.setattr(constants, "EPISODE_DAY_PARTS_MAX", 2)
    entries = talk(4)
    model = SmallContext(None)
    model.json_script = answering(model)
    with caplog.at_level(logging.WARNING, logger="persona.episodes_job"):
        done, tally = run(model, store, memory, entries)
    parts = part_asks(model)
    assert done and len(parts) == 2 and len(model.asks) == 3
    asked = "\n".join(user for _, user, _ in model.asks)
    assert "fact4x6" in asked and "fact1x0" not in asked  # the evening kept, the morning left out
    assert len(tally.problems) == 1 and "left out" in tally.problems[0] and "2 parts" in tally.problems[0]
    assert "left out of its episode" in caplog.text
    [episode] = store.all()
    assert [n for n, _ in session_arousal(memory)] == sorted({int(n) for _, u, _ in parts
                                                              for n in re.findall(r"^## Session (\d+)", u, re.M)})
    assert 4 in [n for n, _ in session_arousal(memory)] and 1 not in [n for n, _ in session_arousal(memory)]
    assert episode.arousal_max == 0.4


def test_a_stop_during_the_second_part_then_a_second_run_makes_one_episode_without_asking_the_first_again(store, memory):
    entries = talk(4)
    model = SmallContext(None)
    model.json_script = answering(model, stop_at=2)
    done, tally = run(model, store, memory, entries)
    assert not done and store.all() == [] and tally.written == [] and tally.model_calls == 2
    assert len(model.asks) == 2 and (memory / PARTS_PENDING_FILE).exists()
    first_part = model.asks[0][1]
    model.asks.clear()
    model.json_script = answering(model)
    done, tally = run(model, store, memory, entries)
    assert done and tally.written == [f"episode {DAY}"]
    assert first_part not in [user for _, user, _ in model.asks]  # its answer was kept
    assert len(part_asks(model)) == 3 and "fact1x0" in model.asks[-1][1]  # and still reaches the merge
    assert len(store.all()) == 1 and len(session_arousal(memory)) == 4
    assert not (memory / PARTS_PENDING_FILE).exists()
    model.asks.clear()
    assert run(model, store, memory, entries)[1].written == [] and model.asks == []  # done: not asked again


def test_a_crash_before_the_merge_or_before_the_parts_are_dropped_leaves_one_episode(store, memory, monkeypatch):
    entries = talk(3)
    model = SmallContext(None)
    model.json_script = answering(model, fail_at=4)  # three parts, then the merge dies
    with pytest.raises(RuntimeError):
        run(model, store, memory, entries)
    assert store.all() == [] and len(part_asks(model)) == 3
    model.asks.clear()
    model.json_script = answering(model)

    drop = episodes_job._drop_pending

    def crash(pending, keep):
        if store.all():
            raise RuntimeError("the process died after the episode was written")
        drop(pending, keep)
    monkeypatch.setattr(episodes_job, "_drop_pending", crash)
    with pytest.raises(RuntimeError):
        run(model, store, memory, entries)
    assert len(model.asks) == 1 and "sessions" not in model.asks[0][2]["properties"]  # only the merge again
    assert len(store.all()) == 1 and (memory / PARTS_PENDING_FILE).exists()
    monkeypatch.undo()
    model.asks.clear()
    done, tally = run(model, store, memory, entries)
    assert done and tally.written == [] and model.asks == []
    assert len(store.all()) == 1 and not (memory / PARTS_PENDING_FILE).exists()  # the stale parts dropped


def test_a_day_changed_since_its_parts_were_asked_asks_them_again(store, memory):
    entries = talk(3)
    model = SmallContext(None)
    model.json_script = answering(model, stop_at=3)
    run(model, store, memory, entries)
    model.asks.clear()
    model.json_script = answering(model)
    changed = [e if e.id != "m1-0" else LogEntry("USER", "Ken", "fact1x0 edited " + "and more words " * 6, "m1-0", e.ts)
               for e in entries]
    run(model, store, memory, changed)
    assert "edited" in model.asks[0][1] and len(part_asks(model)) == 3
    assert len(store.all()) == 1


def test_an_unusable_merge_joins_the_parts_summaries_and_says_so(store, memory):
    entries = talk(3)
    model = SmallContext(None)
    model.json_script = answering(model, merge_answer='{"summary": ""}')
    done, tally = run(model, store, memory, entries)
    [episode] = store.all()
    assert done and "fact1x0" in episode.summary and "fact3x6" in episode.summary
    assert len(episode.summary) <= constants.EPISODE_DAY_CHARS[1]
    assert "were joined" in tally.problems[0]


def test_an_unusable_part_leaves_the_day_for_the_next_run_keeping_the_parts_asked(store, memory):
    entries = talk(3)
    model = SmallContext(None)
    model.json_script = answering(model, unusable_at=2)
    done, tally = run(model, store, memory, entries)
    assert done and store.all() == [] and len(model.asks) == 2 and "part 2 of 3" in tally.problems[0]
    model.asks.clear()
    model.json_script = answering(model)
    run(model, store, memory, entries)
    assert len(part_asks(model)) == 2 and len(store.all()) == 1  # the second and third: the first was kept


def test_the_merge_prompt_keeps_the_day_prompts_voice_and_cuts_each_summary_in_whole_sentences():
    piece = DaySession(3, datetime(2026, 11, 20, 21, 5, tzinfo=timezone.utc), ("ハルカ: こんばんは",))
    system, user = merge_prompt("アーク", "ハルカ", DAY, [((piece,), "ハルカがカレーを作った。とても美味しそうだった。", True)],
                                "ja", 20)
    assert "Japanese" in system and "ハルカ's, never as yours" in system
    assert "## Part 1 (session 3, from 21:05) ★\nハルカがカレーを作った。" in user and "美味しそう" not in user
    assert parse_summary('{"summary": "Ken hiked. He was tir') == "Ken hiked."


def test_empty_days_and_days_of_only_the_personas_messages_make_no_episode_and_past_midnight_stays(store, memory):
    evening = datetime(2026, 11, 18, 23, 50, tzinfo=timezone.utc)
    entries = [LogEntry("SYSTEM", "edit", "an edit only", "s1", datetime(2026, 11, 17, 12, tzinfo=timezone.utc)),
               LogEntry("AGENT", "Ark", "Are you there?", "a1", datetime(2026, 11, 19, 12, tzinfo=timezone.utc)),
               LogEntry("USER", "Ken", "Still up, writing.", "u1", evening),
               LogEntry("AGENT", "Ark", "Don't stay up too late!", "a2", evening + timedelta(minutes=5)),
               LogEntry("USER", "Ken", "One more chapter.", "u2", evening + timedelta(minutes=20))]
    model = SmallContext(None, per_char=1)
    model.json_script = answering(model)
    done, tally = run(model, store, memory, entries)
    assert done and [e.date for e in store.all()] == ["2026-11-18"] and len(model.asks) == 1
    assert "One more chapter." in model.asks[0][1]


def chatty(start: datetime = datetime(2026, 11, 20, 19, 0, tzinfo=timezone.utc)) -> list[LogEntry]:
    """An evening where both talk of their own lives."""
    lines = [("USER", "Ken", "I adopted a puppy called Mochi today, from the shelter on Elm Street."),
             ("AGENT", "Ark", "How wonderful that you adopted Mochi, a puppy from the shelter!"),
             ("AGENT", "Ark", "This morning I repainted the lighthouse door a deep sea blue, "
                              "and then I walked along the cliffs to watch the seals at low tide."),
             ("USER", "Ken", "Mochi already chewed one of my shoes. I walked along the cliffs to see the seals too."),
             ("AGENT", "Ark", "Ha! Tomorrow I am going to bake bread with the rosemary from my garden, "
                              "my first loaf since the storm last month.")]
    return [LogEntry(role, name, text, f"c{i}", start + timedelta(minutes=i)) for i, (role, name, text) in enumerate(lines)]


def two_voices(model, own_answer):
    def script(system, user, schema):
        model.asks.append((system, user, schema))
        if "sessions" in schema["properties"]:
            return json.dumps({"sessions": [{"arousal": 0.6}], "summary": "Ken adopted Mochi from the Elm Street shelter."})
        return own_answer() if callable(own_answer) else own_answer
    return script


def test_the_persona_s_own_words_are_asked_apart_and_told_after_the_users_in_its_first_person(store, memory):
    model = SmallContext(None, per_char=1)
    own = ("I repainted the lighthouse door blue. This morning I repainted the lighthouse door a deep sea blue, and "
           "then I walked along the cliffs. I adopted Mochi, a puppy from the Elm Street shelter. I walked on the "
           "cliffs and saw the seals.")
    model.json_script = two_voices(model, json.dumps({"summary": own}))
    done, tally = run(model, store, memory, chatty())
    assert done and tally.model_calls == 2 and not tally.problems
    (_, users_words, _), (own_system, own_words, own_schema) = model.asks
    assert "- I adopted a puppy" in users_words and "lighthouse" not in users_words  # each side's words only
    assert "lighthouse door" in own_words and "yourself said" in own_system
    assert "How wonderful" not in own_words and "chewed" not in own_words  # its words to Ken are not its own life
    assert list(own_schema["properties"]) == ["summary"]
    [episode] = store.all()
    # the user's part, then the persona's own; its quote of itself left out, the user's puppy not taken as its own
    assert episode.summary.startswith("Ken adopted Mochi from the Elm Street shelter.\nI repainted the lighthouse door")
    assert "then I walked" not in episode.summary
    # the user's puppy told as its own is left out (said back as "You adopted…", the persona would read it
    # as its own again), though its words to Ken name the puppy; the cliffs both walked are the
    # persona's too, as its own words of itself say
    assert "adopted Mochi, a puppy" not in episode.summary
    assert episode.summary.endswith("I walked on the cliffs and saw the seals.")
    assert session_arousal(memory) == [(1, 0.6)]


def test_a_stop_before_the_persona_s_part_asks_only_that_part_again_and_an_unusable_one_is_reported(store, memory):
    model = SmallContext(None, per_char=1)
    model.json_script = two_voices(model, lambda: (_ for _ in ()).throw(CallStopped()))
    done, _ = run(model, store, memory, chatty())
    assert not done and store.all() == [] and len(model.asks) == 2
    model.asks.clear()
    model.json_script = two_voices(model, '{"summary": ""}')
    done, tally = run(model, store, memory, chatty())
    assert done and [list(schema["properties"]) for _, _, schema in model.asks] == [["summary"]]  # the user's part kept
    [episode] = store.all()
    assert episode.summary == "Ken adopted Mochi from the Elm Street shelter."  # the user's part alone
    assert "own part was not usable" in tally.problems[0]
    assert not (memory / PARTS_PENDING_FILE).exists()


def test_a_persona_that_only_asked_and_advised_has_no_own_part_to_invent(store, memory):
    # Noor's evening: every line of the persona's is a question, advice or "you" — asked to tell its
    # own day from them, the model gave Noor's practice and her flat to the persona (bench nights, session 23)
    start = datetime(2026, 9, 7, 21, 0, tzinfo=timezone.utc)
    lines = [("USER", "Noor", "I'm playing the Bach prelude and I still rush the middle part."),
             ("AGENT", "Ark", "Rushing is so common when the notes get fast. Practising the middle slowly with a "
                              "metronome might help it settle."),
             ("USER", "Noor", "The landlord wrote again. I have to choose between renewing or the flat by the river."),
             ("AGENT", "Ark", "That's a big choice, and I think it deserves time. What draws you to the flat by the "
                              "river? We can think it through together whenever you like."),
             ("USER", "Noor", "It has a room I could practise in."),
             ("AGENT", "Ark", "I can see why a room of your own to practise in matters so much to you right now. "
                              "Good night, Noor. Rest that bow arm.")]
    entries = [LogEntry(role, name, text, f"n{i}", start + timedelta(minutes=i)) for i, (role, name, text) in enumerate(lines)]
    model = SmallContext(None, per_char=1)
    model.json_script = two_voices(model, json.dumps({"summary": "I practised the middle slowly and chose my flat."}))
    done, tally = run(model, store, memory, entries)
    assert done and tally.model_calls == 1 and not tally.problems
    [episode] = store.all()
    assert episode.summary == "Ken adopted Mochi from the Elm Street shelter."  # the scripted user's part alone


def test_the_persona_s_story_keeps_the_sentences_that_go_with_it_and_drops_its_questions_to_the_user():
    start = datetime(2023, 8, 14, 14, 0, tzinfo=timezone.utc)
    lines = [("USER", "Caroline", "Hi Mel! How was your weekend?"),
             ("AGENT", "Mel", "Hey Caroline! Last night was amazing! We celebrated my daughter's birthday with a "
                              "concert. What's up with you?"),
             ("USER", "Caroline", "I went to a pride parade."),
             ("AGENT", "Mel", "Wow, that's awesome! How did it feel being part of that community?"),
             ("AGENT", "Mel", "FYI, I finished another pottery project - want to see a pic? Pretty proud of it!")]
    entries = [LogEntry(role, name, text, f"m{i}", start + timedelta(minutes=i)) for i, (role, name, text) in enumerate(lines)]
    told = [line for s in own_life(sessions_of_day(entries), "Caroline", "en") for line in s.lines]
    assert told == ["- 13 August 2023 was amazing! We celebrated my daughter's birthday with a concert.",
                    "- FYI, I finished another pottery project - want to see a pic? Pretty proud of it!"]


def test_the_episode_keeps_the_day_and_leaves_out_the_models_words_about_its_ask(store, memory):
    def script(system, user, schema):
        if "sessions" in schema["properties"]:
            return json.dumps({"sessions": [{"arousal": 0.3}],
                               "summary": "Ken told me he fixed his bike. The session was brief but cheerful."})
        return json.dumps({"summary": "The summary captures my week. My first rye loaf came out dense but tasty."})
    entries = [LogEntry("USER", "Ken", "I fixed my bike today, the chain was rusty.", "u1",
                        datetime(2026, 11, 20, 9, 0, tzinfo=timezone.utc)),
               LogEntry("AGENT", "Ark", "Nice! I baked rye bread for the first time this morning, it came out dense "
                        "but tasty, and the kitchen smelled wonderful all day long. I think I will try again soon.",
                        "a1", datetime(2026, 11, 20, 9, 1, tzinfo=timezone.utc))]
    done, _ = run(SmallContext(script, per_char=1), store, memory, entries)
    (episode,) = store.all()
    assert done and episode.summary == "Ken told me he fixed his bike.\nMy first rye loaf came out dense but tasty."
