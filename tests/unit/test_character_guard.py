"""The character guard: a later sentence out of character ends the reply unseen."""
import pytest

import constants
from agent.character_guard import SentenceGate, echoes
from agent.held_back import greeting_held_back
from agent.providers.fake import ScriptedChatModel, replies
from persona.service import NexusService
from tests.conftest import stream


@pytest.mark.parametrize("persona, text, shown", [
    ("Ark", "Ark: I believe your appointment is on Friday.", "I believe your appointment is on Friday."),
    ("アーク", "アーク：金曜日だよ。", "金曜日だよ。"),
    ("Ark", "Arkansas is far away.", "Arkansas is far away."), ("Ark", "Ark", "Ark"),
])
def test_the_persona_s_own_name_as_a_line_label_is_taken_off(persona, text, shown):
    assert stream(SentenceGate(("Maya", persona), persona_name=persona), text, piece=2) == shown


def test_the_reply_ends_before_the_first_sentence_out_of_character():
    gate = SentenceGate()
    shown = stream(gate, "カレー作ったんだね！すごい。何か他にお手伝いできることはありますか？次は何を作るの？")
    assert shown == "カレー作ったんだね！すごい。"
    assert "お手伝い" in gate.blocked


def test_the_first_sentence_streams_before_it_is_complete():
    gate = SentenceGate()
    assert gate.feed("That was fa") == "That was fa"
    assert gate.feed("st! It is") == "st! "  # later sentences wait until they are whole
    assert gate.feed(" sunny. ") == "It is sunny. "
    assert gate.flush() == ""


def test_a_greeting_is_held_until_something_follows_it():
    gate = SentenceGate()
    assert gate.feed("Good mor") == ""  # may still be only a greeting
    assert gate.feed("ning! It is") == ""  # after a greeting the next piece is judged whole
    assert gate.feed(" sunny. ") == "Good morning! It is sunny. "
    nothing = SentenceGate(("Ken", "Ark"), "What's my locker number?", "en", user_names=("Ken",))
    assert stream(nothing, "Sure, Ken!") == "" and nothing.blocked  # says nothing: asked for again
    last = SentenceGate(("Ken", "Ark"), "What's my locker number?", "en", user_names=("Ken",), release_fillers=True)
    assert stream(last, "Sure, Ken!") == "Sure, Ken!"  # the last attempt shows it rather than a notice
    told = "今日は仕事で大きなプレゼンがあって、すごく緊張したよ。"
    japanese = SentenceGate(user_text=told, language="ja", hold_first_sentence=True)
    assert stream(japanese, "こんにちは！今日は仕事で大きなプレゼンがあって、すごく緊張したよ。") == ""
    assert japanese.blocked  # the echo after the greeting leaves nothing: asked for again, not 「こんにちは！」


@pytest.mark.parametrize("piece", [1, 2, 3, 7, 1000])
def test_what_is_shown_does_not_depend_on_how_the_stream_is_cut(piece):
    user = "Any tips for house-training a puppy?"
    text = "Great! How can I help you today? Take him out after meals. As an AI, I love dogs."
    shown = [stream(SentenceGate(("Maya", "Ark"), user, "en", user_names=("Maya",)), text, p) for p in (1, piece)]
    assert shown[0] == shown[1] == "Great! Take him out after meals. "


def test_a_clean_reply_is_shown_whole_and_a_bad_tail_is_dropped_at_the_end():
    assert stream(SentenceGate(), "Nice! See you tomorrow.") == "Nice! See you tomorrow."
    assert stream(SentenceGate(), "Nice! That's all. Let me know if you need anything") == "Nice! That's all. "
    alone = SentenceGate()
    assert stream(alone, "Nice! Let me know if you need anything") == "" and alone.blocked  # said nothing


def test_the_logged_reply_is_what_was_shown(data_dir, clock):
    model = ScriptedChatModel(replies("Sounds delicious! Is there anything else I can help you with? Bye."))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    events = list(service.send("Ark", "I made curry today."))
    shown = "".join(e.text for e in events if e.kind == "token")
    assert shown.strip() == "Sounds delicious!"
    assert service.conversation("Ark")[-1].text == "Sounds delicious!"


def test_a_first_sentence_that_opens_like_a_disclaimer_is_held_checked_and_left_out():
    gate = SentenceGate()
    assert gate.feed("すみませんが、私はAI") == ""  # held while it could be a disclaimer
    assert stream(gate, "言語モデルなので料理はできません。でもカレーはいいね！") == "でもカレーはいいね！"
    alone = SentenceGate()
    assert stream(alone, "すみませんが、私はAI言語モデルなので料理はできません。") == "" and not alone.flush()
    ok = SentenceGate()
    assert ok.feed("I'm a bit") == ""
    assert ok.feed(" jealous! ") == "I'm a bit jealous! "
    assert SentenceGate().feed("Your") == "Your"  # cannot open a disclaimer: streams at once


def test_a_reply_that_opens_out_of_character_shows_what_follows_or_is_asked_for_again(data_dir, clock):
    model = ScriptedChatModel(replies("As an AI language model, I cannot taste food. But curry is great.",
                                      "As an AI language model, I cannot taste food.",
                                      "Curry from scratch? That's impressive!"))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    events = list(service.send("Ark", "I made curry from spices today."))
    assert "".join(e.text for e in events if e.kind == "token").strip() == "Curry is great."  # the "But" answered the disclaimer
    events = list(service.send("Ark", "I made dal too."))  # nothing but the disclaimer: asked again
    assert "".join(e.text for e in events if e.kind == "token").strip() == "Curry from scratch? That's impressive!"
    assert len(model.calls) == 3


