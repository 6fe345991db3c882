"""The LoCoMo QA bench (bench/qa_bench.py) on a scripted model and a tiny two-session conversation."""
import json
from datetime import timedelta
from pathlib import Path

import pytest

from agent.memory_lines import grouped_by_date
from agent.providers.fake import ScriptedChatModel, replies
from agent.retrieval import spelled_out_date
from bench import qa_bench
from bench.locomo_bench import load, replay
from persona.episodes_job import JobTally, summarise_days
from persona.service import NexusService

USER, PERSONA_SPEAKER = "Caroline", "Melanie"
CONVERSATION = {
    "speaker_a": USER,
    "speaker_b": PERSONA_SPEAKER,
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [
        {"speaker": USER, "dia_id": "D1:1", "text": "Hey Mel! Good to see you."},
        {"speaker": PERSONA_SPEAKER, "dia_id": "D1:2", "text": "Hi Caroline, how have you been?"},
        {"speaker": USER, "dia_id": "D1:3", "text": "I went to a LGBTQ support group yesterday and it was powerful."},
        {"speaker": PERSONA_SPEAKER, "dia_id": "D1:4", "text": "That sounds great. I painted a lake sunrise last year."},
        {"speaker": USER, "dia_id": "D1:5", "text": "I am thinking about a career in counseling.",
         "blip_caption": "a photo of a notebook"},
    ],
    "session_2_date_time": "1:14 pm on 25 May, 2023",
    "session_2": [
        {"speaker": PERSONA_SPEAKER, "dia_id": "D2:1", "text": "I ran a charity race for mental health on Saturday."},
        {"speaker": USER, "dia_id": "D2:2", "text": "Amazing! I researched adoption agencies this week."},
        {"speaker": PERSONA_SPEAKER, "dia_id": "D2:3", "text": "My kids love the beach, we go camping there."},
    ],
    "session_3_date_time": "2:00 pm on 1 June, 2023",  # a date key with no session: ignored
}
QA = [
    {"question": "When did Caroline go to the LGBTQ support group?", "answer": "7 May 2023",
     "evidence": ["D1:3"], "category": 2},
    {"question": "When did Melanie run a charity race?", "answer": "20 May 2023", "evidence": ["D2:01"], "category": 2},
    {"question": "What did Caroline research and consider?", "answer": "adoption agencies, counseling",
     "evidence": ["D1:5; D2:2"], "category": 1},
    {"question": "What does Melanie paint and where does she camp?", "answer": "lake sunrise, beach",
     "evidence": ["D1:4 D2:3"], "category": 1},
    {"question": "Would Caroline pursue counseling?", "answer": "Likely yes", "evidence": ["D1:5"], "category": 3},
    {"question": "Would Melanie like the outdoors?", "answer": "yes", "evidence": ["D2:3"], "category": 3},
    {"question": "What did Melanie paint?", "answer": "a lake sunrise", "evidence": ["D1:4"], "category": 4},
    {"question": "Where do Melanie's kids like to go?", "answer": "beach", "evidence": ["D2:3"], "category": 4},
    {"question": "What did Caroline paint?", "adversarial_answer": "a lake sunrise", "evidence": ["D1:4"], "category": 5},
    {"question": "Who is Caroline's brother?", "answer": "Tom", "evidence": ["D9:9", "x"], "category": 4},
]


@pytest.fixture
def conversation_file(tmp_path):
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps({"conversation": CONVERSATION, "qa": QA}))  # the original layout
    return str(path)


@pytest.fixture(scope="module")
def qa_f1():
    if not qa_bench.QA_F1_PATH.is_file():
        pytest.skip("the shared qa_f1.py is not on this machine")
    return qa_bench.load_qa_f1()


def test_questions_need_valid_evidence_and_sampling_is_stratified_and_seeded(conversation_file):
    questions = qa_bench.questions_of(conversation_file)
    assert "Who is Caroline's brother?" not in [q.question for q in questions]  # no valid evidence turn
    assert {q.category for q in questions} == {"1", "2", "3", "4"}  # category 5 left out
    assert [q.evidence for q in questions if q.category == "1"] == [("D1:5", "D2:2"), ("D1:4", "D2:3")]
    assert questions[1].evidence == ("D2:1",)  # D2:01 normalised

    chosen = qa_bench.sample(questions, 1, seed=3)
    assert sorted(q.category for q in chosen) == ["1", "2", "3", "4"]
    assert chosen == qa_bench.sample(questions, 1, seed=3)
    draws = {tuple(q.index for q in qa_bench.sample(questions, 1, seed=s)) for s in range(20)}
    assert len(draws) > 1  # the seed decides which question of each category
    assert len(qa_bench.sample(questions, 5, seed=0)) == 8  # capped at what each category holds


