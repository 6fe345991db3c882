"""A reply of greetings, fillers and names alone says nothing."""
import pytest

from agent.engagement import says_nothing, tells_nothing


@pytest.mark.parametrize("reply", ["Hello!", "こんにちは！", "Sure, Ken!", "うん、そうだね。", "Bonsoir Camille !", "好的！",
                                   "Oh wow!", "네, 좋아요!", "¡Hola!",
                                   # the answer to a thanks, to a message that thanked for nothing ("ただいま。今日は
                                   # ゆっくり休めたよ。" got 「どういたしまして？」: bench conversation, session 29)
                                   "どういたしまして？", "不客气！", "천만에요.",
                                   "Sì, certo!"])  # Italian "yes" (Spanish "sí" was one, "sì" was not: session 31)
def test_greetings_and_fillers_say_nothing(reply):
    assert says_nothing(reply, ("Ken", "Camille", "Ark"))


@pytest.mark.parametrize("reply", ["Hello! How was the hike?", "ハナ。", "Blue.", "317!", "It's Ark!", "杭州。",
                                   "お疲れさま、緊張したね。", "Sure, it's on Friday.", "どういたしまして。ゆっくり休めてよかったね！"])
def test_an_answer_however_short_says_something(reply):
    assert not says_nothing(reply, ("Ken",))  # asked for a name, the names are the answer


@pytest.mark.parametrize("reply", ["안녕하세요, 아크!", "Hello, friend!", "¡Hola, amiga!", "Guten Abend, du!",
                                   "你好，小明！", "Good morning, sunshine!"])
def test_a_greeting_said_to_anyone_says_nothing(reply):
    assert says_nothing(reply, ("민준", "Ark"))  # 아크: the persona as the user wrote it, a name the app does not know


@pytest.mark.parametrize("reply", ["Hello, how are you?", "Hi, I went hiking.", "안녕하세요, 카페 이름은 파란 고양이예요!",
                                   "Hello! Your café is called Blue Cat.", "Great, Tuesday!", "Oui, Lyon."])
def test_a_greeting_with_anything_more_or_an_answer_after_a_comma_is_something(reply):
    assert not says_nothing(reply, ("민준", "Ark"))


@pytest.mark.parametrize("reply", ["I'm Ark!", "Bonjour Camille ! Je suis Ark.", "アークです！", "Hi Ken, it's Ark."])
def test_the_persona_saying_who_it_is_says_nothing(reply):
    assert says_nothing(reply, ("Ken", "Camille", "Ark", "アーク"))


@pytest.mark.parametrize("reply", ["I'm here.", "Je suis fatiguée.", "アークは元気だよ。", "It's on Friday."])
def test_but_anything_more_is_something(reply):
    assert not says_nothing(reply, ("Ken", "Ark", "アーク"))


@pytest.mark.parametrize("text", [
    "Night, Ark!", "Goodnight!", "Good night, Nina. Sleep well!", "Bye!", "See you tomorrow!",
    "¡Buenas noches, Ark!", "Bonne nuit !", "Gute Nacht, Ark!", "Boa noite!", "Buonanotte!",
    "おやすみ、アーク！", "またね！", "晚安！", "잘 자요!", "Thanks, see you later!",
])
def test_a_leave_taking_tells_nothing_as_a_memory(text):
    assert tells_nothing(text, ["Ark", "Nina", "アーク"])


@pytest.mark.parametrize("text", [
    "Tired today. Good night.", "Night shift again tomorrow, ugh.", "I'll see the dentist tomorrow.",
    "Goodnight moon was her favourite book.", "Bye for now, I'm off to Lisbon!",
    "明日は早いからもう寝るね。おやすみ", "Gute Nacht, morgen ist die Prüfung.", "See you at the pottery class!",
])
def test_a_farewell_with_news_in_it_is_still_a_memory(text):
    assert not tells_nothing(text, ["Ark", "Nina"])


def test_a_reply_may_still_end_on_a_farewell_without_being_empty():
    # The reply guard's measure is unchanged: "Goodnight" still counts as something said in a reply.
    assert not says_nothing("Goodnight!") and tells_nothing("Goodnight!")


@pytest.mark.parametrize("reply, user, language, shown", [
    ("Hier ist Anna's Antwort:", "Hallo Ark, ich bin's, Anna. Ich war heute mit meiner Katze beim Tierarzt.", "de", ""),
    ("Sì, Sara! La tua nonna diceva sempre:", "Mia nonna diceva sempre: bisogna avere pazienza.", "it", ""),
    ("Great! Here are three ideas:", "What should I cook tonight?", "en", ""),
    ("Here are some ideas: pasta with pesto, or a quick risotto.", "What should I cook tonight?", "en",
     "Here are some ideas: pasta with pesto, or a quick risotto."),
])
def test_a_reply_that_ends_on_a_colon_introduces_nothing_and_is_asked_again(reply, user, language, shown):
    from agent.character_guard import SentenceGate

    for piece in (3, 60):
        gate = SentenceGate(names=["Ark"], user_text=user, language=language, user_names=["Anna", "Sara"],
                            hold_first_sentence=True, persona_name="Ark")
        out = "".join(gate.feed(reply[i:i + piece]) for i in range(0, len(reply), piece)) + gate.flush()
        assert out == shown and bool(gate.blocked) == (not shown)


@pytest.mark.parametrize("first", ["Hier ist Annas Antwort:\n\nAnna: Ich war heute mit Mira beim Tierarzt.",
                                   "Hier ist Annas Antwort:"])
