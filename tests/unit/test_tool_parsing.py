"""Tool calls written as text by the small local model: found, validated, removed from the text."""
from __future__ import annotations

import dataclasses
import json
import time

import pytest

from agent.providers.base import ToolCall
from agent.tool_parsing import ToolParseResult, extract_tool_calls

KNOWN = {
    "edit_notepad": {
        "type": "object",
        "properties": {"content": {"type": "string"}},
        "required": ["content"],
    },
    "search_memory": {
        "type": "object",
        "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
        "required": ["query"],
    },
    "set_flag": {
        "type": "object",
        "properties": {
            "flag": {"type": "boolean"},
            "weight": {"type": "number"},
            "items": {"type": "array"},
            "meta": {"type": "object"},
        },
        "required": ["flag"],
    },
}
NOTE = ToolCall("edit_notepad", {"content": "牛乳を買う"}, "text-call-1")


def test_observed_doubled_braces_with_text_around() -> None:
    text = 'メモしておくね。\n{{"name": "edit_notepad", "arguments": {"content": "牛乳を買う"}}}\n他には？'
    result = extract_tool_calls(text, KNOWN)
    assert result == ToolParseResult((NOTE,), "メモしておくね。\n他には？", ())


@pytest.mark.parametrize(
    "call",
    [
        '{"name": "edit_notepad", "arguments": {"content": "牛乳を買う"}}',
        '{{"name": "edit_notepad", "arguments": {{"content": "牛乳を買う"}}}}',  # all doubled
        '{{"name": "edit_notepad", "arguments": {"content": "牛乳を買う"}}',  # one close short
        '{"name": "edit_notepad", "parameters": {"content": "牛乳を買う"}}',
        '{"tool": "edit_notepad", "args": {"content": "牛乳を買う"}}',
        '{"name": "edit_notepad", "arguments": "{\\"content\\": \\"牛乳を買う\\"}"}',
        '{"type": "function", "function": {"name": "edit_notepad", '
        '"arguments": {"content": "牛乳を買う"}}}',
        "{'name': 'edit_notepad', 'arguments': {'content': '牛乳を買う'}}",
        '```json\n{"name": "edit_notepad", "arguments": {"content": "牛乳を買う"}}\n```',
        '```\n{{"name": "edit_notepad", "arguments": {"content": "牛乳を買う"}}}\n```',
        '<tool_call>\n{"name": "edit_notepad", "arguments": {"content": "牛乳を買う"}}\n</tool_call>',
        '[{"name": "edit_notepad", "arguments": {"content": "牛乳を買う"}}]',
        '{"name": "Edit_Notepad", "arguments": {"content": "牛乳を買う"}}',
    ],
)
def test_call_shapes_are_accepted_and_removed_with_their_wrapper(call: str) -> None:
    text = f"了解、書いておきます。\n\n{call}\n\n書きました！"
    result = extract_tool_calls(text, KNOWN)
    assert result.calls == (NOTE,)
    assert result.remaining_text == "了解、書いておきます。\n\n書きました！"
    assert result.rejected == ()


def test_call_alone_leaves_no_text() -> None:
    result = extract_tool_calls('  {"name": "search_memory", "arguments": {"query": "猫"}}\n', KNOWN)
    assert result.calls == (ToolCall("search_memory", {"query": "猫"}, "text-call-1"),)
    assert result.remaining_text == ""


def test_call_inline_in_a_sentence() -> None:
    text = '探すね {"name": "search_memory", "arguments": {"query": "猫"}} ちょっと待って'
    assert extract_tool_calls(text, KNOWN).remaining_text == "探すね ちょっと待って"


def test_braces_and_quotes_inside_strings_do_not_confuse_the_scan() -> None:
    content = 'a }} b {{ c } "quoted" it\'s'
    call = {"name": "edit_notepad", "arguments": {"content": content}}
    doubled = "{" + json.dumps(call, ensure_ascii=False) + "}"
    for text in (json.dumps(call), doubled):
        result = extract_tool_calls(f"x {text} y", KNOWN)
        assert result.calls == (ToolCall("edit_notepad", {"content": content}, "text-call-1"),)
        assert result.remaining_text == "x y"


def test_raw_newlines_inside_a_string_are_accepted() -> None:
    text = '{"name": "edit_notepad", "arguments": {"content": "一行目\n二行目"}}'
    assert extract_tool_calls(text, KNOWN).calls[0].arguments == {"content": "一行目\n二行目"}


def test_several_calls_are_numbered_and_rejected_ones_take_no_number() -> None:
    text = (
        '{"name": "search_memory", "arguments": {"query": "a"}}\n'
        '{"name": "unknown_tool", "arguments": {}}\n'
        '{"name": "search_memory", "arguments": {"query": "b", "limit": 2}}'
    )
    result = extract_tool_calls(text, KNOWN)
    assert [c.id for c in result.calls] == ["text-call-1", "text-call-2"]
    assert result.calls[1].arguments == {"query": "b", "limit": 2}
    assert result.remaining_text == '{"name": "unknown_tool", "arguments": {}}'
    assert len(result.rejected) == 1


