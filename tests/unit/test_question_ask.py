"""The night's open questions, asked apart from the dream over the user's words only
(agent/question_ask.py): a question is taken only when it is a question, in the days' language,
drawn from words the message it names holds, and that message points ahead; an answer resolves a
question only with words a message holds."""
import json

import pytest

from agent.providers.fake import ScriptedChatModel, replies
from agent.question_ask import (ahead_of, first_question, fit_messages, parse_questions, question_schema, question_system,
                                question_user, said_in)
from managers.open_questions import OpenQuestion

MESSAGES = ["My recital is next Saturday and I still haven't picked the encore.",
            "I looked at a flat by the river today, but the rent is high. I'll decide by the end of the month.",
            "木曜にプレゼンがあるんだけど、何を話すかまだ決めてない。",
            "Yesterday I cooked my grandmother's lentil soup and I haven't finished it."]
AHEAD = [1, 2, 3]


def answer(*open_items, answered=()):
    return json.dumps({"open": [dict(zip(("message", "words", "question"), item)) for item in open_items],
                       "answered": list(answered)})


def test_a_question_drawn_from_the_words_of_its_message_is_taken():
    result = parse_questions(answer((1, "I still haven't picked the encore", "Which encore did Noor pick?"),
                                    (2, "the rent is high", "Will Noor take the flat, with the rent that high?")),
                             MESSAGES, "en", AHEAD, ("Noor", "Ark"))
    assert [q.question for q in result.new] == ["Which encore did Noor pick?",
                                                "Will Noor take the flat, with the rent that high?"]
    assert result.new[0].words == "I still haven't picked the encore"


def test_a_japanese_question_from_a_japanese_message():
    result = parse_questions(answer((3, "何を話すかまだ決めてない", "ユイさん、木曜のプレゼンで何を話すか決めた？")),
                             MESSAGES, "ja", AHEAD, ("ユイ", "Ark"))
    assert [q.question for q in result.new] == ["ユイさん、木曜のプレゼンで何を話すか決めた？"]


@pytest.mark.parametrize("item, why", [
    ((1, "I play the violin every day", "Does Noor still play the violin?"), "words the message does not hold"),
    ((2, "I looked at a flat by the river today", "What is Noor's favorite food?"), "nothing of the words but names"),
    ((1, "I still haven't picked the encore", "Noor will pick the encore soon."), "a statement"),
    ((1, "I still haven't picked the encore", "¿Qué bis eligió Noor para el encore?"), "another language"),
    ((7, "I still haven't picked the encore", "Which encore did Noor pick?"), "no such message"),
    ((1, "", "Which encore did Noor pick?"), "no words"),
    ((4, "I haven't finished it", "Have you finished the lentil soup?"), "a message that points nowhere ahead"),
    ((3, "木曜にプレゼンがある", "何を話すかまだ決めてない？"), "the user's own words with a question mark"),
    ((1, "I still haven't picked the encore", "How did Ken's encore go?"), "the example's person, whom nobody named"),
])
def test_a_question_not_drawn_from_its_message_is_not_taken(item, why):
    assert parse_questions(answer(item), MESSAGES, "en", AHEAD, ("Noor", "Ark")).new == (), why


@pytest.mark.parametrize("question", ["How did your sister's driving test go?", "Why did he call you?"])
def test_question_words_and_pronouns_are_no_common_ground(question):
    # the message and the question share only "how", "why", "your", "you", "he": what a question is about is
    # none of them (LoCoMo 42's first night filed the driving test of a sister nobody had, session 28)
    messages = ["How are you? Why do you ask, he said. I'll send your copy of my screenplay to festivals next week."]
    assert parse_questions(answer((1, "I'll send your copy of my screenplay to festivals next week", question)),
                           messages, "en", [1], ("Joanna", "Nate")).new == ()
    taken = parse_questions(answer((1, "I'll send your copy of my screenplay to festivals next week",
                                    "Which festivals did Joanna send the screenplay to?")), messages, "en", [1],
                            ("Joanna", "Nate")).new
    assert [q.question for q in taken] == ["Which festivals did Joanna send the screenplay to?"]


