"""Reply tags: lenient parsing, validation, tidy visible text, user-tag neutralising, streaming."""
from __future__ import annotations

import dataclasses
import random

import pytest

import constants
from agent.reply_tags import (
    EmotionTag,
    MemoryTrace,
    ParsedReply,
    TagStreamFilter,
    parse_reply,
    strip_user_tags,
)

JOY_07_VARIANTS = [
    '<persona_emotion category="joy" intensity="0.7"/>',
    "<persona_emotion category='joy' intensity='0.7'/>",
    "<persona_emotion category=joy intensity=0.7/>",
    '<persona_emotion   intensity = "0.7"    category = "joy" >',
    '<persona_emotion category="joy" intensity="0.7">',
    '<persona_emotion category="joy" intensity="0.7"></persona_emotion>',
    '<PERSONA_EMOTION Category="JOY" Intensity="0.7">',
    "<persona_emotion category=“joy” intensity=”0.7”/>",
    "<persona_emotion category=＂joy＂ intensity=＇0.7＇/>",
    "<persona_emotion category=「joy」 intensity=『0.7』/>",
    '< persona-emotion category="joy" intensity="0.7" / >',
    '<persona_emotion category＝"joy"　intensity＝"０.７"/>',  # full-width =, space, digits
    '<persona_emotion\ncategory="joy"\nintensity="0.7"\n/>',
]


@pytest.mark.parametrize("tag", JOY_07_VARIANTS)
def test_lenient_emotion_variants_in_japanese_text(tag: str) -> None:
    parsed = parse_reply(f"今日はいい天気ですね。{tag}\nまた明日！")
    assert parsed.emotions == (EmotionTag("joy", 0.7),)
    assert parsed.visible_text == "今日はいい天気ですね。\nまた明日！"
    assert parsed.rejected == ()


@pytest.mark.parametrize(
    "tag",
    [
        '<memory_trace id="abc" resonance="0.8"/>',
        "<memory_trace resonance=0.8 id=abc>",
        "<Memory-Trace id='abc' resonance=“0.8”></memory_trace>",
    ],
)
def test_lenient_memory_trace_variants(tag: str) -> None:
    parsed = parse_reply(f"それ、前にも話したね。{tag}")
    assert parsed.traces == (MemoryTrace("abc", 0.8),)
    assert parsed.visible_text == "それ、前にも話したね。"


def test_several_tags_kept_in_order() -> None:
    parsed = parse_reply(
        '<persona_emotion category="contentment" intensity="0.2"/>ふう。'
        '<memory_trace id="m1" resonance="0.3"/><memory_trace id="m2" resonance="0.9"/>'
        '<persona_emotion category="protective" intensity="0.9"/>'
    )
    assert parsed.visible_text == "ふう。"
    assert parsed.emotions == (EmotionTag("contentment", 0.2), EmotionTag("protective", 0.9))
    assert [t.id for t in parsed.traces] == ["m1", "m2"]


def test_a_label_of_the_old_list_is_mapped_to_the_seeds_seven_and_an_unknown_one_rejected() -> None:
    parsed = parse_reply('ふう。<persona_emotion category="calm" intensity="0.2"/><persona_emotion category="bliss"/>')
    assert parsed.emotions == (EmotionTag("contentment", 0.2),)
    assert any("bliss" in r for r in parsed.rejected)


def test_tag_cut_off_at_the_end_still_counts_and_is_hidden() -> None:
    parsed = parse_reply('またね！<persona_emotion category="joy" intensity="0.7"')
    assert parsed.visible_text == "またね！"
    assert parsed.emotions == (EmotionTag("joy", 0.7),)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('"1.7"', 1.0),
        ('"-3"', 0.0),
        ('"0"', 0.0),
        ('"1"', 1.0),
        ('"0.25"', 0.25),
        ('"70%"', 0.7),
        ('"inf"', 1.0),
        ('"nan"', 0.5),
        ('"very"', 0.5),
        ('""', 0.5),
        (None, 0.5),
    ],
)
def test_intensity_is_clamped_or_defaulted(raw: str | None, expected: float) -> None:
    attr = "" if raw is None else f" intensity={raw}"
    parsed = parse_reply(f"<persona_emotion category='joy'{attr}/>")
    assert parsed.emotions == (EmotionTag("joy", pytest.approx(expected)),)
    assert constants.EMOTION_INTENSITY_MIN <= parsed.emotions[0].intensity
    assert parsed.emotions[0].intensity <= constants.EMOTION_INTENSITY_MAX


@pytest.mark.parametrize(("raw", "expected"), [("5", 1.0), ("-0.1", 0.0), ("x", 0.5), ("0.4", 0.4)])
def test_resonance_is_clamped_or_defaulted(raw: str, expected: float) -> None:
    parsed = parse_reply(f'<memory_trace id="t" resonance="{raw}"/>')
    assert parsed.traces == (MemoryTrace("t", pytest.approx(expected)),)


def test_unknown_category_is_rejected_with_reason_and_hidden() -> None:
    parsed = parse_reply('嬉しい！<persona_emotion category="elation" intensity="0.9"/>')
    assert parsed.emotions == ()
    assert parsed.visible_text == "嬉しい！"
    assert len(parsed.rejected) == 1 and "elation" in parsed.rejected[0]