def scripted_answers(messages, tools):
    """Answers from what the context shows: the evidence of two questions, else 'I don't remember'."""
    context = messages[-2].content
    if "support group" in context:
        return "On 7 May 2023."
    if "lake sunrise" in context:
        return "She painted a lake sunrise."
    return "I don't remember."


def test_three_conditions_each_from_the_replayed_state(conversation_file, qa_f1):
    model = ScriptedChatModel(scripted_answers)
    picked = [q for q in qa_bench.questions_of(conversation_file) if q.index in (0, 6)]
    summary, records = qa_bench.run([conversation_file], 2, model, seed=0, qa_f1=qa_f1)
    assert summary["questions"] == 8 and set(summary["conditions"]) == {"none", "app", "oracle"}
    assert len(model.calls) == 3 * 8  # no retries, no extra calls: one per question and condition

    by_question = {r["question"]: r for r in records}
    prefixes = set()
    for number, (messages, _) in enumerate(model.calls):
        record = records[number // 3]
        condition = qa_bench.CONDITIONS[number % 3]
        user, context = messages[-1].content, messages[-2].content
        assert user == f"{record['question']} {qa_f1.SUFFIX}"
        # Every prompt starts from the replayed state: the same prefix, and no earlier question in it.
        prefixes.add(tuple(m.content for m in messages[:-2]))
        assert not any(qa_f1.SUFFIX in m.content for m in messages[:-1])
        if condition == "none":
            assert "# Memories" not in context
        if condition == "oracle":
            for dia in record["evidence"]:
                turn = next(t for s in ("session_1", "session_2") for t in CONVERSATION[s] if t["dia_id"] == dia)
                date = "2023-05-08" if dia.startswith("D1:") else "2023-05-25"
                # As every recalled memory is shown: under "[8 May 2023]", "yesterday" as the day it was.
                logged = f"[{date}] {turn['speaker']}: {turn['text']}"
                day, line = grouped_by_date([f"- {spelled_out_date(logged)}"]).split("\n")
                assert day in context and line in context
            assert "…(truncated)" not in context
    assert len(prefixes) == 1
    assert all(a["prefix_reused"] for r in records for a in r["conditions"].values())

    assert len(picked) == 2
    for q in picked:
        oracle, none = by_question[q.question]["conditions"]["oracle"], by_question[q.question]["conditions"]["none"]
        assert oracle["reply"] != "I don't remember." and oracle["F1"] == pytest.approx(
            100 * qa_f1.f1(oracle["reply"], q.answer), abs=0.01) and oracle["F1"] > 50
        assert none["reply"] == "I don't remember." and none["F1"] == 0.0
        assert oracle["memory_tokens"] > 0 and none["memory_tokens"] == 0
    for record in records:
        for condition, asked in record["conditions"].items():
            assert asked["F1"] == pytest.approx(100 * qa_f1.f1(asked["reply"], record["answer"]), abs=0.01)
    oracle_summary = summary["conditions"]["oracle"]
    assert oracle_summary["overall"]["F1"] == pytest.approx(
        sum(r["conditions"]["oracle"]["F1"] for r in records) / len(records), abs=0.1)
    assert summary["conditions"]["none"]["memory_tokens_mean"] == 0.0


def test_a_notice_instead_of_a_reply_scores_zero(conversation_file, qa_f1):
    model = ScriptedChatModel(lambda messages, tools: "")  # only empty replies: the app shows a notice
    summary, records = qa_bench.run([conversation_file], 1, model, seed=0, qa_f1=qa_f1)
    assert all(a["notice"] and a["F1"] == 0.0 and a["ttft_s"] is None
               for r in records for a in r["conditions"].values())
    assert "could not find words" in records[0]["conditions"]["app"]["reply"]
    assert summary["conditions"]["app"]["overall"]["F1"] == 0.0


# --- `--episodes DIR`: the days `bench episodes` wrote, in the persona's memory ------------------

# Two sittings five days apart; the second long enough that the history window (1,400 tokens on the
# embedded model) does not reach back to the first, so the first day is an "earlier day".
LONG_TALK = [{"speaker": USER if n % 2 else PERSONA_SPEAKER, "dia_id": f"D2:{n + 1}",
              "text": f"Turn {n} of a long evening about the garden, the weather and the neighbours' fence. " * 3}
             for n in range(24)]
EPISODE_CONVERSATION = {
    "speaker_a": USER, "speaker_b": PERSONA_SPEAKER,
    "session_1_date_time": "1:56 pm on 20 May, 2023",
    "session_1": CONVERSATION["session_1"],
    "session_2_date_time": "1:14 pm on 25 May, 2023",
    "session_2": LONG_TALK,
}
EPISODE_QA = [
    {"question": "When did Caroline go to the LGBTQ support group?", "answer": "19 May 2023",
     "evidence": ["D1:3"], "category": 2},
    {"question": "What did Melanie paint?", "answer": "a lake sunrise", "evidence": ["D1:4"], "category": 4},
    {"question": "What did Caroline and Melanie plan at the community hall?", "answer": "a quilting afternoon",
     "evidence": ["D1:2"], "category": 1},
]
# The first day's episode, in words no message holds: only the episode can bring them.
FIRST_DAY = "We planned a quilting afternoon at the community hall with Grandma Rosa."


@pytest.fixture
def episode_conversation(tmp_path):
    path = tmp_path / "evenings.json"
    path.write_text(json.dumps({"conversation": EPISODE_CONVERSATION, "qa": EPISODE_QA}))
    return str(path)


def write_episodes_file(folder, stem, records):
    folder.mkdir(exist_ok=True)
    (folder / f"{stem}.json").write_text(json.dumps(records))  # as bench/episodes_bench.py writes it
    return folder


def earlier_days(messages):
    """The "Earlier days" section of a prompt's cached system message, or None."""
    return next((part for part in messages[0].content.split("\n\n") if part.startswith("# Earlier days")), None)


def test_the_episodes_flag_puts_the_days_in_the_prompt_and_in_recall(episode_conversation, tmp_path, qa_f1):
    folder = write_episodes_file(tmp_path / "episodes", "evenings", [
        {"date": "2023-05-20", "text": FIRST_DAY, "arousal": 0.7, "arousal_max": 0.7},
        {"date": "2023-05-25", "text": ""},  # the night wrote nothing for this day
    ])
    model = ScriptedChatModel(lambda messages, tools: "I don't remember.")
    summary, records = qa_bench.run([episode_conversation], 1, model, seed=0, qa_f1=qa_f1, episodes_dir=folder)
    assert summary["episodes_dir"] == str(folder) and len(model.calls) == 3 * 3
    for messages, _ in model.calls:
        # Every condition's prompt, in the cached prefix: the earlier day, starred by the night's rating;
        # the day the window shows (and which had no episode) is not there.
        assert earlier_days(messages) == f"# Earlier days (your episodes)\n- [20 May 2023] ★ {FIRST_DAY}"
    assert all(a["prefix_reused"] for r in records for a in r["conditions"].values())
    # The day is in the earlier days, so recall does not spend the memories' room on it again.
    hall = next(r for r in records if "community hall" in r["question"])
    assert "Episode:" not in hall["conditions"]["app"]["context"]
    assert "quilting" not in hall["conditions"]["none"]["context"]  # recall off


def test_an_earlier_day_the_prefix_has_no_room_for_is_recalled_and_only_what_is_shown_counts_as_shown(
        tmp_path, qa_f1):
    # Two days before the window: the newer one's episode takes the prefix's whole room (250 tokens on
    # the embedded model), so the older one is not in it and must stay within recall's reach.
    long_day = FIRST_DAY + " " + "We talked about the garden and the fence for a long while. " * 14
    seed_swap = "We drew up a seed swap with the beekeepers' club at the library."
    path = tmp_path / "three.json"
    qa = [{"question": "What did Caroline plan with the beekeepers' club at the library?", "answer": "a seed swap",
           "evidence": ["D1:2"], "category": 1}]
    path.write_text(json.dumps({"conversation": EPISODE_CONVERSATION, "qa": qa}))
    folder = write_episodes_file(tmp_path / "episodes", "three", [
        {"date": "2023-05-16", "text": seed_swap}, {"date": "2023-05-20", "text": long_day}])
    model = ScriptedChatModel(lambda messages, tools: "A seed swap.")
    _, [record] = qa_bench.run([str(path)], 1, model, seed=0, qa_f1=qa_f1, conditions=("app",),
                               episodes_dir=folder)
    [(messages, _)] = model.calls
    section = earlier_days(messages)
    assert "20 May 2023" in section and "16 May 2023" not in section and "beekeepers" not in section
    app = record["conditions"]["app"]
    assert "[16 May 2023]" in app["context"] and "beekeepers' club" in app["context"]  # recalled
    # Both shown (one in the prefix, one recalled): the traces name these two and no other.
    assert sorted(day for day, _, _ in app["traces"]) == ["2023-05-16", "2023-05-20"]


def test_the_shown_episodes_resonance_is_read_from_the_reply_and_the_evidence_day_marked(episode_conversation,
                                                                                         tmp_path, qa_f1):
    folder = write_episodes_file(tmp_path / "episodes", "evenings", [
        {"date": "2023-05-20", "text": FIRST_DAY, "arousal": 0.2, "arousal_max": 0.2}])

    def answer(messages, tools):  # tells the episode's day back only when asked about the hall
        return ("You planned a quilting afternoon with Grandma Rosa." if "community hall" in messages[-1].content
                else "I don't remember.")
    summary, records = qa_bench.run([episode_conversation], 1, ScriptedChatModel(answer), seed=0, qa_f1=qa_f1,
                                    episodes_dir=folder)
    records = json.loads(json.dumps(records))  # as `--out` writes them
    traces = {r["question"]: r["conditions"]["app"]["traces"] for r in records}
    # The day of every question's evidence is the first day, the one episode shown.
    assert traces["What did Caroline and Melanie plan at the community hall?"] == [["2023-05-20", 0.7, True]]
    assert traces["What did Melanie paint?"] == [["2023-05-20", 0.0, True]]
    assert all(r["conditions"][c]["traces"] == [] for r in records for c in ("none", "oracle"))
    measured = summary["memory_traces"]
    assert measured["resonance_counts"] == {"0.0": 2, "0.7": 1} and measured["questions_with_episodes"] == 3
    assert measured["evidence_vs_others"]["questions"] == 0  # no other episode was shown beside it


def test_the_evidence_episode_is_compared_with_the_others_shown_beside_it():
    per_question = [
        (("2023-05-20", 0.7, True), ("2023-05-18", 0.4, False)),   # higher
        (("2023-05-20", 0.0, True), ("2023-05-18", 0.0, False)),   # equal: what a constant would give
        (("2023-05-20", 0.0, True), ("2023-05-18", 0.4, False), ("2023-05-17", 0.0, False)),  # lower
        (("2023-05-20", 0.4, True),),                              # nothing to compare with
        (("2023-05-18", 0.4, False),),                             # no evidence episode shown
    ]
    measured = qa_bench.trace_summary(per_question)
    assert measured["evidence_vs_others"] == {"questions": 3, "higher": 1, "equal": 1, "lower": 1}
    assert measured["resonance_counts"] == {"0.0": 4, "0.4": 4, "0.7": 1}
    assert measured["mean_resonance"] == {"evidence_episode": 0.275, "other_episodes": 0.24}


def test_without_the_flag_nothing_changes_but_the_episodes(episode_conversation, tmp_path, qa_f1, monkeypatch):
    folder = write_episodes_file(tmp_path / "episodes", "evenings",
                                 [{"date": "2023-05-20", "text": FIRST_DAY, "arousal": 0.2, "arousal_max": 0.2}])
    with_episodes = ScriptedChatModel(lambda messages, tools: "I don't remember.")
    qa_bench.run([episode_conversation], 1, with_episodes, seed=0, qa_f1=qa_f1, conditions=("none",),
                 episodes_dir=folder)

    def not_called(*args):
        raise AssertionError("the episodes' code ran without --episodes")
    monkeypatch.setattr(qa_bench, "load_episodes", not_called)
    monkeypatch.setattr(qa_bench, "give_episodes", not_called)
    plain = ScriptedChatModel(lambda messages, tools: "I don't remember.")
    summary, _ = qa_bench.run([episode_conversation], 1, plain, seed=0, qa_f1=qa_f1, conditions=("none",))
    assert "episodes_dir" not in summary
    assert len(plain.calls) == len(with_episodes.calls) == 3
    for (given, _), (default, _) in zip(with_episodes.calls, plain.calls):
        section = earlier_days(given)
        assert section == f"# Earlier days (your episodes)\n- [20 May 2023] {FIRST_DAY}"  # no ★ below 0.6
        assert earlier_days(default) is None
        # The prompt is the default's but for that section.
        assert given[0].content.replace("\n\n" + section, "") == default[0].content
        assert given[1:] == default[1:]


def test_a_missing_episodes_file_stops_the_run_before_anything_is_asked(episode_conversation, tmp_path, qa_f1):
    folder = tmp_path / "episodes"
    folder.mkdir()
    model = ScriptedChatModel(lambda messages, tools: "I don't remember.")
    with pytest.raises(SystemExit) as stopped:
        qa_bench.run([episode_conversation], 1, model, seed=0, qa_f1=qa_f1, episodes_dir=folder)
    message = str(stopped.value)
    assert str(folder / "evenings.json") in message
    assert f"bench episodes {episode_conversation} --out {folder}" in message  # the command that writes it
    assert model.calls == []
    (folder / "evenings.json").write_text(json.dumps([{"date": "20 May 2023", "text": "A day."}]))
    with pytest.raises(SystemExit, match="is not what `bench episodes` writes"):
        qa_bench.run([episode_conversation], 1, model, seed=0, qa_f1=qa_f1, episodes_dir=folder)


def test_given_episodes_are_the_nights_own_so_a_later_night_leaves_them_be(episode_conversation, tmp_path):
    conv, _ = load(Path(episode_conversation))
    clock = qa_bench.SimulatedClock()
    asked = []

    def night(system, user, schema):
        asked.append(user.splitlines()[0])
        return json.dumps({"sessions": [{"arousal": 0.3}] * user.count("## Session "), "summary": "A long talk."})
    model = ScriptedChatModel(replies("ok"), json_script=night)
    service = NexusService(tmp_path / "data", clock=clock, model_factory=lambda s, k, p: model)
    try:
        _, last = replay(conv, service.personas.get(qa_bench.PERSONA).root)
        clock.now = last + timedelta(days=1)
        given = qa_bench.give_episodes(service, [{"date": "2023-05-20", "text": FIRST_DAY, "arousal": 0.7,
                                                  "arousal_max": 0.7}, {"date": "2023-05-25", "text": ""}], clock.now)
        assert given == 1
        session = service.session(qa_bench.PERSONA)
        (episode,) = session.episodes().all()
        assert (episode.id, episode.created_at, episode.arousal_max) == (
            "episode_2023-05-20_001", "2023-05-21T02:00:00+00:00", 0.7)
        # The app's own night over the same log asks only for the day that had no episode.
        summarise_days(session.chat_log.view(), session.episodes(), session.character.memory_dir, model,
                       persona=qa_bench.PERSONA, user_name=USER, language_hint="", now=clock.now,
                       should_stop=lambda: False, tally=JobTally())
        assert set(asked) == {"Date: 2023-05-25"}  # both voices of that day, and no other day
        assert session.episodes().get("episode_2023-05-20_001").summary == FIRST_DAY
    finally:
        service.close()


def test_the_command_line_hands_the_episodes_folder_to_the_bench(monkeypatch):
    from nexus_ark import parser

    seen = []
    monkeypatch.setattr(qa_bench, "run", lambda *args, **kwargs: (seen.append(kwargs), ({"wall_s": 0.0}, []))[1])

    class Chosen:
        def create(self, model_path):
            return ScriptedChatModel(replies("ok"))
    for argv, expected in ((["bench", "qa", "26.json", "--episodes", "eps"], Path("eps")),
                           (["bench", "qa", "26.json"], None)):
        assert qa_bench.main(parser().parse_args(argv), Path("unused.gguf"), Chosen()) == 0
        assert seen[-1]["episodes_dir"] == expected
