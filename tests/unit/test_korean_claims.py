"""A Korean reaction that tells the user's doing as a plain past statement with no subject is the persona
claiming it (Korean leaves the "I" out, as Japanese does): said back with the user as its subject
(agent/hangul.py plain_past_statement, agent/role.py; dev-ko-suyeong, session 44)."""
import pytest

from agent.character_guard import SentenceGate
from agent.hangul import plain_past_statement
from agent.role import takes_users_part, users_part_said_back
from tests.unit.test_role import stream

_LESSON = "아크, 안녕! 나 지훈이야. 어제 처음으로 수영 강습을 받았어."


@pytest.mark.parametrize("sentence, plain", [
    ("수영 강습을 처음 받았어요.", True), ("출판사 면접을 봤습니다.", True), ("케이크를 구웠어.", True),
    # the listener's doing (honorific), a reaction, a question, someone else as the subject, not the past
    ("수영 강습을 처음 받으셨어요?", False), ("수영 강습을 처음 받았군요!", False), ("좋은 시간을 보냈네요.", False),
    ("수영 강습을 처음 받았어요?", False), ("어제는 비가 왔어요.", False), ("선생님이 잘 가르쳐 줬어요.", False),
    ("오늘은 밥 먹으러 갈게요.", False),
])
def test_a_plain_past_statement_with_no_subject(sentence, plain):
    assert plain_past_statement(sentence) is plain


@pytest.mark.parametrize("sentence, said_back", [
    ("수영 강습을 처음 받았어요.", "지훈님은 수영 강습을 처음 받았어요."),
    # must not change: the user's doing said as theirs, "me too", a question, the persona's own other day
    ("수영 강습을 처음 받았군요!", None), ("저도 어제 수영 강습을 받았어요.", None), ("수영 강습을 처음 받으셨어요?", None),
    ("어제는 날씨가 좋아서 하루를 잘 보냈어요.", None),
])
def test_the_users_doing_told_plainly_in_a_reaction_is_said_back_as_theirs(sentence, said_back):
    assert users_part_said_back(sentence, [_LESSON], ["지훈"], "ko", reacting=True) == said_back


def test_the_answer_to_a_question_about_the_users_doing_keeps_its_plain_past():
    # "내가 뭐 했지?" answered "수영 강습을 처음 받았어요." is the user's doing without a subject: right as it is
    assert not takes_users_part("수영 강습을 처음 받았어요.", [_LESSON], ["지훈"], "ko", reacting=False)


@pytest.mark.parametrize("piece", [1, 4, 1000])
def test_after_a_greeting_the_claim_is_said_back(piece):
    gate = SentenceGate(("지훈", "Ark"), _LESSON, "ko", user_names=("지훈",), user_said=(), persona_name="Ark",
                        greet_early=True)
    shown = stream(gate, "안녕하세요! 수영 강습을 처음 받았어요. 물이 차갑지 않았나요?", piece)
    assert "지훈님은 수영 강습을 처음 받았어요." in shown and shown.startswith("안녕하세요!")