def test_a_reply_that_repeats_the_users_words_is_held_and_asked_for_again():
    user = "明日は早起きしないといけないから、そろそろ寝るね。"
    gate = SentenceGate(user_text=user)
    assert stream(gate, "明日は早起きしないといけないから、そろそろ寝るね。") == ""
    assert gate.blocked
    english = "Morning! I'm Maya. We adopted a puppy yesterday, his name is Biscuit."
    assert stream(SentenceGate(user_text=english), "Morning! I'm Maya. We adopted a puppy.") == ""
    # Quoting a few of the user's words is no echo: released once it goes its own way.
    own = SentenceGate(user_text=user)
    assert stream(own, "早起きなんだね！おやすみ、また明日。") == "早起きなんだね！おやすみ、また明日。"
    assert stream(SentenceGate(user_text=english), "Morning, Maya! Biscuit is a cute name.") == \
        "Morning, Maya! Biscuit is a cute name."


def test_a_copy_of_the_message_is_decided_before_its_sentence_ends():
    user = "호두는 회색 줄무늬가 있는 두 살짜리 고양이야. 아직 소파 밑에 숨어 있어."
    gate = SentenceGate(user_text=user, language="ko")
    assert gate.feed("호두는 회색 줄무늬가") == "" and not gate.blocked  # a third of it: it may still go its own way
    assert gate.feed(" 있는 두 살짜리") == "" and gate.blocked  # half, letter for letter: the model is stopped here
    retry = SentenceGate(user_text=user, language="ko", leave_out_echoes=True)  # a retry leaves the copy out and goes on
    assert stream(retry, "호두는 회색 줄무늬가 있는 두 살짜리 고양이야. 정말 귀엽겠다!") == "정말 귀엽겠다!"
    agreeing = SentenceGate(user_text="I love hiking.")  # short: its end decides ("too" agrees)
    assert stream(agreeing, "I love hiking too!") == "I love hiking too!"
    short = SentenceGate(user_text="Biscuit chewed one of my shoes.")
    assert short.feed("Biscuit chewed one of my") == "" and short.blocked
    own = SentenceGate(user_text="Biscuit chewed one of my shoes.")
    assert stream(own, "Biscuit is a little rascal!") == "Biscuit is a little rascal!" and not own.blocked


def test_a_later_sentence_that_echoes_ends_the_reply():
    user = "He chewed one of my shoes already, haha."
    assert stream(SentenceGate(user_text=user), "Oh no! He chewed one of my shoes already, haha. Puppies!").strip() == "Oh no!"
    assert echoes("He chewed one of your shoes already, haha!", user)
    assert not echoes("Puppies chew everything.", user)
    assert echoes("私は暑すぎて何もしたくない。", "やっぱり日本語にしよう。今日は暑すぎて何もしたくない。")  # one word swapped
    assert not echoes("Here are some tips for house-training a puppy:", "Any tips for house-training a puppy?")


@pytest.mark.parametrize("reply, user", [
    # endings and particles changed, the words the same (bench conversation dev-ko-cafe, session 22)
    ("첫 손님이 아이스 아메리카노 두 잔을 샀어, 그리고 크루아상을 샀어요.", "첫 손님이 아이스 아메리카노 두 잔이랑 크루아상을 샀어."),
    ("Yes, the first customer bought two iced americanos and then a croissant.",
     "The first customer bought two iced americanos and a croissant!"),
    ("Ayer fuimos al mercado y compramos unas fresas enormes.", "Ayer fui al mercado y compré unas fresas enormes."),
])
def test_the_message_said_back_with_other_endings_is_an_echo(reply, user):
    assert echoes(reply, user)


@pytest.mark.parametrize("reply, user", [
    ("와, 첫 손님이 아메리카노를 두 잔이나? 대박이네요!", "첫 손님이 아이스 아메리카노 두 잔이랑 크루아상을 샀어."),
    ("The first customer bought two iced americanos and a croissant.", "What did the first customer buy at the café?"),
    ("暑い日は何もしたくないよね、わかる！", "今日は暑すぎて何もしたくない。"),
    ("I love croissants too, and iced americanos!", "The first customer bought two iced americanos and a croissant!"),
    ("Que fresas tan enormes, ¿las compraste para una tarta?", "Ayer fui al mercado y compré unas fresas enormes."),
])
def test_a_reply_that_takes_up_the_users_words_in_its_own_is_no_echo(reply, user):
    assert not echoes(reply, user)


def test_on_the_last_attempt_a_copied_echo_that_takes_the_users_name_is_not_shown():
    # "Oi Rafael! Sou o Rafael, sou brasileiro mas moro em Toronto." — the user's name and life as the
    # persona's, shown on a real model's last attempt because the name looked like addressing the user
    user = "Oi Ark! Eu sou o Rafael, sou brasileiro mas moro em Toronto faz dois anos."
    gate = SentenceGate(("Rafael", "Ark"), user, "pt", user_names=("Rafael",), persona_name="Ark", greet_early=True,
                        greeted="Oi Rafael!", release_fillers=True, leave_out_echoes=True)
    shown = stream(gate, " Sou o Rafael, sou brasileiro mas moro em Toronto. Como posso ajudar você hoje?\n")
    assert "Rafael" not in shown and gate.blocked
    # an echo that only addresses the user by name is still said back on the last attempt
    told = "Jonas, hoje o café estava lotado."
    addressed = SentenceGate(("Jonas", "Ark"), "Hoje o café estava lotado.", "pt", user_names=("Jonas",),
                             persona_name="Ark", release_fillers=True, leave_out_echoes=True)
    assert "lotado" in stream(addressed, told)


