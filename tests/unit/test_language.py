"""The language of a user's message: by its script, by its small words and letters, and by the
conversation or the persona's hint when it is too short to tell."""
import pytest

from agent.language import message_language, name_for
from agent.providers.fake import ScriptedChatModel, replies
from persona.service import NexusService
from tests.conftest import turn_context


@pytest.mark.parametrize("language, texts", [
    ("en", ["Hi! I'm Ken.", "Do you remember what I was nervous about today?", "Thanks!",
            "Had a great time at the café with Pierre", "Going to Paris next week with Marie",
            "I went to see Frau Müller in München", "Pizza party tonight yay"]),
    ("ja", ["こんばんは！ハルカです。", "OK、また明日ね", "明日香と映画を見た", "どこだっけ？", "元気", "東京駅で待ち合わせ"]),
    ("zh", ["我今天很累。", "你还记得我的猫叫什么吗？", "明天我要去北京", "好的", "谢谢", "今天天气很好"]),
    ("ko", ["안녕하세요", "내 고양이 이름 기억해?", "오늘 정말 피곤해요. 회사에서 일이 많았어요."]),
    ("es", ["Hola, ¿cómo estás? Hoy fui al mercado con mi hermana.", "Mañana tengo una entrevista y estoy nerviosa",
            "Gracias", "No sé", "Acabo de llegar a casa", "Buenas noches"]),
    ("fr", ["Je suis allée à la boulangerie ce matin, c'était super.", "Tu te souviens du nom de mon chat ?",
            "Merci!", "Ma sœur arrive demain", "Bonne nuit"]),
    ("de", ["Ich habe heute mit Frau Müller gesprochen, sie ist sehr nett.", "Weißt du noch, wie mein Hund heißt?",
            "Danke", "Gute Nacht", "Wie geht's?"]),
    ("pt", ["Hoje eu fui à praia com a minha irmã, foi muito bom.", "Você lembra o nome do meu gato?", "Boa noite"]),
    ("it", ["Oggi sono andato al mare con mia sorella, è stato bellissimo.", "Ti ricordi come si chiama il mio gatto?",
            "Ciao!", "Buona notte"]),
])
def test_the_language_of_a_message(language, texts):
    assert [message_language(t) for t in texts] == [language] * len(texts)


@pytest.mark.parametrize("text, language", [
    ("I love ramen (ラーメン) so much", "en"),  # a kana word in an English sentence
    ("My favorite word is ありがとう", "en"),
    ("今日はNetflixでStranger Thingsを見た", "ja"),  # Latin words in a Japanese sentence
    ("明日のmeetingのagendaをsendしてね", "ja"),
    ("Je mange des sushis (寿司) tous les jours", "fr"),
    ("저는 Netflix를 봤어요", "ko"),
    ("Je ne sais quoi, as they say, is what I have today", "en"),
])
def test_a_mixed_message_is_in_its_main_language(text, language):
    assert message_language(text) == language


@pytest.mark.parametrize("text", ["ok", "lol", "😊", "123 !!", "了解", "大丈夫", "Tokyo Disneyland!!"])
def test_a_message_too_short_to_tell_follows_the_conversation(text):
    expected = "zh" if text in ("了解", "大丈夫") else ""  # Han alone, with nothing else to go by
    assert message_language(text) == expected
    assert message_language(text, recent=["Hola, ¿qué tal?", "Hoy fui al cine."], hint="ja/en") == (
        "ja" if text in ("了解", "大丈夫") else "es")  # Han with no kana cannot be Spanish: the hint decides
    assert message_language(text, recent=["昨日は京都に行ったよ"]) == "ja"
    assert message_language(text, recent=["我今天很累。"], hint="ja/en") == "zh"
    assert message_language(text, recent=["오늘 피곤해요"]) == ("ko" if text not in ("了解", "大丈夫") else "zh")


def test_with_nothing_before_it_a_short_message_takes_the_personas_hint():
    assert message_language("😊", hint="ja/en") == "ja"  # the first listed
    assert message_language("了解", hint="ja/en") == "ja"
    assert message_language("了解", hint="zh/en") == "zh"
    assert message_language("ok", hint="ja/en") == "en"  # Latin letters: the hint's Latin-script language
    assert message_language("ok", hint="ja") == "ja"
    assert message_language("😊", hint="fr/en") == "fr"
    assert message_language("😊", hint="") == ""


def test_a_message_that_tells_its_language_is_not_swayed_by_the_conversation():
    assert message_language("Merci beaucoup !", recent=["Hello there, how are you?"], hint="ja/en") == "fr"
    assert message_language("我今天很累。", recent=["今日は疲れた"], hint="ja/en") == "zh"
    assert message_language("I love ramen (ラーメン) so much", recent=["今日は疲れた"]) == "en"


def test_the_turns_language_is_worked_out_once_from_the_conversation_and_the_hint(data_dir, clock):
    model = ScriptedChatModel(replies("¡Qué bien!", "Vale."))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    list(service.send("Ark", "Hola, hoy fui al cine con mi hermana."))
    assert "en español" in turn_context(model.calls[-1][0])  # the reminder closes the turn's context
    list(service.send("Ark", "ok"))  # too short to tell: the conversation's language
    assert "en español" in turn_context(model.calls[-1][0])


def test_with_no_conversation_a_short_message_takes_the_personas_hint(data_dir, clock):
    model = ScriptedChatModel(replies("うん！"))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    list(service.send("Ark", "😊"))  # the sample persona's hint is "ja/en"
    assert "日本語" in turn_context(model.calls[-1][0])


def test_a_message_that_only_asks_is_told_in_any_language():
    from agent.language import only_asks

    assert only_asks("¡Qué bien! ¿Es tu tercer gato?")
    assert only_asks("Trop bien ! C'est ton troisième ?")
    assert not only_asks("Hoy fui al cine con mi hermana y vimos una película muy larga. ¿Y tú?")


@pytest.mark.parametrize("language, names, expected", [
    ("ja", ("Ark", "アーク"), "アーク"),
    ("en", ("Ark", "アーク"), "Ark"),
    ("zh", ("Ark", "アーク"), "Ark"),  # kana is no Chinese name: the persona's own stays
    ("ko", ("Ark", "アーク"), "Ark"),
    ("zh", ("Hana", "花"), "花"),
    ("ja", ("Hana", "花"), "花"),
    ("es", ("ミア", "Mia"), "Mia"),
    ("ko", ("Ari", "아리"), "아리"),
    ("ja", ("Ark",), "Ark"),
    ("", ("Ark", "アーク"), "Ark"),
    ("ja", (), ""),
])
def test_a_persona_is_named_in_its_names_script_for_the_language(language, names, expected):
    assert name_for(language, names) == expected