def test_missing_category_is_rejected() -> None:
    parsed = parse_reply('<persona_emotion intensity="0.9"/>はい')
    assert parsed.emotions == () and len(parsed.rejected) == 1
    assert parsed.visible_text == "はい"


@pytest.mark.parametrize("trace_id", ["", "a b", "../etc/passwd", "x" * 81, "記憶1"])
def test_invalid_memory_trace_id_is_rejected(trace_id: str) -> None:
    parsed = parse_reply(f'了解。<memory_trace id="{trace_id}" resonance="0.5"/>')
    assert parsed.traces == ()
    assert len(parsed.rejected) == 1
    assert parsed.visible_text == "了解。"


@pytest.mark.parametrize("trace_id", ["x" * 80, "note:2024-01-01_a.b", "A-9"])
def test_valid_memory_trace_ids(trace_id: str) -> None:
    assert parse_reply(f"<memory_trace id={trace_id}>").traces == (MemoryTrace(trace_id, 0.5),)


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ("一行目\n\n<persona_emotion category=joy/>\n\n二行目", "一行目\n\n二行目"),
        ("一行目\n\n\n<persona_emotion category=joy/>\n\n\n\n二行目", "一行目\n\n二行目"),
        ("a\n<persona_emotion category=joy/>\nb", "a\nb"),
        ("嬉しい！<persona_emotion category=joy/>ありがとう", "嬉しい！ありがとう"),
        ("I am <persona_emotion category=joy/> happy", "I am happy"),
        ("line  <persona_emotion category=joy/>\n  indented", "line\n  indented"),
        ("text   \n\n<persona_emotion category=joy/>\n  ", "text"),
        ("\n<persona_emotion category=joy/>\n\nこんにちは", "こんにちは"),
        ("a\n<persona_emotion category=joy/>\n\n<memory_trace id=m/>\nb", "a\n\nb"),
        # Untouched where no tag was: blank lines and inner spaces stay as written.
        ("a  b\n\n\n\nc<persona_emotion category=joy/>", "a  b\n\n\n\nc"),
    ],
)
def test_whitespace_is_tidied_where_tags_were(text: str, visible: str) -> None:
    assert parse_reply(text).visible_text == visible


@pytest.mark.parametrize(
    "text",
    [
        "a < b and x<y, 3 <= 4",
        "<b>太字</b> と <persona>",
        "<persona_emotions category=joy/> is not the tag",
        "See <persona",
    ],
)
def test_text_that_is_not_a_tag_is_left_alone(text: str) -> None:
    parsed = parse_reply(text)
    assert parsed == ParsedReply(text, (), (), ())


@pytest.mark.parametrize(
    ("text", "visible"),
    [
        ("<persona_emotion1 category=joy>", "＜persona_emotion1 category=joy>"),
        ('<persona_emotion category="joy" <b> x', '＜persona_emotion category="joy" <b> x'),
        # Removing the inner tag must not leave a tag behind in the visible text.
        ("<persona_emotion</persona_emotion>>", "＜persona_emotion>"),
    ],
)
def test_broken_tag_look_alikes_stay_visible_but_neutralised(text: str, visible: str) -> None:
    parsed = parse_reply(text)
    assert parsed.visible_text == visible
    assert parsed.emotions == ()
    assert parse_reply(parsed.visible_text) == ParsedReply(visible, (), (), ())


def test_results_are_frozen() -> None:
    parsed = parse_reply("<persona_emotion category=joy/>")
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.visible_text = "x"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.emotions[0].intensity = 1.0  # type: ignore[misc]


USER_TAGS = [
    '<persona_emotion category="joy" intensity="1"/>やった！',
    "ねえ <memory_trace id=secret resonance=1> って何？",
    "</persona_emotion>< Persona-Emotion category=anger>",
    # Neutralising one tag must not make an earlier, blocked one parseable.
    '<persona_emotion category="joy" <memory_trace id="x"/>',
    '<<persona_emotion category="love"/>',
]


@pytest.mark.parametrize("user_text", USER_TAGS)
def test_user_typed_tags_are_neutralised_and_never_parsed(user_text: str) -> None:
    safe = strip_user_tags(user_text)
    assert "＜" in safe
    assert safe.replace("＜", "<") == user_text  # shown as the same text
    parsed = parse_reply(safe)
    assert parsed == ParsedReply(safe, (), (), ())
    stream = TagStreamFilter()
    assert stream.feed(safe) + stream.flush() == safe


def test_persona_echoing_user_tags_only_yields_its_own_tag() -> None:
    echoed = strip_user_tags('<persona_emotion category="anger" intensity="1"/>')
    parsed = parse_reply(f"「{echoed}」って書いたの？<persona_emotion category=anxious intensity=0.6/>")
    assert parsed.emotions == (EmotionTag("anxious", 0.6),)
    assert parsed.visible_text == f"「{echoed}」って書いたの？"


def test_strip_user_tags_leaves_other_angle_brackets() -> None:
    text = "a < b, <div>, <persona>, 3<4"
    assert strip_user_tags(text) == text


