"""The name a user introduces themself by."""
import pytest

from agent.introductions import introduced_name


@pytest.mark.parametrize("message, name", [
    ("Hi! I'm Ken. I just got back from hiking on Mt. Takao.", "Ken"),
    ("Morning! I'm Maya. We adopted a puppy yesterday.", "Maya"),
    ("My name is Priya and I love dogs", "Priya"),
    ("こんにちは！ハルカです。", "ハルカ"),
    ("私はユウトです。よろしく！", "ユウト"),
    ("佐藤と申します。", "佐藤"),
    ("Bonsoir Ark ! C'est Camille. J'ai enfin ouvert ma boulangerie.", "Camille"),
    ("Hola, me llamo Lucía.", "Lucía"),
    ("Ich heiße Jonas.", "Jonas"),
    ("Ark，晚上好！我是王磊。我报名了马拉松。", "王磊"),
    ("저는 민수입니다.", "민수"),
])
def test_a_self_introduction_gives_the_name(message, name):
    assert introduced_name(message) == name


@pytest.mark.parametrize("message", [
    "I'm tired today.", "I'm Ken's sister.", "I'm in Paris", "I'm Japanese.", "大丈夫です。", "楽しみです",
    "私は学生です", "我是学生。", "元気です！", "That's it.", "明日香に会った。",
])
def test_other_sentences_give_none(message):
    assert introduced_name(message) == ""


@pytest.mark.parametrize("message", [
    "I'm Canadian.", "Hey! It's Friday!", "Hallo, ich bin Lehrer.", "私は看護師です", "私はもう大丈夫です", "我是老师。",
    "저는 학생이에요",
])
def test_nationalities_days_jobs_and_states_are_no_names(message):
    assert introduced_name(message) == ""
