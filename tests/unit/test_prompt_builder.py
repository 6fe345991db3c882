import math

import constants

from agent.prompt_builder import PromptSection, build_prompt, fit_to_budget, select_history
from managers.chat_log import LogEntry


def count(text: str) -> int:
    return math.ceil(len(text) / 4)


def entries(n: int, size: int = 40) -> list[LogEntry]:
    return [LogEntry("USER" if i % 2 == 0 else "AGENT", "x", f"{i:05d}" + "." * (size - 5), f"id{i}", None)
            for i in range(n)]


BUDGETS = {"identity": 20, "core_memory": 10, "notepad": 10, "instructions": 10, "history": 100, "dynamic": 15}


def test_fit_to_budget_cuts_and_marks_long_text():
    text = "word " * 200
    fitted = fit_to_budget(text, 30, count)
    assert count(fitted) <= 30 and fitted.endswith("(truncated)")
    assert fit_to_budget("short", 30, count) == "short"


def test_static_sections_first_dynamic_last_and_within_budgets():
    static = [PromptSection("identity", "Who", "I am Ark. " * 50), PromptSection("notepad", "Notes", "buy milk")]
    dynamic = [PromptSection("dynamic", "Now", "2026-03-14 09:00"), PromptSection("dynamic", "Memories", "m " * 200)]
    window = select_history(entries(6), "", BUDGETS["history"], count)
    prompt = build_prompt(static, window, dynamic, "hello?", BUDGETS, count)
    assert prompt.messages[0].role == "system" and "buy milk" in prompt.messages[0].content
    assert prompt.section_tokens["identity"] <= BUDGETS["identity"]
    assert 0 < prompt.section_tokens["dynamic"] <= BUDGETS["dynamic"]
    context, last = prompt.messages[-2:]
    assert last.role == "user" and last.content == "hello?"  # the user's words, as typed
    assert context.role == "system" and "2026-03-14" in context.content and "<" not in context.content
    assert "2026-03-14" not in "".join(m.content for m in prompt.prefix)


def test_the_reminder_closes_the_turns_context_even_with_nothing_recalled():
    window = select_history(entries(2), "", BUDGETS["history"], count)
    prompt = build_prompt([PromptSection("identity", "Who", "I am Ark.")], window, [], "hi", BUDGETS, count,
                          reminder="Reply in English.")
    assert prompt.messages[-1].content == "hi"
    assert prompt.messages[-2].role == "system" and prompt.messages[-2].content == "Reply in English."
    plain = build_prompt([PromptSection("identity", "Who", "I am Ark.")], window, [], "hi", BUDGETS, count)
    assert plain.messages[-2].role == "assistant" and plain.messages[-1].content == "hi"


def test_history_window_keeps_its_anchor_until_it_overflows():
    history = entries(4)
    first = select_history(history, "", 100, count)
    assert first.entries[-1].id == "id3"
    grown = entries(6)
    second = select_history(grown, first.anchor_id, 100, count)
    assert second.anchor_id == first.anchor_id  # same start: the cached prefix stays valid
    overflow = select_history(entries(30), first.anchor_id, 100, count)
    assert overflow.anchor_id != first.anchor_id
    assert sum(count(e.text) for e in overflow.entries) <= 50  # restarted at half the budget
    assert overflow.entries[-1].id == "id29"


def test_history_selection_cost_does_not_depend_on_total_length():
    calls = {"n": 0}

    def counting(text):
        calls["n"] += 1
        return count(text)

    select_history(entries(100), "", 100, counting)
    small = calls["n"]
    calls["n"] = 0
    select_history(entries(10_000), "", 100, counting)
    assert calls["n"] == small


def test_memory_lines_are_chosen_by_rank_and_read_oldest_first():
    from agent.prompt_builder import fit_lines

    lines = ("- best, newest", "- second, oldest", "- third", "- fourth, too many")
    order = ("3", "1", "2", "0")
    assert fit_lines(lines, 12, count, order) == "- second, oldest\n- third\n- best, newest"
    assert fit_lines(lines, 12, count) == "- best, newest\n- second, oldest\n- third"


def test_a_memory_that_does_not_fit_is_passed_over_for_the_next_that_does():
    from agent.prompt_builder import fit_lines

    lines = ("- best", "- " + "long " * 30, "- third", "- fourth")
    assert fit_lines(lines, 12, count) == "- best\n- third\n- fourth"


def test_a_long_memory_is_shortened_to_its_share_of_the_room():
    from agent.prompt_builder import fit_lines

    shortened = []

    def shorten(line, tokens):
        shortened.append((line, tokens))
        return line[: 4 * tokens]  # a stand-in that is sure to fit (4 characters a token)

    lines = ("- best", "- " + "long " * 30, "- third")
    budget = 30
    text = fit_lines(lines, budget, count, shorten=shorten)
    share = budget // constants.PROMPT_LINES_AT_LEAST
    assert shortened == [(lines[1], share)]  # only the line over its share
    assert text.split("\n")[1] == lines[1][: 4 * share]


def test_the_closing_note_ends_the_cached_prefix():
    window = select_history(entries(2), "", BUDGETS["history"], count)
    prompt = build_prompt([PromptSection("identity", "Who", "I am Ark.")], window, [], "hi", BUDGETS, count,
                          reminder="Reply in English.", closing_note="# Now\n2026-03-14 Sat, 09:00–10:00")
    assert prompt.prefix[-1].content == "# Now\n2026-03-14 Sat, 09:00–10:00"  # evaluated by the warm-up
    assert [m.content for m in prompt.messages[len(prompt.prefix):]] == ["Reply in English.", "hi"]


def test_a_section_with_a_budget_of_its_own_leaves_the_dynamic_room_to_the_memories():
    window = select_history(entries(2), "", BUDGETS["history"], count)
    memories = tuple(f"- memory {i} " + "m" * 20 for i in range(10))
    page = ("Mochi:", *(f"- fact {i} " + "f" * 20 for i in range(10)))
    budgets = {**BUDGETS, "dynamic": 40, "entity_page": 25}
    alone = build_prompt([], window, [PromptSection("dynamic", "Memories", "", memories)], "hi", budgets, count)
    both = build_prompt([], window, [PromptSection("entity_page", "Notes", "", page),
                                     PromptSection("dynamic", "Memories", "", memories)], "hi", budgets, count)
    assert alone.context in both.context  # the same memories, whole
    assert 0 < both.section_tokens["entity_page"] <= 25 and both.section_tokens["dynamic"] <= 40
    assert "Mochi:\n- fact 0" in both.context and "fact 9" not in both.context
    assert "Notes" not in build_prompt([], window, [PromptSection("entity_page", "Notes", "", page)], "hi", BUDGETS,
                                       count).context  # no budget named for it: not shown


def test_memory_lines_are_counted_as_they_are_shown():
    """Said once for its day, a date leaves room for another line of the same budget."""
    from agent.memory_lines import grouped_by_date
    from agent.prompt_builder import fit_lines

    lines = tuple(f"- [10 April 2026] Haruka: message number {n}." for n in range(4))
    one_by_one = fit_lines(lines, 40, count)
    grouped = fit_lines(lines, 40, count, join=grouped_by_date)
    assert one_by_one.count("Haruka") == 3
    assert grouped.count("Haruka") == 4 and grouped.count("10 April 2026") == 1
    assert count(grouped) <= 40
