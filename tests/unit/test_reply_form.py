import pytest

from agent.reply_form import without_form_request
from agent.retrieval import RetrievalResult, retrieve


@pytest.mark.parametrize("message, searched", [
    ("What is Joanna allergic to? (Answer in a few words.)", "What is Joanna allergic to?"),
    ("Briefly, what did I eat yesterday?", "what did I eat yesterday?"),
    ("When is my dentist appointment? Answer in one sentence, please.", "When is my dentist appointment?"),
    ("Tell me in a few words what my job is", "what my job is"),
    ("猫の名前は？一言で答えて", "猫の名前は？"),
    ("私の誕生日はいつ？（短く答えて）", "私の誕生日はいつ？"),
    ("我的猫叫什么？请用一句话回答。", "我的猫叫什么？"),
])
def test_a_request_about_the_replys_form_is_left_out_of_the_search(message, searched):
    assert without_form_request(message) == searched


@pytest.mark.parametrize("message", [
    "I had a short trip to Paris last week.", "What words did my son learn first?", "Answer me honestly: do you like jazz?",
    "短い旅行だった", "Briefly.",
])
def test_everything_else_is_searched_as_written(message):
    assert without_form_request(message) == message


def test_retrieval_searches_the_subject_not_the_requested_form(clock):
    searched = []

    def searcher(query, now):
        searched.append(query)
        return RetrievalResult(False, "test")

    retrieve("Where did Caroline move from? (Answer in a few words.)", clock(), searcher, enabled=True)
    assert searched == ["Where did Caroline move from?"]

