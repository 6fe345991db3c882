"""A night text (strategy, goal) that names the user may still tell the user's doing as the persona's in
another clause (agent/night_claims.py, agent/dream.py strategy_ok). The users, their words and the
strategies are this test's own, in six languages; each language has strategies that must pass — asking,
listening, keeping the user's thing in mind, doing something together — beside ones that take the
user's doing."""
import pytest

from agent.dream import goal_ok, strategy_ok
from agent.night_claims import pieces, users_doing_taken

SAID = {
    "en": ("Mia", ["I started learning the piano last month.", "I run five kilometres every morning before work.",
                   "My landlord raised the rent again, so I might move to a cheaper flat.",
                   "I baked sourdough bread on Sunday."]),
    "ja": ("ハナ", ["先月からピアノを習い始めたんだ。", "毎朝会社の前に５キロ走ってる。",
                   "大家さんがまた家賃を上げたから、安い部屋に引っ越すかも。", "日曜日にパンを焼いたよ。"]),
    "es": ("Lucía", ["Empecé a estudiar alemán en septiembre.", "Los sábados juego al pádel con mis primos.",
                     "Mi jefe me ofreció un puesto en Valencia."]),
    "de": ("Jonas", ["Ich habe gestern mein erstes Brot gebacken.", "Mein Bruder heiratet im Juni.",
                     "Ich lerne seit Mai Gitarre."]),
    "fr": ("Camille", ["J'ai commencé la poterie en octobre.", "Je cours un semi-marathon en avril."]),
    "zh": ("小林", ["我上个月开始学游泳了。", "我周末去爬山了。"]),
}

TOWARD_THE_USER = [
    ("en", "Next time I talk with Mia, I will ask how the piano lessons are going."),
    ("en", "I will cheer Mia on when she talks about her morning runs."),
    ("en", "I will remember to ask Mia about the sourdough."),
    ("en", "I want to be a calmer presence for Mia while she decides whether to move."),
    ("en", "We could bake something together next weekend, if Mia wants."),
    ("en", "I will be more encouraging about the move, and ask Mia what she hopes for in a new flat."),
    ("en", "Next time I talk with Mia, I will bring up the rent gently."),
    ("en", "I will keep the piano in mind when Mia and I talk."),
    ("en", "I will be more patient with Mia."),
    ("ja", "次にハナと話すときは、ピアノのレッスンの様子を聞いてみます。"),
    ("ja", "私はハナが毎朝走ることを応援します。"),
    ("ja", "次にハナと話すときは、パンの作り方について聞いてみたい。"),
    ("ja", "ハナが家賃のことで悩んでいたら、私は話を聞きます。"),
    ("es", "La próxima vez que hable con Lucía, le preguntaré cómo le va con el alemán."),
    ("es", "Voy a escuchar a Lucía con calma cuando hable del puesto en Valencia."),
    ("es", "Seré más paciente con Lucía y le preguntaré por Valencia."),
    ("de", "Beim nächsten Gespräch mit Jonas frage ich, wie das Gitarrenspiel läuft."),
    ("de", "Ich werde geduldig sein und Jonas zuhören."),
    ("de", "Nächstes Mal frage ich Jonas, ob das Brot gelungen ist."),
    ("fr", "La prochaine fois que je parle avec Camille, je lui demanderai comment avance la poterie."),
    ("fr", "Je vais encourager Camille pour son semi-marathon."),
    ("zh", "下次和小林聊天时，我会问问她游泳学得怎么样。"),
]

USERS_DOING_TAKEN = [
    ("en", "I will keep learning the piano every day and ask Mia for tips.", "learning the piano"),
    ("en", "I will run five kilometres before work, then talk with Mia about it.", "five kilometres"),
    ("en", "Next time I talk with Mia, I will bake more sourdough bread.", "sourdough"),
    ("en", "I will tell Mia that I started the piano too.", "piano"),
    ("en", "Ark will run every morning before work and share it with Mia.", "every morning"),  # by the persona's name
    ("en", "I will keep my sourdough going and tell Mia how it turns out.", "sourdough"),
    ("en", "I will record myself playing the piano every day, and Mia can listen.", "piano"),  # "record": no act toward Mia
    ("ja", "次にハナと話すときは、私もピアノを習い始めたことを話します。", "ピアノ"),
    ("ja", "アークは日曜日にパンを焼いて、ハナに見せます。", "パン"),
    ("ja", "私は安い部屋に引っ越すかもしれないので、ハナに相談します。", "部屋"),
    ("es", "Voy a estudiar alemán todos los días y se lo contaré a Lucía.", "alemán"),
    ("es", "Los sábados juego al pádel con mis primos, así que hablaré con Lucía el domingo.", "pádel"),
    ("de", "Ich lerne weiter Gitarre und erzähle Jonas davon.", "Gitarre"),
    ("de", "Ich habe gestern mein erstes Brot gebacken, und Jonas soll es probieren.", "Brot"),
    ("fr", "Je cours un semi-marathon en avril et je le dirai à Camille.", "semi-marathon"),
    ("zh", "我会继续学游泳，然后告诉小林。", "游泳"),
]


@pytest.mark.parametrize("language, text", TOWARD_THE_USER)
def test_a_night_text_doing_something_toward_the_user_passes(language, text):
    user, said = SAID[language]
    assert users_doing_taken(text, user, said, language, ("Ark", "アーク")) is None
    assert strategy_ok(text, language, user, "", said, ("Ark", "アーク"))


@pytest.mark.parametrize("language, text, piece", USERS_DOING_TAKEN)
def test_a_clause_telling_the_users_doing_as_the_personas_is_found_though_the_text_names_the_user(
        language, text, piece):
    user, said = SAID[language]
    found = users_doing_taken(text, user, said, language, ("Ark", "アーク"))
    assert found is not None and piece in found
    assert not strategy_ok(text, language, user, "", said, ("Ark", "アーク"))


def test_the_user_named_in_one_clause_excuses_only_that_clause():
    """The hole this closes: the whole sentence passed because it named the user somewhere."""
    said = ["I practise the Bach prelude for an hour every evening."]
    taken = "Ark will practise the prelude every evening and ask Noor's sister for advice."
    assert users_doing_taken(taken, "Noor", said, "en", ("Ark",)) == "Ark will practise the prelude every evening"
    assert not goal_ok(taken, "Noor", said, "en", ("Ark",))
    assert goal_ok("Ask Noor how the prelude sounds in the evenings.", "Noor", said, "en", ("Ark",))


def test_a_clause_in_the_third_person_or_of_someone_else_is_not_the_personas():
    said = ["I practise the Bach prelude for an hour every evening."]
    assert users_doing_taken("Noor will practise the prelude every evening, and I will listen.",
                             "Noor", said, "en", ("Ark",)) is None
    assert users_doing_taken("Ark hopes the prelude goes well, since she practises every evening.",
                             "Noor", said, "en", ("Ark",)) is None


def test_pieces_part_a_sentence_at_its_clauses():
    assert pieces("I will tell Mia that I started the piano too.") == ["I will tell Mia", "I started the piano too."]
    assert pieces("次にハナと話すときは、私もピアノを習い始めたことを話します。") == [
        "次にハナと話すときは", "私もピアノを習い始めた", "話します。"]