def test_a_confirmation_in_the_second_person_is_no_echo():
    # The persona's own act on the user's words, "my" put to them as "your" (bench conversation,
    # session 19: "I noted that your dentist appointment…" was asked for twice, 5.3 s to the reply)
    request = "Can you note that my dentist appointment is on Thursday at 4pm?"
    confirmed = "I noted that your dentist appointment is on Thursday at 4pm."
    assert not echoes(confirmed, request)
    assert stream(SentenceGate(user_text=request), confirmed + " Good luck!") == confirmed + " Good luck!"
    assert not echoes("好的，我记住了你的比赛号码是A1024。", "我的比赛号码是A1024。")
    assert not echoes("Je note que ton rendez-vous chez le dentiste est jeudi à 16 h.",
                      "Tu peux noter que mon rendez-vous chez le dentiste est jeudi à 16 h ?")
    assert not echoes("I'll remember that your sister Lena lands at six.", "Remember that my sister Lena lands at six.")
    # The swap alone, or with the user's own "I" kept, is still the message said back
    assert echoes("你的比赛号码是A1024。", "我的比赛号码是A1024。")
    assert echoes("I remember when your dad used to play his old jazz records.",
                  "I remember when my dad used to play his old jazz records.")
    assert echoes("We adopted a puppy yesterday, his name is Biscuit.", "We adopted a puppy yesterday, his name is Biscuit!")


def test_a_reply_in_another_language_than_the_users_is_asked_for_again():
    gate = SentenceGate(user_text="今日は天気がよくて散歩してきた。", language="ja")
    assert stream(gate, "Wow, John! It's great to hear that.") == ""
    assert gate.blocked
    assert stream(SentenceGate(user_text="散歩してきた。", language="ja"), "Arkも散歩したいな！") == "Arkも散歩したいな！"
    english = SentenceGate(user_text="I went for a walk.", language="en")
    assert stream(english, "いいね！") == "" and english.blocked
    assert stream(SentenceGate(user_text="I went for a walk.", language="en"), "Nice, was it sunny?") == \
        "Nice, was it sunny?"


@pytest.mark.parametrize("language, user_text, reply", [
    ("ko", "오늘 회사에서 발표했어요.", "すごいね！発表どうだった？"),  # a Korean message answered in Japanese
    ("ko", "오늘 회사에서 발표했어요.", "That's great, how did it go?"),
    ("zh", "我今天很累。", "お疲れさま！ゆっくり休んでね。"),  # a Chinese message answered in Japanese
    ("ja", "今日は疲れた。", "오늘 수고했어요!"),
    ("ja", "今日はカレーを作ったよ。", "我也喜欢咖喱！你做的是什么咖喱？"),  # a Japanese message answered in Chinese
    ("fr", "J'ai couru un marathon hier.", "Wow, that is amazing! How did you feel?"),  # French answered in English
    ("es", "Hoy fui a la playa con mi hermana.", "That sounds like a lovely day with your sister!"),
    ("de", "Ich bin heute sehr müde.", "お疲れさま！"),
])
def test_a_reply_in_another_language_is_asked_for_again_in_every_language(language, user_text, reply):
    gate = SentenceGate(user_text=user_text, language=language)
    assert stream(gate, reply) == "" and gate.blocked


@pytest.mark.parametrize("language, user_text, reply", [
    ("ko", "오늘 회사에서 발표했어요.", "와, 대단해요! 발표는 어땠어요?"),
    ("zh", "我今天很累。", "辛苦了！今天早点休息吧。"),
    ("ja", "今日は疲れた。", "今日はお疲れさま！"),
    ("ja", "今日は疲れた。", "大丈夫大丈夫！ゆっくり休んでね。"),
    # The first letters of a Latin-script reply tell nothing: "Oh", "Super" open French and English alike.
    ("fr", "J'ai couru un marathon hier.", "Oh, c'est génial ! Tu as mis combien de temps ?"),
    ("fr", "J'ai couru un marathon hier.", "Super ! Bravo."),
    ("fr", "J'ai couru un marathon hier.", "Incroyable, Marie"),  # too little to tell: shown
    ("es", "Hoy fui a la playa con mi hermana.", "¡Qué bien! ¿Nadaron mucho?"),
    ("de", "Ich bin heute sehr müde.", "Oh nein, das tut mir leid. Ruh dich aus!"),
    ("it", "Oggi sono andato al mare.", "Che bello! Com'era l'acqua?"),
    ("pt", "Hoje fui à praia.", "Que legal! Como estava o dia?"),
])
def test_a_reply_in_the_messages_language_is_shown(language, user_text, reply):
    gate = SentenceGate(user_text=user_text, language=language)
    assert stream(gate, reply) == reply and not gate.blocked


@pytest.mark.parametrize("language, user_text, reply, shown", [
    # A first sentence that may be either language decides nothing: the next one is checked too.
    # A greeting of another language is not shown at once: "Good evening! Today was very busy, I feel really
    # tired." to "Nabend! Heute war…" (session 36) showed "Good evening!", and after the retries failed it
    # was the whole reply (§4 dev-de-brot, sessions 36–41).
    ("de", "Nabend! Heute war im Büro richtig viel los.", "Good evening! Today was very busy, I feel really tired.",
     ""),
    ("es", "Hoy fui a la playa con mi hermana.", "Wow! That sounds like a lovely day with your sister!", "Wow!"),
    ("fr", "J'ai couru un marathon hier.", "Super ! Bravo. How long did it take you?", "Super ! Bravo. "),
])
def test_a_later_sentence_in_another_language_ends_the_reply(language, user_text, reply, shown):
    gate = SentenceGate(user_text=user_text, language=language, greet_early=True)
    assert stream(gate, reply) == shown and gate.blocked


def test_once_a_sentence_is_surely_in_the_messages_language_a_later_one_is_not_judged_for_it():
    # "Okay" and "cool" are English words too: the reply was decided German by its first sentence.
    gate = SentenceGate(user_text="Ich bin heute sehr müde.", language="de")
    reply = "Oh nein, das tut mir leid, ruh dich heute Abend gut aus. Okay, cool, bis morgen!"
    assert stream(gate, reply) == reply and not gate.blocked