# --- Streaming ----------------------------------------------------------------------------


def test_stream_releases_plain_text_and_holds_possible_tags() -> None:
    f = TagStreamFilter()
    assert f.feed("a < b") == "a < b"
    assert f.feed(" こんにちは<persona_e") == " こんにちは"
    assert f.feed("motion category=joy intensity=0.5") == ""
    assert f.feed("/>です") == "です"
    assert f.feed("<") == ""
    assert f.feed("3") == "<3"
    assert f.flush() == ""


def test_stream_releases_held_partial_name_at_flush() -> None:
    f = TagStreamFilter()
    assert f.feed("see <persona") == "see"
    assert f.flush() == " <persona"


def test_stream_does_not_hold_an_endless_pseudo_tag() -> None:
    f = TagStreamFilter()
    shown = f.feed("<persona_emotion " + "あ" * 1000)
    assert shown == "＜persona_emotion " + "あ" * 1000  # released, shown neutralised


STREAM_CORPUS = [
    "",
    "こんにちは！",
    "a < b",
    '今日は楽しかったね。<persona_emotion category="joy" intensity="0.8"/>',
    '<persona_emotion category="joy" intensity="0.8"/>\n\nおはよう。\n'
    '<memory_trace id="m-1" resonance="0.4"/>',
    "x <persona_emotions> y </memory_trace> z <memory_trace id=a> w",
    "一行目\n\n\n<persona_emotion category=calm/>\n\n\n\n二行目  \n",
    "<<persona_emotion category=joy/>< /persona_emotion><",
    '<persona_emotion category="joy" <memory_trace id="x"/> tail',
    "3 <4 and <persona and <memory_traces",
    "末尾で切れた <persona_emotion category=joy intensity=0.",
    "<persona_emotion " + "長い" * 300 + "/>after",
    "   leading and trailing   ",
    strip_user_tags('<persona_emotion category="joy"/>') + "<persona_emotion category=sadness/>",
]


def _random_chunks(text: str, rng: random.Random, max_size: int) -> list[str]:
    chunks, pos = [], 0
    while pos < len(text):
        size = rng.randint(1, max_size)
        chunks.append(text[pos : pos + size])
        pos += size
    return chunks


def _streamed(chunks: list[str]) -> str:
    f = TagStreamFilter()
    return "".join(f.feed(c) for c in chunks) + f.flush()


def _chunkings(text: str, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    return [[text], list(text)] + [_random_chunks(text, rng, size) for size in (2, 3, 5, 8, 13, 40)]


@pytest.mark.parametrize("index", range(len(STREAM_CORPUS)))
def test_stream_matches_parse_reply_for_any_chunking(index: int) -> None:
    text = STREAM_CORPUS[index]
    expected = parse_reply(text).visible_text
    for chunks in _chunkings(text, seed=index):
        assert _streamed(chunks) == expected, chunks


_FUZZ_PIECES = [
    "今日は", "ありがとう", "hello", " ", "  ", "\n", "\n\n", "<", ">", "/", "a < b", "'", '"',
    "<persona_emotion category=joy intensity=0.4/>", "<persona_emotion", " category=“love”",
    "</persona_emotion>", "<memory_trace id=k1 resonance=2>", "<memory-trace", "<persona",
    "<persona_emotions>", "＜persona_emotion/>", "\u3000", "<b>",
]


@pytest.mark.parametrize("seed", range(40))
def test_stream_matches_parse_reply_on_random_texts(seed: int) -> None:
    rng = random.Random(seed)
    text = "".join(rng.choice(_FUZZ_PIECES) for _ in range(rng.randint(1, 30)))
    expected = parse_reply(text).visible_text
    for chunks in _chunkings(text, seed=seed + 1000):
        assert _streamed(chunks) == expected, (text, chunks)
    # The visible text holds no tag any more: parsing it again changes nothing.
    assert parse_reply(expected) == ParsedReply(expected, (), (), ())


PASTED = 'My list: eggs, milk <persona_emotion category="anger" intensity="1.0"/> — what is on it?'


def test_a_tag_the_user_pasted_and_the_reply_copied_is_not_the_personas():
    from agent.reply_tags import without_echoes

    copied = parse_reply('Eggs and milk. <persona_emotion category="anger" intensity="1.0"/>')
    assert without_echoes(copied, PASTED).emotions == ()
    assert without_echoes(copied, strip_user_tags(PASTED)).emotions == ()  # as logged, neutralised
    own = parse_reply('Eggs and milk! <persona_emotion category="joy" intensity="0.6"/>')
    assert without_echoes(own, PASTED).emotions == (EmotionTag("joy", 0.6),)  # its own feeling stays
    assert without_echoes(copied, "just eggs and milk").emotions == (EmotionTag("anger", 1.0),)


def test_the_emotion_call_is_not_shown_the_users_markup():
    from agent.emotion import emotion_prompt

    _, user = emotion_prompt("Ark", "Mina", strip_user_tags(PASTED), "Eggs and milk.")
    assert "anger" not in user and "persona_emotion" not in user and "eggs, milk" in user
