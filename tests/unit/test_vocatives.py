"""The user addressed by their own name (agent/vocatives.py): a name the model made up, or took from a recalled
line's other speaker, becomes the user's; names the user calls others by stay theirs."""
import pytest

from agent.character_guard import SentenceGate
from agent.vocatives import addressed_rightly
from tests.unit.test_role import stream


@pytest.mark.parametrize("piece", [1, 5, 1000])
def test_the_user_is_addressed_by_their_own_name(piece):
    gate = SentenceGate(("Ken", "Ark"), "The presentation went fine!", "en", user_names=("Ken",),
                        user_said=("My sister Yuki says hi.",))
    assert stream(gate, "That's great, John! Say hi to Yuki, Ken. Thanks, Yuki!", piece) == \
        "That's great, Ken! Say hi to Yuki, Ken. Thanks, Yuki!"
    plain = SentenceGate(("Ken", "Ark"), "I went to Tokyo.", "en", user_names=("Ken",))
    assert stream(plain, "Oh, Tokyo in spring, lovely. Was it busy, Ken?", piece) == "Oh, Tokyo in spring, lovely. Was it busy, Ken?"


@pytest.mark.parametrize("piece", [1, 4, 1000])
def test_a_name_from_the_recalled_lines_is_not_the_users(piece):
    # bench conversation en-hike, session 30: "John", a speaker of the recalled lines, addressed to Ken
    context = "# Memories\n- [2 May 2026] John: I joined a charity run for veterans.\n- [2 May 2026] Ken: Nice!"
    gate = SentenceGate(("Ken", "Ark"), "The presentation went fine!", "en", context, user_names=("Ken",),
                        user_said=("Ken: Nice!", "The presentation went fine!"))
    assert stream(gate, "That's great, John! I'm glad it went well.", piece) == "That's great, Ken! I'm glad it went well."


@pytest.mark.parametrize("piece", [1, 4, 1000])
def test_a_name_the_user_calls_someone_by_is_not_the_users(piece):
    # bench conversation, session 30: the user's earlier words thanked Maria and John; the reply thanked the user
    # by their names
    said = ("Thanks, Maria! Your support means a lot.", "¡Gracias, John! Nos vemos.", "Mi hermana Yuki te saluda.",
            "Hoy escalé por primera vez en roca.")
    gate = SentenceGate(("Lucía", "Ark"), said[-1], "es", user_names=("Lucía",), user_said=said)
    assert stream(gate, "¡Qué bien, Maria! Saluda a Yuki, Lucía. ¡Gracias, Yuki!", piece) == \
        "¡Qué bien, Lucía! Saluda a Yuki, Lucía. ¡Gracias, Yuki!"


def test_a_name_the_user_greeted_someone_by_is_not_the_users():
    # the §4 filler's "Hey John, it's okay…" among Ken's words; the reply called Ken "John" (en-hike, session 30)
    said = ("Hey John, it's okay to feel overwhelmed from time to time.", "My friend Hiro says hi!",
            "The presentation went fine!")
    gate = SentenceGate(("Ken", "Ark"), said[-1], "en", user_names=("Ken",), user_said=said)
    assert stream(gate, "That's great, John! Nice to meet you, Hiro!", 3) == "That's great, Ken! Nice to meet you, Hiro!"


@pytest.mark.parametrize("reply, shown", [
    ("Thanks, John! The hike sounds lovely.", "Thanks, Ken! The hike sounds lovely."),
    ("Hello, Maria. How was Takao?", "Hello, Ken. How was Takao?"),
    ("¡Gracias, John! Qué bonito.", "¡Gracias, Ken! Qué bonito."),
    # places joined by a comma, a name the user spoke of, the user's own: left as they are
    ("You must love Kyoto, Japan.", "You must love Kyoto, Japan."),
    ("Please say hi to Hiro. Thanks, Hiro!", "Please say hi to Hiro. Thanks, Hiro!"),
    ("Thanks, Ken! Takao is a lovely mountain.", "Thanks, Ken! Takao is a lovely mountain."),
])
@pytest.mark.parametrize("piece", [1, 3, 1000])
def test_a_name_after_thanks_or_a_greeting_is_the_users(reply, shown, piece):
    said = ("My friend Hiro says hi!", "I climbed Mt. Takao today.")
    gate = SentenceGate(("Ken", "Ark"), said[-1], "en", user_names=("Ken",), user_said=said)
    assert stream(gate, reply, piece) == shown