def test_a_french_reply_streams_once_its_language_is_sure_before_its_first_sentence_ends():
    gate = SentenceGate(user_text="J'ai couru un marathon hier.", language="fr")
    assert gate.feed("Oh") == ""  # too early to tell
    assert gate.feed(", c'est vraiment") == "Oh, c'est vraiment"


def test_the_prompts_own_layout_and_context_are_never_said_back():
    context = "# Now\n2026-11-08 Sun 03:47\n\nArkとしてタクミさんに日本語で返事"
    gate = SentenceGate(user_text="子猫のしつけ、コツある？", language="ja", context=context)
    assert stream(gate, "# Now\n2026-11-08 Sun 03:47\n\nArkとしてタクミさんに日本語で返事") == ""
    later = SentenceGate(user_text="Any tips?", language="en", context="Reply to Priya as Ark, in English.")
    assert stream(later, "Sure, give treats. ---\nReply to Priya as Ark, in English.").strip() == "Sure, give treats."
    recited = SentenceGate(user_text="Any tips?", language="en", context="# Memories\n- x\n\nReply to Priya as Ark, in English.")
    assert stream(recited, "Sure, treats work. Reply to Priya as Ark, in English.") == "Sure, treats work. "
    quoting = SentenceGate(user_text="What is the service line's number?", language="en",
                           context="- (from manual.md) Call the service line on 0800 556 713.")
    assert stream(quoting, "0800 556 713") == "0800 556 713"  # an answer quoted from a passage is no recital
    restating = SentenceGate(user_text="Any tips for house-training a puppy?", language="en")
    assert stream(restating, "Sure! Here are some tips for house-training a puppy: take him out often.") == \
        "Sure! take him out often."  # the restated question is left out


def test_the_reply_s_instructions_said_back_in_other_words_are_no_reply():
    reminder = "Arkとしてミサキさんに、自分の言葉で日本語で返事"
    names = dict(names=("Ark", "ミサキ"), user_names=("ミサキ",), persona_name="Ark")
    first = SentenceGate(user_text="最初の曲は「エリーゼのために」なんだ。", language="ja", instructions=(reminder,), **names)
    assert stream(first, "私の言葉を日本語で返します。") == "" and first.blocked  # asked for again
    nudge = "Arkとして美咲さんに日本語で返事。美咲さんが今話してくれたことに、自分の言葉で反応する"
    later = SentenceGate(user_text="何を話すかまだ決めてないんだ。", language="ja", instructions=(reminder, nudge), **names)
    assert stream(later, "スピーチ、楽しみですね。私はまだ自分の言葉で反応します。") == "スピーチ、楽しみですね。"
    english = SentenceGate(user_text="Long day.", language="en", instructions=("Reply to Noor as Ark, in English, in "
                                                                             "your own words.",))
    assert stream(english, "Sure, I will answer in your own words.") == ""
    # the same words from the user, a name, or a word both use: a reply
    quoting = SentenceGate(user_text="「好きなことを自分の言葉で話せばいいよ」って言っておいた。", language="ja",
                           instructions=(reminder,), **names)
    assert stream(quoting, "自分の言葉で話せばいい、すてきな言葉ですね。") == "自分の言葉で話せばいい、すてきな言葉ですね。"
    naming = SentenceGate(user_text="今日は何してた？", language="ja", instructions=(reminder,), **names)
    assert stream(naming, "ミサキさんに日本語で手紙を書いていたよ。") == "ミサキさんに日本語で手紙を書いていたよ。"
    plain = SentenceGate(user_text="What did you read?", language="en",
                         instructions=("Reply to Noor as Ark, in English, in your own words.",))
    assert stream(plain, "A novel in English, of all things.") == "A novel in English, of all things."


def test_a_later_sentence_restating_the_users_message_is_left_out():
    user = "Any tips for house-training a puppy?"
    shown = stream(SentenceGate(user_text=user, language="en"),
                   "Certainly! Here are some tips for house-training a puppy: Take him out after meals.")
    assert "Certainly!" in shown and "Take him out after meals." in shown and "Here are" not in shown


def test_a_retry_asks_for_the_personas_own_words(data_dir, clock):
    model = ScriptedChatModel(replies("I made curry from spices today.", "Curry from scratch? Impressive!"))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    list(service.send("Ark", "I made curry from spices today."))
    first, second = model.calls[0][0], model.calls[1][0]
    # The nudge follows the prompt as first sent: all of that attempt's evaluation is reused.
    assert second[:-1] == first and second[-1].role == "system" and "own words" in second[-1].content
    assert "own words" not in first[-2].content
    assert service.conversation("Ark")[-1].text == "Curry from scratch? Impressive!"


def test_a_reply_that_takes_the_users_name_ends_there_or_is_asked_for_again():
    later = SentenceGate(("Maya", "Ark"), "Morning! I'm Maya.", "en", user_names=("Maya",))
    assert stream(later, "Good morning, Maya! Your plan sounds good. I'm Maya. We can talk.") == \
        "Good morning, Maya! Your plan sounds good. "
    assert later.blocked.startswith("I'm Maya")
    greeted = SentenceGate(("Maya", "Ark"), "Morning! I'm Maya.", "en", user_names=("Maya",))
    assert stream(greeted, "Good morning, Maya! I'm Maya.") == "" and greeted.blocked  # asked for again
    first = SentenceGate(("Maya", "Ark"), "Hello!", "en", user_names=("Maya",))
    assert stream(first, "I'm Maya, nice to meet you.") == ""  # held from its first letters, never shown
    assert first.blocked