def test_unknown_tool_is_rejected_and_left_in_text() -> None:
    text = 'はい {"name": "delete_everything", "arguments": {"all": true}}'
    result = extract_tool_calls(text, KNOWN)
    assert result.calls == ()
    assert result.remaining_text == text
    assert len(result.rejected) == 1 and "delete_everything" in result.rejected[0]


def test_inner_arguments_of_a_rejected_call_are_not_taken_as_a_call() -> None:
    text = '{"name": "nope", "arguments": {"name": "search_memory", "arguments": {"query": "x"}}}'
    result = extract_tool_calls(text, KNOWN)
    assert result.calls == () and len(result.rejected) == 1


def test_missing_required_argument_is_rejected() -> None:
    result = extract_tool_calls('{"name": "search_memory", "arguments": {"limit": 3}}', KNOWN)
    assert result.calls == ()
    assert len(result.rejected) == 1 and "query" in result.rejected[0]


def test_missing_arguments_object_is_rejected_for_a_tool_with_required_args() -> None:
    result = extract_tool_calls('{"name": "edit_notepad"}', KNOWN)
    assert result.calls == () and "content" in result.rejected[0]


@pytest.mark.parametrize(
    "arguments",
    [
        {"content": 123},
        {"content": None},
        {"content": ["a"]},
    ],
)
def test_wrong_type_of_required_argument_is_rejected(arguments: dict) -> None:
    text = json.dumps({"name": "edit_notepad", "arguments": arguments})
    result = extract_tool_calls(text, KNOWN)
    assert result.calls == ()
    assert len(result.rejected) == 1 and "content" in result.rejected[0]
    assert result.remaining_text == text


@pytest.mark.parametrize(
    "arguments",
    [
        {"query": "q", "limit": "3"},
        {"query": "q", "limit": 2.5},
        {"query": "q", "limit": True},
    ],
)
def test_wrong_type_of_optional_argument_is_rejected(arguments: dict) -> None:
    text = json.dumps({"name": "search_memory", "arguments": arguments})
    result = extract_tool_calls(text, KNOWN)
    assert result.calls == () and "limit" in result.rejected[0]


@pytest.mark.parametrize(
    ("arguments", "ok"),
    [
        ({"flag": True, "weight": 2, "items": ["a"], "meta": {"k": 1}}, True),
        ({"flag": False, "weight": 0.5}, True),
        ({"flag": "yes"}, False),
        ({"flag": 1}, False),
        ({"flag": True, "weight": True}, False),
        ({"flag": True, "weight": "0.5"}, False),
        ({"flag": True, "items": "a"}, False),
        ({"flag": True, "meta": ["k"]}, False),
    ],
)
def test_basic_json_types(arguments: dict, ok: bool) -> None:
    result = extract_tool_calls(json.dumps({"name": "set_flag", "arguments": arguments}), KNOWN)
    assert (result.calls == (ToolCall("set_flag", arguments, "text-call-1"),)) is ok
    assert bool(result.rejected) is not ok


def test_integral_float_is_accepted_as_integer() -> None:
    text = '{"name": "search_memory", "arguments": {"query": "q", "limit": 3.0}}'
    limit = extract_tool_calls(text, KNOWN).calls[0].arguments["limit"]
    assert limit == 3 and isinstance(limit, int)


def test_unknown_extra_arguments_are_dropped() -> None:
    text = '{"name": "edit_notepad", "arguments": {"content": "x", "mood": "happy", "n": 1}}'
    assert extract_tool_calls(text, KNOWN).calls[0].arguments == {"content": "x"}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "普通のお返事です。",
        "a {b} c {{d}} e { unclosed",
        'データ例: {"name": "Alice", "age": 3}',
        '```json\n{"key": [1, 2, 3]}\n```',
    ],
)
def test_text_without_calls_is_unchanged(text: str) -> None:
    assert extract_tool_calls(text, KNOWN) == ToolParseResult((), text, ())


def test_other_code_fences_survive_when_a_call_is_removed() -> None:
    text = (
        '```py\nprint("{")\n```\n'
        '{"name": "search_memory", "arguments": {"query": "a"}}\n'
        "```js\nlet x = {};\n```"
    )
    result = extract_tool_calls(text, KNOWN)
    assert len(result.calls) == 1
    assert result.remaining_text == '```py\nprint("{")\n```\n```js\nlet x = {};\n```'


def test_result_is_frozen() -> None:
    result = extract_tool_calls("", KNOWN)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.remaining_text = "x"  # type: ignore[misc]


def test_pathological_braces_finish_quickly() -> None:
    text = "{" * 3000 + '"' + "}" * 10 + " 終わり"
    started = time.monotonic()
    result = extract_tool_calls(text, KNOWN)
    assert time.monotonic() - started < 5
    assert result == ToolParseResult((), text, ())
