"""The user's part of a day asked two ways on the embedded model (agent/episodes.DAY_WAYS: told as a
day, and as its events one after another), and the answer that keeps more of what the user said that
day kept — each answer as the episode would keep it (the user's doings the user's, the day's own words
said again left out), so an answer wins by what it tells, not by what it copies. A remote model is
asked once. The ratings are the first usable answer's; a stop between the two asks asks only the rest."""
import json
from datetime import datetime, timedelta, timezone

from agent.episodes import keeping_most_anew
from agent.providers.base import CallStopped
from managers.chat_log import LogEntry
from managers.episodes import PARTS_PENDING_FILE, EpisodeStore
from managers.store import CharacterFiles
from tests.unit.test_day_parts import SmallContext, memory, run, session_arousal, store, talk  # noqa: F401 (fixtures)

START = datetime(2026, 11, 20, 19, 0, tzinfo=timezone.utc)
KENS_DAY = ["I adopted a puppy called Mochi from the Elm Street shelter this morning.",
            "Then I took my sister Aiko to the dentist, she had a molar pulled.",
            "In the evening I fixed the rusty chain of my bike in the garage."]


def kens_day() -> list[LogEntry]:
    entries = []
    for i, text in enumerate(KENS_DAY):
        entries.append(LogEntry("USER", "Ken", text, f"u{i}", START + timedelta(minutes=2 * i)))
        entries.append(LogEntry("AGENT", "Ark", "Oh, nice.", f"a{i}", START + timedelta(minutes=2 * i + 1)))
    return entries


def ways(model, told: str | None, events: str | None, told_rating: float = 0.8, events_rating: float = 0.2,
         stop_events: bool = False):
    """Answers the day's ask by the way it was asked; None: an unusable answer."""
    def script(system, user, schema):
        model.asks.append((system, user, schema))
        as_events = "one after another" in system
        if as_events and stop_events:
            raise CallStopped()
        summary, rating = (events, events_rating) if as_events else (told, told_rating)
        if summary is None:
            return '{"sessions": [], "summary": ""}'
        return json.dumps({"sessions": [{"arousal": rating}], "summary": summary})
    return script


def another_persona(tmp_path, name: str):
    """A second persona's (store, memory) in the same test."""
    root = tmp_path / name
    return EpisodeStore(root / "memory", CharacterFiles(root)), root / "memory"


def asked_as_events(model) -> list[bool]:
    return ["one after another" in system for system, _, _ in model.asks]


def test_both_ways_are_asked_and_the_answer_keeping_more_of_the_day_is_kept_with_the_first_ratings(store, memory):
    model = SmallContext(None, per_char=1)
    model.json_script = ways(model, told="Ken had a busy and happy day and told me all about it.",
                             events="Ken adopted Mochi from a shelter, took Aiko to the dentist and fixed his bike.")
    done, tally = run(model, store, memory, kens_day())
    assert done and tally.model_calls == 2 and not tally.problems
    assert asked_as_events(model) == [False, True] and model.asks[0][1] == model.asks[1][1]  # the same words shown
    [episode] = store.all()
    assert episode.summary == "Ken adopted Mochi from a shelter, took Aiko to the dentist and fixed his bike."
    assert session_arousal(memory) == [(1, 0.8)] and episode.arousal == 0.8  # the first answer rates the sessions
    assert not (memory / PARTS_PENDING_FILE).exists()


def test_of_two_answers_keeping_as_much_the_first_is_kept_and_a_remote_model_is_asked_once(store, memory, tmp_path):
    model = SmallContext(None, per_char=1)
    model.json_script = ways(model, told="Ken adopted Mochi, a shelter puppy.", events="Ken got Mochi from a shelter.")
    run(model, store, memory, kens_day())
    assert [e.summary for e in store.all()] == ["Ken adopted Mochi, a shelter puppy."]

    remote = SmallContext(None, per_char=1)
    remote.budget_family = "remote"
    remote.json_script = ways(remote, told="Ken had a nice day.", events="Ken adopted Mochi and fixed his bike.")
    done, tally = run(remote, *another_persona(tmp_path, "remote"), kens_day())
    assert done and tally.model_calls == 1 and asked_as_events(remote) == [False]