def test_a_first_sentence_held_whole_is_checked_before_anything_shows():
    told = "ありがとう。ちょっと元気出た。"
    gate = SentenceGate(("ユウト", "アーク"), told, "ja", user_names=("ユウト",), hold_first_sentence=True)
    assert stream(gate, "うん、何か手伝いできることがあればお知らせください。よかった。") == "よかった。"
    assert not gate.blocked  # the service talk was left out, the rest is shown
    fine = SentenceGate(("ユウト", "アーク"), told, "ja", user_names=("ユウト",), hold_first_sentence=True)
    assert fine.feed("よかった") == ""  # held until the sentence is whole…
    assert fine.feed("！元気") == "よかった！"  # …then shown at once


def test_a_name_alone_answers_who_or_what_name():
    who = SentenceGate(("Caroline", "Ark"), "Who went to the beach with you?", "en", user_names=("Caroline",))
    assert stream(who, "Caroline!") == "Caroline!"
    name = SentenceGate(("ハルカ", "アーク"), "私の名前、覚えてる？", "ja", user_names=("ハルカ",))
    assert stream(name, "ハルカ！") == "ハルカ！"


def test_on_the_last_attempt_a_failed_opening_leaves_the_greeting_before_it():
    user = "Morning! I'm Maya. We adopted a puppy yesterday."
    earlier = SentenceGate(("Maya", "Ark"), user, "en", user_names=("Maya",))
    assert stream(earlier, "Good morning, Maya! I'm Maya. Nice.") == "" and earlier.blocked
    last = SentenceGate(("Maya", "Ark"), user, "en", user_names=("Maya",), release_fillers=True)
    assert stream(last, "Good morning, Maya! I'm Maya. Nice.") == "Good morning, Maya! Nice."  # the name's claim left out


@pytest.mark.parametrize("piece", [1, 4, 1000])
def test_a_japanese_greeting_that_takes_the_users_name_never_streams_and_what_follows_opens(piece):
    gate = SentenceGate(("サクラ", "アーク"), "メモしておいて：来週の土曜日に友達の結婚式があるの。", "ja", user_names=("サクラ",))
    assert stream(gate, "こんにちは、サクラです。結婚式、楽しみだね。", piece) == "結婚式、楽しみだね。" and gate.took_name
    alone = SentenceGate(("サクラ", "アーク"), "メモしておいて：来週の土曜日に友達の結婚式があるの。", "ja", user_names=("サクラ",))
    assert stream(alone, "こんにちは、サクラです。", piece) == "" and alone.blocked  # nothing else: asked again


@pytest.mark.parametrize("piece", [1, 4, 1000])
def test_to_something_told_at_length_a_lone_exclamation_is_asked_for_again(piece):
    told = "I just got back from a long hike up the ridge with my cousin and we saw two deer."
    lone = SentenceGate(user_text=told, language="en")
    assert stream(lone, "Sounds fun!", piece) == "" and lone.blocked
    last = SentenceGate(user_text=told, language="en", release_fillers=True)
    assert stream(last, "Sounds fun!", piece) == "Sounds fun!"
    more = SentenceGate(user_text=told, language="en")
    assert stream(more, "Sounds fun! Were the deer close to the trail?", piece) == "Sounds fun! Were the deer close to the trail?"
    ja = SentenceGate(user_text="今日は友達と海までドライブして、夕日がすごくきれいだったよ。", language="ja", hold_first_sentence=True)
    assert stream(ja, "すごい！", piece) == "" and ja.blocked
    # a short message, or a question, may get a short answer
    short = SentenceGate(user_text="I'm back!", language="en")
    assert stream(short, "Welcome back, nice!", piece) == "" and short.blocked  # only fillers: as before
    brief = SentenceGate(user_text="I'm tired.", language="en")
    assert stream(brief, "Oh no, rest well!", piece) == "Oh no, rest well!"


@pytest.mark.parametrize("piece", [1, 3, 1000])
def test_after_a_disclaimer_is_left_out_the_reply_does_not_open_with_a_word_answering_it(piece):
    en = SentenceGate(("Alex", "Ark"), "Do you like rainy days?", "en", user_names=("Alex",))
    assert stream(en, "As an AI, I don't have personal preferences. However, rainy days are cozy.", piece) == \
        "Rainy days are cozy."
    ja = SentenceGate(("ユイ", "Ark"), "雨の日って好き？", "ja", user_names=("ユイ",))
    assert stream(ja, "私はAIなので、好みはありません。でも、雨の日は静かで素敵だと思います。", piece) == "雨の日は静かで素敵だと思います。"
    # nothing was left out: "But" stays
    plain = SentenceGate(("Alex", "Ark"), "Do you like rainy days?", "en", user_names=("Alex",))
    assert stream(plain, "But I love rainy days!", piece) == "But I love rainy days!"


@pytest.mark.parametrize("piece", [1, 2, 5])
def test_a_quoted_echo_is_cut_with_its_closing_bracket(piece):
    user = "メモしておいて：来週の土曜日に友達の結婚式があるの。"
    reply = "記録しました。「来週の土曜日に友達の結婚式があるの。」 楽しみだね！"
    shown = stream(SentenceGate(user_text=user, language="ja"), reply, piece)
    assert "」" not in shown and "結婚式があるの" not in shown and shown.startswith("記録しました。")