def test_the_words_may_come_from_the_message_before_the_one_ahead():
    # "She'll decide by the end of the month" points ahead; what she decides is named the message before
    messages = ["My sister Leila got two job offers, one in Lisbon.", "She'll decide by the end of the month."]
    result = parse_questions(answer((2, "Leila got two job offers", "Which job offer did Leila take?")),
                             messages, "en", [2], ("Omar", "Ark"))
    assert [q.question for q in result.new] == ["Which job offer did Leila take?"]
    spanish = ["El monitor dice que la semana que viene probaremos la pared de bloque."]
    result = parse_questions(answer((1, "la semana que viene probaremos la pared de bloque",
                                     "¿Qué tal fue la pared de bloque?")), spanish, "es", [1], ("Lucía", "Ark"))
    assert [q.question for q in result.new] == ["¿Qué tal fue la pared de bloque?"]  # stems read alike either side


def test_a_japanese_question_sharing_only_kana_with_the_words_is_not_about_them():
    vague = answer((3, "プレゼンがあるんだけど", "何があるんだろう？"))  # あるん, not what the words are about
    assert parse_questions(vague, MESSAGES, "ja", AHEAD, ("ユイ", "Ark")).new == ()


def test_a_question_that_runs_on_keeps_its_first_question():
    result = parse_questions(answer((1, "I still haven't picked the encore",
                                     "Which encore did Noor pick? What did she eat? How long did she practise?")),
                             MESSAGES, "en", AHEAD, ("Noor", "Ark"))
    assert [q.question for q in result.new] == ["Which encore did Noor pick?"]
    assert first_question("Noor will pick it.") == "" and first_question("健太の状況は？他は？") == "健太の状況は？"


def test_the_messages_that_point_ahead_are_the_only_ones_the_grammar_lets_it_name():
    assert ahead_of(MESSAGES) == AHEAD
    schema = question_schema(AHEAD)["properties"]["open"]
    assert schema["items"]["properties"]["message"]["enum"] == AHEAD and schema["minItems"] >= 1
    assert "messages 1, 2, 3" in question_system("Ark", "Noor", "en", AHEAD)
    nothing = question_schema([])["properties"]["open"]  # no message points ahead: no new question that night
    assert nothing["maxItems"] == 0 and "leave it empty" in question_system("Ark", "Noor", "en", [])


def test_only_the_name_in_common_is_no_common_ground():
    messages = ["Noor here, back from work. Off again next Monday."]
    assert parse_questions(answer((1, "Noor here", "Is Noor happy?")), messages, "en", [1], ("Noor", "Ark")).new == ()
    # without the names given, the name is a content word like any other
    assert parse_questions(answer((1, "Noor here", "Is Noor happy?")), messages, "en", [1]).new != ()


def test_an_answer_resolves_only_with_words_a_message_holds():
    answered = [{"number": 1, "message": 1, "words": "I still haven't picked the encore", "answer": "Not yet.",
                 "kind": "SKIP", "about": ""},
                {"number": 2, "message": 2, "words": "my sister moved to Oslo", "answer": "Oslo.", "kind": "FACT",
                 "about": "Leila"},
                {"number": 3, "message": 2, "words": "the rent is high", "answer": "", "kind": "FACT", "about": ""},
                {"number": 0, "message": 2, "words": "the rent is high", "answer": "High.", "kind": "BOGUS", "about": ""}]
    result = parse_questions(answer(answered=answered), MESSAGES, "en", AHEAD)
    assert [(a.number, a.answer, a.kind) for a in result.answered] == [(1, "Not yet.", "SKIP")]


@pytest.mark.parametrize("text", ["", "not json", "[1, 2]", '{"open": "x", "answered": null}'])
def test_an_answer_that_is_no_such_json_gives_nothing(text):
    result = parse_questions(text, MESSAGES, "en", AHEAD)
    assert result.new == () and result.answered == ()


def test_words_copied_give_or_take_an_inflection_are_the_messages():
    assert said_in("I still haven't pick the encore", MESSAGES[0])
    assert said_in("何を話すかまだ決めてない", MESSAGES[2])
    assert not said_in("the violin recital", "I play the cello.")
    assert not said_in("", MESSAGES[0])


def test_the_newest_messages_fit_the_room_in_their_order():
    count = ScriptedChatModel(replies("")).count_tokens
    messages = [f"Message {n}: " + "words " * 40 for n in range(30)]
    kept = fit_messages(messages, 400, count)
    assert kept and kept[-1].startswith("Message 29") and len(kept) < 30
    assert [int(m.split(":")[0].split()[1]) for m in kept] == sorted(int(m.split(":")[0].split()[1]) for m in kept)
    assert count("\n".join(kept)) <= 400
    assert fit_messages(["one", "two"], 400, count) == ["one", "two"]