def test_an_answer_does_not_win_by_the_users_words_copied_or_the_users_day_taken_as_the_personas(store, memory,
                                                                                                  tmp_path):
    model = SmallContext(None, per_char=1)
    copied = " ".join(KENS_DAY)  # every word of the day, said again: left out of a memory
    model.json_script = ways(model, told="Ken fixed his bike chain in the evening.", events=copied)
    run(model, store, memory, kens_day())
    assert [e.summary for e in store.all()] == ["Ken fixed his bike chain in the evening."]

    mine = SmallContext(None, per_char=1)  # Ken's day told as the persona's: said back as "you", so left out
    mine.json_script = ways(mine, told="Ken fixed his bike chain in the evening.",
                            events="I adopted Mochi from the Elm Street shelter and took my sister Aiko to the dentist.")
    other, other_memory = another_persona(tmp_path, "mine")
    run(mine, other, other_memory, kens_day())
    assert [e.summary for e in other.all()] == ["Ken fixed his bike chain in the evening."]


def test_an_unusable_answer_either_way_leaves_the_other_and_both_unusable_is_reported(store, memory, tmp_path):
    model = SmallContext(None, per_char=1)
    model.json_script = ways(model, told=None, events="Ken adopted Mochi from the Elm Street shelter.",
                             events_rating=0.3)
    done, tally = run(model, store, memory, kens_day())
    assert done and not tally.problems and [e.summary for e in store.all()] == ["Ken adopted Mochi from the Elm Street shelter."]
    assert session_arousal(memory) == [(1, 0.3)]  # the usable answer's ratings

    second = SmallContext(None, per_char=1)
    second.json_script = ways(second, told=None, events=None)
    other, other_memory = another_persona(tmp_path, "none")
    done, tally = run(second, other, other_memory, kens_day())
    assert done and other.all() == [] and len(second.asks) == 2
    assert tally.problems == ["episode 2026-11-20: the model's answer was not a usable summary"]


def test_a_stop_before_the_second_ask_asks_only_that_one_again(store, memory):
    model = SmallContext(None, per_char=1)
    model.json_script = ways(model, told="Ken had a nice day.", events="", stop_events=True)
    done, _ = run(model, store, memory, kens_day())
    assert not done and store.all() == [] and (memory / PARTS_PENDING_FILE).exists()  # the first answer kept
    model.asks.clear()
    model.json_script = ways(model, told="never asked again", events="Ken adopted Mochi and fixed his bike.")
    done, tally = run(model, store, memory, kens_day())
    assert done and asked_as_events(model) == [True] and tally.model_calls == 1
    assert [e.summary for e in store.all()] == ["Ken adopted Mochi and fixed his bike."]
    assert session_arousal(memory) == [(1, 0.8)]  # the kept first answer's ratings