@pytest.mark.parametrize("user, reply, language", [
    ("I remember when my dad used to play his old jazz records on Sunday mornings.",
     "Yes, I remember when my dad used to play his old jazz records on Sunday mornings. What did he like best?", "en"),
    ("오늘은 비가 와서 손님이 별로 없었어.", "네, 오늘은 비가 와서 손님이 별로 없었어. 비 오는 날은 손님이 적어서 힘들었겠다.", "ko"),
    ("Passei o dia na praia com minhas primas.", "Sim, passei o dia na praia com minhas primas. Que bom que vocês aproveitaram o sol juntas!", "pt"),
])
def test_an_echo_behind_a_yes_ends_the_opening_and_is_left_out_on_a_retry(user, reply, language):
    first = SentenceGate((), user, language)
    assert stream(first, reply) == "" and first.blocked
    retry = SentenceGate((), user, language, leave_out_echoes=True)
    shown = stream(retry, reply)
    assert shown.strip() and user.rstrip(".") not in shown


@pytest.mark.parametrize("user, reply", [
    ("I love hiking in the mountains.", "Yes, I love that too! Which mountains?"),
    ("오늘 카페를 열었어.", "네, 축하해! 첫날은 어땠어?"),
])
def test_a_yes_before_the_personas_own_words_streams(user, reply):
    assert stream(SentenceGate((), user, "en" if user.isascii() else "ko"), reply) == reply


def test_a_sentence_said_in_a_recent_reply_is_left_out_and_the_reply_goes_on():
    before = ("Certo! Sono felice per te. Hai preso 28 all'ultimo esame, complimenti!",)
    gate = SentenceGate((), "Che voto ho preso all'ultimo esame?", "it", persona_said=before)
    shown = stream(gate, "Certo! Hai preso 28 all'ultimo esame, complimenti! Ora manca solo la tesi, vero?")
    assert shown == "Certo! Ora manca solo la tesi, vero?"
    later = SentenceGate((), "Che voto ho preso all'ultimo esame?", "it", persona_said=before)
    assert stream(later, "Hai preso un bel voto. Hai preso 28 all'ultimo esame, complimenti!") == "Hai preso un bel voto. "
    fresh = SentenceGate((), "Che voto ho preso all'ultimo esame?", "it")
    assert stream(fresh, "Hai preso 28 all'ultimo esame, complimenti!") == "Hai preso 28 all'ultimo esame, complimenti!"


def test_a_reply_that_only_says_a_recent_reply_again_is_asked_for_again():
    before = ("ありがとうございます、ハナ。猫はとても好きです、一緒に遊びたいな！",)
    gate = SentenceGate((), "あ、ごめん、間違えた。ソラは兄の犬で、うちの猫の名前はハナだよ。", "ja",
                        hold_first_sentence=True, persona_said=before)
    assert stream(gate, "猫はとても好きです、一緒に遊びたいな。") == "" and gate.blocked


@pytest.mark.parametrize("user, before, reply, language, shown", [
    # a short CJK sentence said again is a repeat too (six letters: below the Latin floor of ten)
    ("还有，我上个月买了一双新的攀岩鞋，是蓝色的。", "🛠️ 已记入核心记忆\n好的，我会记住。", "好的，我会记住。蓝色的攀岩鞋很好看！", "zh",
     "蓝色的攀岩鞋很好看！"),
    ("오늘 비가 와서 손님이 별로 없었어.", "그렇구나. 오늘은 푹 쉬세요!", "손님이 적어서 아쉬웠겠어요. 오늘은 푹 쉬세요!", "ko",
     "손님이 적어서 아쉬웠겠어요. "),
    # a greeting of another day is no repeat, nor a short Latin sentence
    ("今日は仕事が早く終わったよ。", "こんにちは！カレーを作りましたね。", "こんにちは！お疲れさまでした。", "ja", "こんにちは！お疲れさまでした。"),
    ("I went to the market again.", "Oh, nice! What did you buy?", "Was it busy? Oh, nice!", "en", "Was it busy? Oh, nice!"),
])
def test_a_short_cjk_sentence_of_a_recent_reply_is_left_out(user, before, reply, language, shown):
    gate = SentenceGate((), user, language, persona_said=(before,), hold_first_sentence=language in ("ja", "zh"))
    assert stream(gate, reply) == shown


def test_when_every_attempt_fails_a_greeting_one_held_back_is_the_reply_not_a_notice(data_dir, clock):
    message = "Oi! Eu sou a Ana. Passei o dia na praia com minhas primas e tomei um sol gostoso."
    model = ScriptedChatModel(replies("Olá! ", "Olá! ", message))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    list(service.send("Ark", message))
    assert service.conversation("Ark")[-1].text == "Olá!"
    assert len(model.calls) == 3


@pytest.mark.parametrize("held_back, language, shown", [
    (("Olá! ", "Oi! Eu sou a Ana."), "pt", "Olá!"),
    (("Oi! Eu sou a Ana.", "I'm Ana."), "pt", ""),  # says something, or takes the user's name
    (("Hello there!",), "ja", ""),  # another script than the message's
    (("Bonjour !",), "de", ""),  # surely another language
    (("こんにちは！",), "ja", "こんにちは！"),
])
def test_a_held_back_greeting_is_shown_only_when_it_is_one_in_the_users_language(held_back, language, shown):
    assert greeting_held_back(held_back, language, ("Ana", "Ark"), ("Ana",)) == shown


@pytest.mark.parametrize("piece", [1, 4, 1000])
def test_a_first_sentence_about_the_reply_itself_is_left_out_and_what_follows_opens(piece):
    gate = SentenceGate(("Lena", "Ark"), "Heute war meine erste Chorprobe!", "de", user_names=("Lena",), persona_name="Ark")
    shown = stream(gate, "Hier ist eine Antwort auf Lenas Nachricht als Ark: Wie schön, wie war die Probe?", piece)
    assert shown.strip() == "Wie schön, wie war die Probe?"


