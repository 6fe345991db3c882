"""Korean words as units of content: a word without its particle or verb ending.

Korean writes a particle or an ending onto each word (면접을, 면접이), so two sentences
about the same interview shared no word: "저는 한편에서 출판사 면접을 봤습니다." to "오늘 출판사 면접을 봤는데
…" passed as the persona's own interview (bench conversation, session 43, our dev-ko-myeonjeop). One
suffix is taken off, the longest that leaves a word; the first person and the words of time and
degree every sentence may hold are no content.
"""
from __future__ import annotations

import re

HANGUL_WORD = re.compile(r"[\uac00-\ud7af]{2,}")
_FINAL_SS = 20  # ㅆ among a syllable's 28 finals (Unicode's Hangul syllable order)
# Verb endings and particles, the longest tried first.
_SUFFIXES = sorted("""
었습니다 았습니다 였습니다 습니다 니다 었어요 았어요 였어요 이에요 에요 예요 어요 아요 여요 해요 세요 어서 아서 는데 은데 었던 았던
던 었다 았다 였다 지만 니까 으면 면서 네요 죠 잖아 에서 에게 한테 까지 부터 처럼 보다 이랑 랑 하고 으로 로 은 는 이 가 을 를 에 의 도
와 과 만 요 다 고 어 아 지
""".split(), key=len, reverse=True)
# The speaker, and words any sentence may hold (today, really, very, still…): shared, they tell nothing.
_NO_CONTENT = frozenset("""
저는 제가 나는 내가 저희 우리 저도 나도 오늘 어제 내일 지금 아직 이제 정말 진짜 너무 아주 많이 조금 그냥 그리고 그런데 근데 하지만
그래서 다시 같이 함께 생각 그것 이것 그거 이거
""".split())


def korean_unit(word: str) -> str:
    """The word without its particle or ending ("면접을" → "면접", "봤어요" and "봤는데" → "봤")."""
    return next((word[:-len(s)] for s in _SUFFIXES if word.endswith(s) and _may_stand(word[:-len(s)])), word)


def _may_stand(stem: str) -> bool:
    """Two syllables, or one in the past tense (봤, 갔, 했: its final ㅆ): a shorter rest would make one word of many
    (바다 "sea" and 바)."""
    return len(stem) >= 2 or (len(stem) == 1 and (ord(stem) - 0xAC00) % 28 == _FINAL_SS)


def korean_units(text: str) -> set[str]:
    """The content units of the Korean words in `text`."""
    return {unit for word in HANGUL_WORD.findall(text)
            if word not in _NO_CONTENT and (unit := korean_unit(word)) not in _NO_CONTENT}


# A plain statement of a past doing ends its last word in a past stem (final ㅆ) and a plain ending; 셨 is the
# honorific past (the listener's doing: 받으셨어요), and 네요, 군요 react to what was told ("so you did").
_PLAIN_PAST_ENDINGS = ("습니다", "어요", "어", "다")
_SUBJECT = re.compile(r"[\uac00-\ud7af]+(?:이|가|께서)(?![\uac00-\ud7af])")


def plain_past_statement(sentence: str) -> bool:
    """Whether a Korean sentence tells a past doing plainly and with no subject of its own ("수영 강습을 처음
    받았어요.", not "받으셨어요", "받았군요" or "비가 왔어요"): in a reaction, the speaker's own doing, as a Japanese
    「…作りました」 (agent/role.py)."""
    words = HANGUL_WORD.findall(sentence)
    if not words or _SUBJECT.search(sentence) or sentence.rstrip().endswith(("?", "？")):  # "받았어요?": you did?
        return False
    last = words[-1]
    ending = next((e for e in _PLAIN_PAST_ENDINGS if last.endswith(e) and len(last) > len(e)), None)
    before = last[-len(ending) - 1] if ending else ""
    return bool(before) and before != "셨" and (ord(before) - 0xAC00) % 28 == _FINAL_SS