def test_a_day_in_parts_asks_each_part_both_ways_before_the_merge(store, memory):
    model = SmallContext(None)
    def script(system, user, schema):
        model.asks.append((system, user, schema))
        if "sessions" in schema["properties"]:
            sessions = user.count("## Session ")
            return json.dumps({"sessions": [{"arousal": 0.5}] * sessions, "summary": "Ken told me about his day."})
        return json.dumps({"summary": "Ken told me about his long day."})
    model.json_script = script
    done, tally = run(model, store, memory, talk(3))
    part_asks = [a for a in model.asks if "sessions" in a[2]["properties"]]
    assert done and len(part_asks) >= 4 and len(part_asks) % 2 == 0
    assert asked_as_events(model)[:len(part_asks)] == [False, True] * (len(part_asks) // 2)
    assert tally.model_calls == len(part_asks) + 1 and len(store.all()) == 1  # one merge, one episode


def test_the_answer_kept_is_the_one_keeping_most_of_the_day_in_its_own_words_in_any_language():
    material = "昨日、妹のアイコを歯医者に連れて行った。夜は自転車のチェーンを直した。"
    assert keeping_most_anew(["ケンは元気だった。", "ケンは妹を歯医者に連れて行き、自転車を直した。"], material,
                             [material], ["ケン"]) == 1
    said_twice = "Ken fixed the bike. Ken fixed the bike. Ken fixed the bike."  # each thing counts once
    assert keeping_most_anew(["Ken fixed the bike and saw the dentist.", said_twice],
                             "I fixed my bike, then the dentist.", [], ["Ken"]) == 0
    assert keeping_most_anew(["Ken slept.", "Ken rested."], "I fixed my bike.", [], ["Ken"]) == 0  # equal: the first
    assert keeping_most_anew([], "anything", []) == -1
    # more of the day's words, but more than half of them the day's own sentences again: the one in its own
    # words keeping most of it is kept
    lines = ["I started a weekend yoga class with a colleague and I feel great both mentally and physically.",
             "The instructor creates a relaxed environment that makes everyone feel welcome."]
    copied = ("Ken started a weekend yoga class with a colleague and feels great both mentally and physically. "
              "The instructor creates a relaxed environment that makes everyone feel welcome.")
    own_words = ("Ken began a weekend yoga class with a colleague; he feels great in mind and body, and the relaxed "
                 "instructor makes everyone welcome.")
    assert keeping_most_anew([copied, own_words], " ".join(lines), lines, ["Ken"]) == 1
    assert keeping_most_anew([copied, own_words], " ".join(lines), [], ["Ken"]) == 0  # nothing said: more kept wins


def test_a_day_in_another_language_is_asked_in_it_and_an_answer_in_it_is_kept(store, memory):
    # asked "in Spanish" only in the English system message, the 1.5B model wrote a Spanish day in English
    start = datetime(2026, 2, 10, 21, 0, tzinfo=timezone.utc)
    lines = ["¡Hola Ark! Hoy empecé un curso de escalada en el rocódromo del barrio con mi amiga Marta.",
             "El monitor se llama Iñaki y dice que la semana que viene probaremos la pared de bloque."]
    entries = [LogEntry("USER", "Lucía", text, f"u{i}", start + timedelta(minutes=i)) for i, text in enumerate(lines)]
    model = SmallContext(None, per_char=1)
    english = "Lucía started a climbing course at the gym with her friend Marta; her coach Iñaki plans the bouldering wall."
    model.json_script = ways(model, told=english, events="Lucía empezó escalada con Marta.")
    done, _ = run(model, store, memory, entries)
    assert done and all(user.endswith("\n\nEscribe todo en español.") for _, user, _ in model.asks)
    assert [e.summary for e in store.all()] == ["Lucía empezó escalada con Marta."]  # less of the day, but in Spanish
    assert keeping_most_anew([english, "Lucía empezó escalada."], " ".join(lines), lines, ["Lucía"], "es") == 1
    assert keeping_most_anew([english], " ".join(lines), lines, ["Lucía"], "es") == 0  # none in it: still one


def test_an_english_day_is_asked_as_before_with_no_line_of_language(store, memory):
    model = SmallContext(None, per_char=1)
    model.json_script = ways(model, told="Ken adopted Mochi.", events="Ken adopted Mochi and fixed his bike.")
    run(model, store, memory, kens_day())
    assert not any("Write every field" in user for _, user, _ in model.asks)


def test_a_japanese_day_is_asked_as_before_its_script_tells_the_model_enough():
    from agent.episodes import day_prompt, in_its_language
    assert in_its_language("ユイ: 今日は餃子を作ったよ。", "ja") == "ユイ: 今日は餃子を作ったよ。"
    assert in_its_language("Giulia: oggi mercato.", "it").endswith("\n\nScrivi tutto in italiano.")
    assert in_its_language("Jonas: heute Brot.", "de").endswith("nicht auf Englisch.")
    assert not day_prompt("Ark", "ユイ", START.date(), [], "ja", 100)[1].endswith("書く。")