def test_a_retry_after_the_reply_took_the_users_name_asks_for_a_greeting_by_that_name(data_dir, clock):
    model = ScriptedChatModel(replies("Hi! I'm Lena.", "Hi Lena! How was the rehearsal?"))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    list(service.send("Ark", "Hi! I'm Lena. I had my first rehearsal with the new choir today."))
    nudges = [messages[-1].content for messages, *_ in model.calls if messages[-1].role == "system"]
    assert nudges == ["You are Ark, not Lena. Greet Lena by name and react to what Lena told you, in English."]
    # "Hi!" was shown at once; the retry goes on from it, its own greeting left out
    assert service.conversation("Ark")[-1].text == "Hi! How was the rehearsal?"


@pytest.mark.parametrize("user, reply, names, language", [
    # Not letter for letter: one word changed at the start, or the user's name before the copy.
    ("A água estava geladinha, mas a gente entrou mesmo assim.",
     "Aquela água estava geladinha, mas a gente entrou mesmo assim.", (), "pt"),
    ("다음 달에 처음으로 10킬로 대회에 나가.", "지수님, 다음 달에 처음으로 10킬로 대회에 나가.", ("지수",), "ko"),
    ("첫 손님이 아이스 아메리카노 두 잔이랑 크루아상을 샀어.", "첫 손님이 아이스 아메리카노 두 잔을 샀어.", (), "ko"),
    ("We finally painted the kitchen yellow last weekend.", "Oh, we finally painted the kitchen yellow last weekend!", (), "en"),
])
@pytest.mark.parametrize("piece", [1, 4, 1000])
def test_an_opening_that_says_the_message_back_in_other_words_never_streams(user, reply, names, language, piece):
    gate = SentenceGate((), user, language, user_names=names)
    assert stream(gate, reply, piece) == "" and gate.blocked


@pytest.mark.parametrize("user, reply, language", [
    ("What's my locker number?", "Your locker number is 317.", "en"),
    ("I went hiking on Mt. Takao today and saw a fox.", "That sounds like a wonderful day! Was the fox close?", "en"),
    ("오늘은 비가 와서 손님이 별로 없었어.", "비 오는 날은 손님이 적어서 힘들었겠다.", "ko"),
    ("今日は仕事で大きなプレゼンがあって、すごく緊張したよ。", "今日は大変だったね！お疲れさま。", "ja"),
    ("教练说我倒车入库特别稳。", "教练说你倒车入库很稳，真厉害！", "zh"),
])
def test_an_answer_using_some_of_the_messages_words_is_shown(user, reply, language):
    assert stream(SentenceGate((), user, language), reply) == reply


def test_a_reply_of_its_own_streams_before_its_first_sentence_ends():
    gate = SentenceGate((), "I went hiking on Mt. Takao today and saw a fox.", "en")
    assert gate.feed("Foxes are shy, so ").startswith("Foxes are shy")
    mine = SentenceGate((), "I went hiking on Mt. Takao today and saw a fox.", "en")
    assert mine.feed("Hiking on ") == ""  # the user's words so far: held
    assert mine.feed("a sunny day is the best.") + mine.flush() == "Hiking on a sunny day is the best."


@pytest.mark.parametrize("user, reply, names, language, shown", [
    ("Hallo! Ich bin Lena. Heute war meine erste Probe im neuen Chor, und ich war total aufgeregt.",
     "Hi! Ich bin Lena. Wie war die erste Probe?", ("Lena",), "de", "Hi! Wie war die erste Probe?"),
    ("Oi! Eu sou a Ana. Passei o dia na praia com minhas primas e tomei um sol gostoso.",
     "Oi! Eu sou a Ana. Que delícia, a água estava boa?", ("Ana",), "pt", "Oi! Que delícia, a água estava boa?"),
    # After the claim, the user's own story told on as the persona's is no reply: asked again.
    ("Hi! I'm Ken. I just got back from hiking on Mt. Takao and saw a fox.",
     "Hello! I'm Ken. Just back from Mt. Takao!", ("Ken",), "en", ""),
])
@pytest.mark.parametrize("piece", [1, 1000])
def test_a_sentence_that_only_takes_the_users_name_is_left_out(user, reply, names, language, shown, piece):
    gate = SentenceGate((*names, "Ark"), user, language, user_names=names)
    assert stream(gate, reply, piece) == shown
    assert gate.took_name and bool(gate.blocked) == (not shown)


@pytest.mark.parametrize("piece", [1, 4, 1000])
def test_after_an_oh_the_opening_is_judged_as_if_it_opened_there(piece):
    user = "Was war nochmal in meinem Brot drin, weißt du das noch?"
    before = ("Oh, ich glaube das Spaghetti ist heute Abend nicht da.",)
    said_again = SentenceGate((), user, "de", persona_said=before)
    assert stream(said_again, "Oh, ich glaube das Spaghetti ist heute Abend nicht da.", piece) == "" and said_again.blocked
    goes_on = SentenceGate((), user, "de", persona_said=before)
    assert stream(goes_on, "Oh, ich glaube das Spaghetti ist heute Abend nicht da. Im Brot waren Roggen und Walnüsse!",
                  piece) == "Im Brot waren Roggen und Walnüsse!"
    assert SentenceGate((), user, "de").feed("Oh, ich glaube ") == ""  # the first person after "Oh, ": held
    assert SentenceGate((), user, "de").feed("Oh, im Brot waren ") == "Oh, im Brot waren "  # its own words stream


def test_when_every_attempt_failed_a_reaction_held_back_only_for_being_short_is_the_reply():
    held_back = ("每周跑三次，每次十公里左右。", "希望健康！", "现在每周跑三次，每次十公里左右。")
    # a reaction too short for something told at length (5 characters carry a reply in Chinese)
    assert greeting_held_back(held_back, "zh", ("Ark",), (), least=5) == "希望健康！"
    assert greeting_held_back(held_back, "zh", ("Ark",), (), least=1) == ""  # to a short message it says something
    assert greeting_held_back(("每周跑三次，每次十公里左右。",), "zh", ("Ark",), (), least=5) == ""  # an echo never