def test_a_lead_in_left_with_nothing_after_it_is_asked_again_going_on_from_it(data_dir, clock, first):
    from agent.providers.fake import ScriptedChatModel, replies
    from persona.service import NexusService

    model = ScriptedChatModel(replies(first, " Schön, dass Mira gesund ist!"))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model, after_turn_work=False)
    service.update_settings(user_name="Anna")
    list(service.send("Ark", "Hallo Ark, ich bin's, Anna. Ich war heute mit meiner Katze Mira beim Tierarzt."))
    assert service.conversation("Ark")[-1].text.endswith("Schön, dass Mira gesund ist!") and len(model.calls) == 2


@pytest.mark.parametrize("question, language", [
    ("Is it likely that Nate has friends besides Joanna?", "en"), ("Was it a good month for you?", "en"),
    ("Hast du heute schon gegessen?", "de"), ("¿Te gustó la película?", "es"), ("Tu es fatigué ce soir ?", "fr"),
    ("Ti è piaciuto il concerto?", "it"), ("Você já comeu hoje?", "pt"), ("明日は晴れるかな？", "ja"),
    ("你今天累吗？", "zh"), ("오늘 피곤해?", "ko"),
])
def test_a_bare_yes_answers_a_yes_or_no_question(question, language):
    from agent.engagement import asks_yes_or_no, yes_alone

    assert asks_yes_or_no(question, language)
    assert yes_alone({"en": "Yes.", "de": "Ja!", "es": "¡Sí!", "fr": "Oui.", "it": "Sì.", "pt": "Sim.",
                      "ja": "うん！", "zh": "是的。", "ko": "응!"}[language], ["Ark"])


def test_a_bare_yes_without_a_stop_gets_one_for_the_reply_to_go_on_from():
    from agent.engagement import yes_alone

    assert (yes_alone("Yes"), yes_alone("はい"), yes_alone("Yes, Caroline!", ["Caroline"]), yes_alone("Yes, it is.")) == (
        "Yes.", "はい。", "Yes, Caroline!", "")


@pytest.mark.parametrize("question, language", [
    ("Do you remember what I was nervous about today?", "en"), ("Can you recommend a book?", "en"),
    ("Does John live close to a beach or the mountains?", "en"), ("What did I cook?", "en"),
    ("Weißt du noch, wie mein Hund heißt?", "de"), ("¿Te acuerdas de mi hermana?", "es"),
    ("Tu te souviens de mon chat ?", "fr"), ("私の名前、覚えてる？", "ja"), ("你还记得我妹妹叫什么吗？", "zh"),
    ("내 이름 기억해?", "ko"), ("I had a long day at work.", "en"),
])
def test_a_bare_yes_answers_nothing_asked_for_content_or_told(question, language):
    from agent.engagement import asks_yes_or_no

    assert not asks_yes_or_no(question, language)


@pytest.mark.parametrize("user, reply, shown", [
    ("Is it likely that Nate has friends besides Joanna?", "Yes.", "Yes."),
    ("Do you remember what I was nervous about today?", "Yes.", ""),
    ("Is it likely that Nate has friends besides Joanna?", "Sure!", ""),  # an acknowledgement, not an answer
    ("I finally finished my thesis today.", "Yes!", ""),
])
def test_the_guard_shows_a_bare_yes_only_to_a_yes_or_no_question(user, reply, shown):
    from agent.character_guard import SentenceGate

    gate = SentenceGate(names=["Ark"], user_text=user, language="en", user_names=["Ken"], persona_name="Ark")
    out = gate.feed(reply) + gate.flush()
    assert out == shown and gate.blocked  # either way asked again: on from the yes shown, or afresh
    assert gate.greeting == shown


def test_a_bare_yes_is_kept_and_the_reply_goes_on_from_it(data_dir, clock):
    from agent.providers.fake import ScriptedChatModel, replies
    from persona.service import NexusService

    model = ScriptedChatModel(replies("Yes.", " Both of them turned what they love into a business."))
    service = NexusService(data_dir, clock=clock, model_factory=lambda s, k, p: model, after_turn_work=False)
    list(service.send("Ark", "Do Jon and Gina start businesses out of what they love?"))
    assert service.conversation("Ark")[-1].text == "Yes. Both of them turned what they love into a business."
    assert len(model.calls) == 2


@pytest.mark.parametrize("question, language, closed", [
    ("Do Jon and Gina start businesses out of what they love?", "en", True),  # a "what" inside a yes-or-no question
    ("Was it a good month for Nate? Answer yes or no.", "en", True), ("And what did she say?", "en", False),
    ("¿Sabes lo que pasó?", "es", False), ("¿Dónde está Lucía?", "es", False), ("Est-ce que tu as bien dormi ?", "fr", True),
    ("Hat Ben angerufen oder nicht?", "de", True), ("Wie war dein Tag?", "de", False),
])
def test_a_question_word_counts_where_it_opens_the_question(question, language, closed):
    from agent.engagement import asks_yes_or_no

    assert asks_yes_or_no(question, language) == closed


def test_a_recalled_days_heading_said_back_answers_when():
    from agent.character_guard import SentenceGate

    told = "The Friday before 14 September 2022, I made a dessert with almond milk - it was good!"
    asked = "When did I make a dessert with almond milk?"
    gate = SentenceGate(names=["Ark"], user_text=asked, language="en", context=f"# Memories\n[14 September 2022]\n- Joanna: {told}",
                        user_names=["Joanna"], persona_name="Ark", user_said=(told, asked))
    assert gate.feed("14 September 2022") + gate.flush() == "14 September 2022" and not gate.blocked


def test_the_guard_shows_a_bare_yes_without_a_stop_with_one():
    from agent.character_guard import SentenceGate

    gate = SentenceGate(names=["Ark"], user_text="Is it raining where you are?", language="en", persona_name="Ark")
    assert gate.feed("Yes") + gate.flush() == "Yes." and gate.greeting == "Yes." and gate.blocked == "Yes."
