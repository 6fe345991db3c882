"""Tool calls that a model without native tool calling writes as plain text.

The small local model writes them in several shapes, with or without prose around them:
``{{"name": "edit_notepad", "arguments": {...}}}`` (doubled braces), a ```` ```json ```` fenced
object, a plain object, ``<tool_call>{...}</tool_call>``, with ``parameters``/``args``/``input``
for the arguments, ``tool`` for the name, or the OpenAI ``{"function": {...}}`` shape. Objects are
found by scanning for balanced braces (respecting strings) and parsed with `json`; doubled braces
are collapsed only when the text as written is not valid. A call is accepted only if it names a
known tool and its arguments carry every required property with the right basic JSON type.
"""
from __future__ import annotations

import ast
import json
import logging
import re
from dataclasses import dataclass
from typing import Any, Mapping

from agent.providers.base import ToolCall

log = logging.getLogger(__name__)

_NAME_KEYS = ("name", "tool", "tool_name", "function")
_ARG_KEYS = ("arguments", "parameters", "args", "input")
_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}
# Characters scanned for balanced braces, at most, per text: pathological input (thousands of
# unclosed braces) stays linear instead of quadratic. Far above any real reply.
_SCAN_BUDGET_CHARS = 2_000_000
_MARK = "\x00"  # stands in for a removed call while the wrappers around it are removed
_WRAPPER_RES = (
    re.compile(r"\[[\s,\x00]*\x00[\s,\x00]*\]"),  # a JSON array of calls
    re.compile(r"<tool_call>[\s\x00]*\x00[\s\x00]*(?:</tool_call>|\Z)"),
)
_FENCE_RE = re.compile(r"```[^\n`]*\n?(?P<body>.*?)(?:```|\Z)", re.DOTALL)  # pairs in order
_ONLY_MARKS_RE = re.compile(r"[\s,\x00]*\x00[\s,\x00]*")
_MARK_GAP_RE = re.compile(r"(?P<before>\s*)\x00(?:\s*\x00)*(?P<after>\s*)")


@dataclass(frozen=True)
class ToolParseResult:
    calls: tuple[ToolCall, ...]
    remaining_text: str  # the text without the accepted calls (and their fences)
    rejected: tuple[str, ...] = ()  # one human-readable reason per call-shaped object refused


def extract_tool_calls(text: str, known_tools: Mapping[str, Mapping]) -> ToolParseResult:
    """Find tool calls written as text; `known_tools` maps tool name to its arguments' schema.

    Accepted calls get ids ``text-call-1``, ``text-call-2``…; arguments not in the schema's
    properties are dropped. Objects without a tool name are not calls and stay in the text;
    rejected calls stay in the text too. NUL characters are removed from the text.
    """
    text = text.replace(_MARK, "")
    calls: list[ToolCall] = []
    rejected: list[str] = []
    spans: list[tuple[int, int]] = []
    budget = _SCAN_BUDGET_CHARS
    start = text.find("{")
    while start >= 0 and budget > 0:
        end = _balanced_end(text, start)
        budget -= (end or len(text)) - start
        obj = _load_object(text[start:end]) if end else None
        shape = _call_shape(obj, known_tools) if obj is not None else None
        if shape is None or end is None:
            start = text.find("{", start + 1)
            continue
        outcome = _to_call(shape[0], shape[1], known_tools, len(calls) + 1)
        if isinstance(outcome, ToolCall):
            calls.append(outcome)
            spans.append(_absorb_doubled(text, start, end, spans[-1][1] if spans else 0))
        else:
            log.info("rejected text tool call: %s", outcome)
            rejected.append(outcome)
        start = text.find("{", end)
    remaining = _remove(text, spans) if spans else text
    return ToolParseResult(tuple(calls), remaining, tuple(rejected))


def _balanced_end(text: str, start: int) -> int | None:
    """End (exclusive) of the brace group opening at `start`, skipping quoted strings."""
    depth = 0
    quote = ""
    i = start
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def _collapse_doubled(raw: str) -> str:
    """``{{`` → ``{`` and ``}}`` → ``}`` outside strings."""
    out: list[str] = []
    quote = ""
    i = 0
    while i < len(raw):
        ch = raw[i]
        step = 1
        if quote:
            if ch == "\\":
                step = 2
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "{}" and raw[i + 1 : i + 2] == ch:
            step = 2
            out.append(ch)
            i += step
            continue
        out.append(raw[i : i + step])
        i += step
    return "".join(out)