def test_a_long_list_ends_at_its_last_whole_line_within_the_local_models_room(data_dir, clock):
    tips = "Certainly! Here are some tips:\n\n" + "\n\n".join(
        f"{n}. **Routine**:\nTake the puppy out after every meal and nap, and praise him the moment he goes outside."
        for n in range(1, 13))
    local = ScriptedChatModel(replies(tips))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: local)
    events = list(service.send("Ark", "Any tips for house-training a puppy?"))
    shown = "".join(e.text for e in events if e.kind == "token").strip()
    assert 400 < len(shown) <= constants.MAX_REPLY_CHARS_LOCAL and shown.endswith("goes outside.")
    assert tips.startswith(shown) and len(local.calls) == 1  # cut, not asked for again, and never on a heading's ":"
    assert service.conversation("Ark")[-1].text == shown

    lead_in = SentenceGate(user_text="Any tips?", most_chars=60)
    assert stream(lead_in, "Sure thing. Here are some tips:\nTake him out after every single meal and nap.") == "Sure thing. "
    ended = SentenceGate(user_text="Any tips?", most_chars=700)  # the model ended on it: it leads into nothing,
    assert stream(ended, "Sure thing. Here are some tips:") == "Sure thing. "  # so it is asked again from what was shown
    assert ended.blocked and ended.greeting == "Sure thing."

    remote = ScriptedChatModel(replies(tips), budget_family="remote")
    other = NexusService(data_dir / "remote", clock=clock, model_factory=lambda s, k, p: remote)
    events = list(other.send("Ark", "Any tips for house-training a puppy?"))
    assert "".join(e.text for e in events if e.kind == "token").strip() == tips.strip()



@pytest.mark.parametrize("piece", [1, 5, 1000])
def test_a_forms_request_for_input_is_held_and_left_out_whatever_the_chunks(piece):
    gate = SentenceGate(("Sam", "Ark"), "I'm back home! Guess where I've just been?", "en", user_names=("Sam",))
    shown = stream(gate, "Can you provide more details about the location where Sam was? Lisbon, I bet!", piece)
    assert shown == "Lisbon, I bet!"
    friendly = SentenceGate(("Sam", "Ark"), "I'm back home! Guess where I've just been?", "en", user_names=("Sam",))
    assert friendly.feed("Can you tell") == "Can you tell"  # a friend's question streams once it cannot be one


@pytest.mark.parametrize("piece", [1, 4, 1000])
@pytest.mark.parametrize("language, user, reply, shown", [
    ("es", "¿Y a cuántas tiendas tuve que ir?",
     "Si tienes alguna otra pregunta sobre tus experiencias, estaré encantado de ayudar. ¡Fueron tres tiendas!", "¡Fueron tres tiendas!"),
    ("de", "Na, wie war's?", "Wenn du noch Fragen hast, sag Bescheid. Der Chor war toll!", "Der Chor war toll!"),
    ("pt", "Tudo bem?", "Se tiver alguma dúvida, é só falar. Aqui está tudo ótimo!", "Aqui está tudo ótimo!"),
    ("de", "Was machen wir morgen?", "Wenn du magst, backen wir morgen Brot.", "Wenn du magst, backen wir morgen Brot."),
])
def test_an_invitation_to_ask_more_that_opens_a_reply_is_left_out(language, user, reply, shown, piece):
    gate = SentenceGate(("Ark",), user, language)
    assert stream(gate, reply, piece) == shown


def test_a_refusal_after_an_inverted_exclamation_mark_is_held_like_any_other():
    # §4, session 38: "¡Lo siento, pero no puedo ayudarte con eso." streamed past the risky openings' check
    said = ("¡Hola! Soy Diego. Hoy me compré una bicicleta de segunda mano.", "Oye, ¿qué fue lo que me compré el otro día?")
    gate = SentenceGate(("Diego", "Ark"), said[-1], "es", user_names=("Diego",), user_said=said, greet_early=True)
    assert stream(gate, "¡Lo siento, pero no puedo ayudarte con eso.") == "" and gate.left_out_openings


@pytest.mark.parametrize("user_text, reply, language, held", [
    ("こんばんは！今日は公園で桜を見てきたよ。", "さようなら！", "ja", True),  # the whole reply, to news (session 53)
    ("こんばんは！今日は公園で桜を見てきたよ。", "さようなら！またね。", "ja", True),
    ("今日はもう寝るね。おやすみ。", "おやすみなさい！", "ja", False),  # the user is leaving: a fitting reply
    ("こんばんは！今日は公園で桜を見てきたよ。", "桜、きれいだったでしょう？", "ja", False),
])
def test_a_leave_taking_alone_while_the_user_is_not_leaving_is_asked_for_again(user_text, reply, language, held):
    gate = SentenceGate(("ハナ", "アーク"), user_text, language, persona_name="アーク", greet_early=True)
    shown = stream(gate, reply, piece=1)
    assert (shown == "" and gate.blocked == reply) if held else shown == reply
    last = SentenceGate(("ハナ", "アーク"), user_text, language, persona_name="アーク", greet_early=True,
                        release_fillers=True)
    assert stream(last, reply, piece=1) == reply  # the last attempt shows it rather than nothing


def test_too_little_information_to_suggest_anything_is_asked_for_again(data_dir, clock):
    model = ScriptedChatModel(replies("I'm sorry, but I don't have enough information to suggest a quick meal.",
                                      "How about a veggie stir-fry? Ten minutes and one pan."))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model)
    events = list(service.send("Ark", "What should I cook tonight, something quick?"))
    assert "".join(e.text for e in events if e.kind == "token").strip() == "How about a veggie stir-fry? Ten minutes and one pan."
    assert len(model.calls) == 2