def test_the_ask_shows_messages_and_open_questions_numbered_and_asks_the_words():
    user = question_user(MESSAGES[:2], [OpenQuestion(id="q1", text="How was the flat?")], "Write every field in English.")
    assert user.startswith("# Messages\n1. My recital") and "\n2. I looked at a flat" in user
    assert "# Your open questions\n1. How was the flat?" in user and user.endswith("Write every field in English.")
    schema = question_schema(AHEAD)["properties"]
    assert schema["open"]["items"]["required"] == ["message", "words", "question"]


@pytest.mark.parametrize("message, resolves", [
    # LoCoMo 42's night (session 29): a message of the day about something else "answered" it
    ("It's a beautiful shade of blonde that I love!", False),
    ("My sister finally passed her driving test on Friday!", True),
])
def test_an_answer_resolves_only_from_a_message_about_what_the_question_asks(message, resolves):
    words = message.split("!")[0][-20:]
    answered = [{"number": 1, "message": 1, "words": words, "answer": "It went well.", "kind": "FACT", "about": ""}]
    result = parse_questions(answer(answered=answered), [message], "en", [], ("Joanna", "Ark"),
                             asked=["How did your sister's driving test go?"])
    assert bool(result.answered) is resolves


def test_a_japanese_answer_resolves_only_from_a_message_about_the_question():
    asked = ["妹さんの運転免許の試験はどうだった？"]
    off = [{"number": 1, "message": 1, "words": "髪をきれいな金色に染めた", "answer": "金色", "kind": "FACT", "about": ""}]
    on = [{"number": 1, "message": 1, "words": "運転免許の試験に受かった", "answer": "受かった", "kind": "FACT", "about": ""}]
    assert parse_questions(answer(answered=off), ["昨日、髪をきれいな金色に染めたよ！"], "ja", [], ("ユイ", "Ark"),
                           asked=asked).answered == ()
    assert parse_questions(answer(answered=on), ["妹が運転免許の試験に受かったって！"], "ja", [], ("ユイ", "Ark"),
                           asked=asked).answered != ()


def test_a_question_naming_a_hyphenated_word_of_the_message_is_about_it():
    messages = ["Nächsten Monat habe ich meine Abschlussprüfung in Chemie."]
    result = parse_questions(answer((1, "nächsten Monat meine Abschlussprüfung in Chemie",
                                     "Wie lief die Chemie-Abschlussprüfung?")), messages, "de", [1], ("Jonas", "Ark"))
    assert [q.question for q in result.new] == ["Wie lief die Chemie-Abschlussprüfung?"]


def test_a_person_the_messages_name_like_the_examples_may_be_asked_about():
    english = parse_questions(answer((1, "Ken moves to Kenya next month", "How did Ken's move to Kenya go?")),
                              ["My friend Ken moves to Kenya next month."], "en", [1], ("Sam", "Ark"))
    assert [q.question for q in english.new] == ["How did Ken's move to Kenya go?"]
    japanese = parse_questions(answer((1, "来週の木曜に仲直りする", "ケンカの仲直り、うまくいった？")),
                               ["ケンカしちゃった。来週の木曜に仲直りするつもり。"], "ja", [1], ("サキ", "Ark"))
    assert [q.question for q in japanese.new] == ["ケンカの仲直り、うまくいった？"]


@pytest.mark.parametrize("language", ["en", "ja", "zh", "ko", "es", "fr", "de", "it", "pt"])
def test_the_example_question_is_in_the_language_of_the_questions(language):
    from agent.language import message_language
    from agent.question_ask import _EXAMPLES

    message, words, question = _EXAMPLES[language]
    assert words in message and f'"{question}"' in question_system("Ark", "Noor", language, [1])
    assert message_language(question) in ("", language) and message_language(message) in ("", language)


def test_an_answer_cut_off_at_its_room_keeps_the_first_question_of_the_item_it_cut():
    runaway = ('{ "open": [ {"message": 1, "words": "I still haven\'t picked the encore", "question": '
               '"Which encore did Noor pick? Why? What? Why? What? Wh')
    result = parse_questions(runaway, MESSAGES, "en", AHEAD, ("Noor", "Ark"))
    assert [q.question for q in result.new] == ["Which encore did Noor pick?"]
    cut_in_words = '{ "open": [ {"message": 1, "words": "I still haven\'t pi'
    assert parse_questions(cut_in_words, MESSAGES, "en", AHEAD, ("Noor", "Ark")).new == ()