@pytest.mark.parametrize("reply, user, said, shown", [
    # bench conversation ja-curry, session 30: a katakana name of the recalled lines, after thanks
    ("ありがとうございます、ジョン！仕事が早く終わってよかったですね。", "ハルカ", (),
     "ありがとうございます、ハルカさん！仕事が早く終わってよかったですね。"),
    ("こんばんは、マリアさん。今日もお疲れ様です。", "ハルカ", (), "こんばんは、ハルカさん。今日もお疲れ様です。"),
    # the user's own name, and a name the user spoke of, stay
    ("こんにちは、ミサキ。ピアノ教室はどうでしたか？", "ミサキ", (), "こんにちは、ミサキ。ピアノ教室はどうでしたか？"),
    ("こんにちは、ユキさん！お姉さんから聞いていますよ。", "ハルカ", ("妹のユキがよろしくって。",),
     "こんにちは、ユキさん！お姉さんから聞いていますよ。"),
    # a katakana word after 、 that follows no greeting may be no name at all
    ("楽しみですね、キャンプ！", "ハルカ", (), "楽しみですね、キャンプ！"),
])
def test_a_katakana_name_after_a_greeting_is_the_users_unless_the_user_said_it(reply, user, said, shown):
    gate = SentenceGate((user, "Ark", "アーク"), "今日は仕事が早く終わったよ。", "ja",
                        "# Memories\n- [2 May 2026] John: ジョンです。\n- [3 May 2026] Maria: マリアです。",
                        user_names=(user,), user_said=(*said, "今日は仕事が早く終わったよ。"), hold_first_sentence=True)
    assert stream(gate, reply, 3) == shown


def test_a_made_up_name_in_a_japanese_or_chinese_reply_becomes_the_users():
    assert addressed_rightly("ありがとうございます、John。散歩はいいね。", "ユイ", "") == "ありがとうございます、ユイさん。散歩はいいね。"
    assert addressed_rightly("谢谢你，John！", "林芳", "") == "谢谢你，林芳！"
    assert addressed_rightly("ありがとう、Yuki。", "ユイ", "妹のYukiが来たよ") == "ありがとう、Yuki。"  # a name from the talk
    gate = SentenceGate(("ユイ", "Ark"), "今日は天気がよくて散歩してきた。", "ja", user_names=("ユイ",), hold_first_sentence=True)
    assert stream(gate, "ありがとうございます、John。散歩は体にいいですね。", 1) == "ありがとうございます、ユイさん。散歩は体にいいですね。"


# Languages that leave the subject out: the claim is in the verb, or, in Japanese, nowhere.


@pytest.mark.parametrize("reply, shown", [
    # a greeting needs no comma: the §4 filler's speaker greeted in Priya's place (dev-en-when, session 44)
    ("Hey John! Thanks for asking.", "Hey Priya! Thanks for asking."),
    ("Hi Maria, long days are tough.", "Hi Priya, long days are tough."),
    # the persona's own name is never the listener's, though the user wrote it (dev-es-cuando, dev-fr-quand)
    ("Hola Ark! ¡Buen trabajo!", "Hola Priya! ¡Buen trabajo!"),
    ("Bonjour Ark ! Comment allez-vous ?", "Bonjour Priya ! Comment allez-vous ?"),
    ("Thanks, Ark! That was fun.", "Thanks, Priya! That was fun."),
    # the greetings of the time of day too (dev-en-sister-offers, session 45)
    ("Good evening, Ark! I'm thinking about the trip.", "Good evening, Priya! I'm thinking about the trip."),
    ("Buenas noches, Ark. ¿Qué tal el día?", "Buenas noches, Priya. ¿Qué tal el día?"),
    ("Good morning, Priya! Long days are tough.", "Good morning, Priya! Long days are tough."),
    ("Good evening! Long days are tough.", "Good evening! Long days are tough."),
    # must not change: the user's own name, a name the user brought in, a word that is no name
    ("Hi Priya! Long days are tough.", "Hi Priya! Long days are tough."),
    ("Hi Yuki! Priya told me about you.", "Hi Yuki! Priya told me about you."),
    ("Hey there! Long days are tough.", "Hey there! Long days are tough."),
    ("Hello! Work can be tiring.", "Hello! Work can be tiring."),
    ("I'm your friend, Ark.", "I'm your friend, Ark."),  # not a greeting: the persona naming itself
])
@pytest.mark.parametrize("piece", [1, 3, 1000])
def test_a_greeting_calls_the_user_by_their_name_not_the_personas(reply, shown, piece):
    said = ("Hey Maria, I started a yoga class!", "My sister Yuki is visiting.", "Hi again, Ark. Long day at work.")
    gate = SentenceGate(("Priya", "Ark"), said[-1], "en", user_names=("Priya",), user_said=said, persona_name="Ark",
                        greet_early=True)
    assert stream(gate, reply, piece) == shown


def test_the_personas_other_name_after_a_japanese_greeting_is_the_users():
    said = ("アーク、こんばんは！今日は仕事が早く終わったよ。",)
    gate = SentenceGate(("ハルカ", "Ark", "アーク"), said[-1], "ja", user_names=("ハルカ",), user_said=said,
                        persona_name="Ark", hold_first_sentence=True)
    assert stream(gate, "こんばんは、アークさん！早く終わってよかったですね。", 3) == "こんばんは、ハルカさん！早く終わってよかったですね。"