def _load_object(raw: str) -> dict | None:
    variants = [raw]
    if "{{" in raw or "}}" in raw:
        variants.append(_collapse_doubled(raw))
        if raw.startswith("{{") and raw.endswith("}}"):
            variants.append(raw[1:-1])
    for variant in variants:
        try:
            value = json.loads(variant, strict=False)  # strict=False: raw newlines in strings
        except (ValueError, RecursionError):
            try:  # Python-literal style: single quotes, True/False/None
                value = ast.literal_eval(variant)
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                continue
        if isinstance(value, dict):
            return value
    return None


def _call_shape(obj: dict, known_tools: Mapping[str, Mapping]) -> tuple[str, Any] | None:
    """(name, raw arguments) if `obj` looks like a tool call, else None."""
    function = obj.get("function")
    if isinstance(function, dict) and isinstance(function.get("name"), str):
        obj = function
    name = next((obj[k] for k in _NAME_KEYS if isinstance(obj.get(k), str)), None)
    if name is None:
        return None
    has_args = any(k in obj for k in _ARG_KEYS)
    if not has_args and _resolve_name(name, known_tools) is None:
        return None  # e.g. {"name": "Alice", "age": 3} in prose: data, not a call
    return name, next((obj[k] for k in _ARG_KEYS if k in obj), {})


def _resolve_name(name: str, known_tools: Mapping[str, Mapping]) -> str | None:
    name = name.strip()
    if name in known_tools:
        return name
    folded = [known for known in known_tools if known.lower() == name.lower()]
    return folded[0] if len(folded) == 1 else None


def _to_call(name: str, args: Any, known_tools: Mapping[str, Mapping], n: int) -> ToolCall | str:
    tool = _resolve_name(name, known_tools)
    if tool is None:
        return f"unknown tool {name[:80]!r}"
    if isinstance(args, str):
        try:
            args = json.loads(args, strict=False) if args.strip() else {}
        except ValueError:
            return f"{tool}: arguments are not a JSON object"
    if args is None:
        args = {}
    if not isinstance(args, dict):
        return f"{tool}: arguments are not a JSON object"
    clean = _validate(tool, args, known_tools[tool])
    return clean if isinstance(clean, str) else ToolCall(tool, clean, f"text-call-{n}")


def _validate(tool: str, args: dict, schema: Mapping) -> dict | str:
    for key in schema.get("required") or ():
        if key not in args:
            return f"{tool}: missing required argument {key!r}"
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return dict(args)
    clean: dict[str, Any] = {}
    for key, prop in properties.items():
        if key not in args:
            continue
        expected = prop.get("type") if isinstance(prop, Mapping) else None
        ok, value = _check_type(args[key], expected)
        if not ok:
            return f"{tool}: argument {key!r} should be {expected}, got {type(args[key]).__name__}"
        clean[key] = value
    dropped = [key for key in args if key not in properties]
    if dropped:
        log.debug("%s: dropped unknown arguments %s", tool, dropped)
    return clean


def _check_type(value: Any, expected: Any) -> tuple[bool, Any]:
    """Whether `value` has JSON type `expected` (a name, a list of names, or None: any)."""
    if expected is None:
        return True, value
    for name in [expected] if isinstance(expected, str) else list(expected):
        types = _JSON_TYPES.get(name)
        if types is None:
            return True, value  # a type this checker does not know: let it through
        if isinstance(value, bool) and bool not in types:
            continue
        if isinstance(value, types):
            return True, value
        if name == "integer" and isinstance(value, float) and value.is_integer():
            return True, int(value)
    return False, value


def _absorb_doubled(text: str, start: int, end: int, floor: int) -> tuple[int, int]:
    """Widen a call's span over the stray outer braces of an unbalanced ``{{…}}``."""
    while start > floor and text[start - 1] == "{":
        start -= 1
    while end < len(text) and text[end] == "}":
        end += 1
    return start, end


def _remove(text: str, spans: list[tuple[int, int]]) -> str:
    pieces: list[str] = []
    pos = 0
    for start, end in spans:
        pieces += [text[pos:start], _MARK]
        pos = end
    marked = "".join(pieces) + text[pos:]
    for wrapper in _WRAPPER_RES:
        marked = wrapper.sub(_MARK, marked)
    marked = _FENCE_RE.sub(
        lambda m: _MARK if _ONLY_MARKS_RE.fullmatch(m.group("body")) else m.group(), marked
    )
    return _MARK_GAP_RE.sub(_gap, marked).strip()


def _gap(m: re.Match) -> str:
    """What is left where calls were removed: a line break, a blank line, a space or nothing."""
    newlines = min(2, max(m.group("before").count("\n"), m.group("after").count("\n")))
    if newlines:
        return "\n" * newlines
    return " " if m.group("before") or m.group("after") else ""
