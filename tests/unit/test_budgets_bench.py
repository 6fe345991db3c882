"""The budgets bench's accounting (bench/budgets_bench.py): a section over its budget, or a prompt
that with the reply's room does not fit the context, fails; the sections without a budget of their
own (the message, the reminder) never do; and a real prompt, built by the app's builder, is within."""
import constants
from agent.prompt_builder import PromptSection, build_prompt, select_history
from bench.budgets_bench import account
from managers.chat_log import LogEntry

BUDGETS = {"identity": 100, "history": 200, "dynamic": 50}


def count(text: str) -> int:
    return len(text.split())


def test_a_section_over_its_budget_fails_and_sections_without_one_never_do():
    within = account({"identity": 100, "history": 150, "dynamic": 50, "message": 900, "reminder": 20}, BUDGETS, {},
                     content_tokens=1300, messages=4, tool_tokens=0, reply_tokens=256, context=4096)
    assert within["ok"] and within["over_budget"] == [] and within["framing"] == 80
    assert within["prompt_total"] == 1300 + constants.CHAT_TEMPLATE_TOKENS_PER_MESSAGE * 5
    over = account({"identity": 101, "history": 150, "dynamic": 50}, BUDGETS, {"identity": 400}, content_tokens=320,
                   messages=3, tool_tokens=0, reply_tokens=256, context=4096)
    assert not over["ok"] and over["over_budget"] == ["identity"]
    assert over["sections"][0] == {"section": "identity", "used": 101, "budget": 100, "full": 400, "over": True}


def test_a_prompt_that_leaves_no_room_for_the_reply_fails():
    tight = account({"identity": 100}, BUDGETS, {}, content_tokens=3800, messages=3, tool_tokens=30,
                    reply_tokens=256, context=4096)
    assert not tight["fits_context"] and not tight["ok"] and tight["over_budget"] == []


def test_a_prompt_the_app_builds_is_within_its_budgets_the_reminder_apart():
    history = [LogEntry("USER" if i % 2 == 0 else "AGENT", "x", "word " * 30, f"id{i}", None) for i in range(40)]
    window = select_history(history, "", BUDGETS["history"], count)
    memories = tuple(f"- memory {i} " + "m " * 8 for i in range(20))
    prompt = build_prompt([PromptSection("identity", "Who you are", "I am Ark. " * 200)], window,
                          [PromptSection("dynamic", "Memories", "", memories)], "hello there", BUDGETS, count,
                          reminder="Reply in English, as Ark, to Mina. " * 4)
    result = account(prompt.section_tokens, BUDGETS, {}, sum(count(m.content) for m in prompt.messages),
                     len(prompt.messages), 0, 256, 4096)
    used = {s["section"]: s["used"] for s in result["sections"]}
    assert result["ok"] and 90 < used["identity"] <= 100 and 0 < used["dynamic"] <= 50 and used["reminder"] == 28


def test_what_the_prompt_would_need_with_every_budget_full_is_reported_not_judged():
    result = account({"identity": 60, "history": 150, "message": 10}, BUDGETS, {}, content_tokens=250, messages=3,
                     tool_tokens=0, reply_tokens=100, context=400)
    assert result["ok"] and result["prompt_at_budgets"] == result["prompt_total"] + 40 + 50
    assert not result["fits_context_at_budgets"]
