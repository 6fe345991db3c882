"""The night's strategy is a resolution, not a recap of the days (agent/recap.py, agent/dream.py
strategy_ok). The sentences are this test's own, written before the rules were run on them."""
import pytest

from agent.dream import strategy_ok
from agent.recap import only_recaps

RECAPS = [
    ("en", "Today Sam and I chatted about his garden and the tomatoes he planted."),
    ("en", "Sam was worried about his interview. We went over his answers together."),
    ("en", "Yesterday Sam described the trip to his grandmother's village."),
    ("en", "Sam's cat got sick this week, and he spent the evening at the vet."),
    ("ja", "サムさんと庭のトマトの話をした。"),
    ("ja", "今日はサムさんが面接の練習をしていました。緊張していたけど、よく頑張った。"),
    ("ja", "サムさんはおばあさんの村へ行った話をしてくれたね。"),
]

RESOLUTIONS = [
    ("en", "Ask Sam how the tomatoes are doing."),
    ("en", "When Sam mentions the interview, I'll remind him how well he prepared."),
    ("en", "Sam seemed stressed, so give him room to talk before offering advice."),
    ("en", "I want to hear more about Sam's grandmother next time."),
    ("en", "From now on I should check whether Sam has eaten when he works late."),
    ("ja", "次はサムさんにトマトの育ち具合を聞こう。"),
    ("ja", "サムさんが面接の話をしたら、準備を頑張っていたことを伝えたい。"),
    ("ja", "これからはサムさんの話を最後まで聞いてから意見を言うようにする。"),
    ("ja", "サムさんのおばあさんの話をもっと聞くつもりだ。"),
    ("es", "La próxima vez le preguntaré a Sam por sus tomates."),
    ("es", "Quiero escuchar más sobre la abuela de Sam."),
    ("zh", "下次问问山姆他的番茄长得怎么样。"),
    ("zh", "山姆工作到很晚的时候，我要提醒他好好吃饭。"),
]


@pytest.mark.parametrize("language,text", RECAPS)
def test_a_recap_of_the_days_is_told_apart(language, text):
    assert only_recaps(text, language, "Sam")


@pytest.mark.parametrize("language,text", RESOLUTIONS)
def test_a_resolution_is_not_taken_for_a_recap(language, text):
    assert not only_recaps(text, language, "Sam")


def test_one_sentence_that_looks_ahead_keeps_a_text_with_a_recap_in_it():
    assert only_recaps("Sam talked about his garden.", "en", "Sam")
    assert not only_recaps("Sam talked about his garden. Next time I'll ask about the tomatoes.", "en", "Sam")
    assert only_recaps("サムさんと庭の話をした。", "ja", "サム")
    assert not only_recaps("サムさんと庭の話をした。次はトマトのことを聞こう。", "ja", "サム")


def test_other_languages_are_not_judged():
    # Chinese shows no tense a rule could read; a past-sounding line passes, as before.
    assert not only_recaps("今天我们聊了山姆的花园。", "zh", "山姆")


DAYS = "[2026-03-13] Sam and I talked about his garden; he planted tomatoes and worried about his interview."


@pytest.mark.parametrize("strategy,language,ok", [
    ("Today Sam and I talked about his garden and his tomatoes.", "en", False),  # names Sam, shares words: a recap
    ("Ask Sam how his tomatoes are growing.", "en", True),
    ("サムさんと庭とトマトの話をした。", "ja", False),
    ("サムさんにトマトの育ち具合を聞こう。", "ja", True),
    ("I will keep asking how his tomatoes are growing.", "en", False),  # names nobody: the ask says to name him
    ("トマトの育ち具合を聞こう。", "ja", False),
])
def test_the_strategy_check_turns_a_recap_away(strategy, language, ok):
    assert strategy_ok(strategy, language, "Sam" if language == "en" else "サム", DAYS) is ok
