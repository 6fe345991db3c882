"""German verbs said of the user (agent/german_verbs.py): "fahre ich" → "fährst du", and the guard holding
a German verb until its subject tells whose it is (dev-de-wann, session 44)."""
import pytest

from agent.character_guard import SentenceGate
from agent.german_verbs import as_second_person, du_form
from agent.role import as_users
from tests.unit.test_role import stream


@pytest.mark.parametrize("verb, du", [
    ("fahre", "fährst"), ("arbeite", "arbeitest"), ("reise", "reist"), ("machte", "machtest"), ("ging", "gingst"),
    ("bin", "bist"), ("habe", "hast"), ("verlasse", "verlässt"), ("atme", "atmest"), ("Lese", "Liest"),
    ("koche", "kochst"), ("wandere", "wanderst"),
    # no verb: adverbs, determiners and predicate adjectives ending in -e, nouns
    ("gerne", None), ("heute", None), ("meine", None), ("müde", None), ("Oma", None), ("zu", None),
])
def test_the_du_form_of_a_verb_in_the_ich_form(verb, du):
    assert du_form(verb) == du


@pytest.mark.parametrize("sentence, said", [
    ("Am Samstag fahre ich zu meiner Oma.", "Am Samstag fährst du zu meiner Oma."),
    ("Ich arbeite heute lange.", "Du arbeitest heute lange."),
    ("Bin ich müde!", "Bist du müde!"),  # the verb before "ich" first: "müde" is no verb
    ("Dann ging ich nach Hause.", "Dann gingst du nach Hause."),
    # an "ich" beside no verb stays (the caller leaves such a sentence out)
    ("Weil ich müde bin, ist es spät.", "Weil ich müde bin, ist es spät."),
    ("Ich gerne koche.", "Ich gerne koche."),
])
def test_ich_beside_its_verb_said_to_the_user(sentence, said):
    assert as_second_person(sentence) == said


def test_a_german_sentence_of_the_users_said_back_as_theirs():
    assert as_users("Am Samstag fahre ich zu meiner Oma nach Leipzig.", "de", "Jonas") == \
        "Am Samstag fährst du zu deiner Oma nach Leipzig."
    assert as_users("Wir singen unser Konzert im Mai.", "de", "Jonas") == "Ihr singt euer Konzert im Mai."
    assert as_users("Weil ich müde bin, schlafe ich.", "de", "Jonas") is None  # an "ich" would be left


_SAID = ("Hallo Ark, ich bin's, Jonas. Gestern war ich beim Zahnarzt.",
         "Am Samstag fahre ich dann zu meiner Oma nach Leipzig, sie wird 90.")


@pytest.mark.parametrize("piece", [1, 3, 1000])
@pytest.mark.parametrize("reply, shown", [
    # the user's question in their first person answered in it: the verb before "ich" is held with it
    ("Am Samstag fahre ich zu meiner Oma nach Leipzig.", "Am Samstag fährst du zu deiner Oma nach Leipzig."),
    # must not change: the persona's own doing, a reply to the user, a verb with no "ich" after it
    ("Heute lese ich ein Buch über Vögel.", "Heute lese ich ein Buch über Vögel."),
    ("Ich freue mich für dich, Jonas!", "Ich freue mich für dich, Jonas!"),
    ("Leipzig ist eine schöne Stadt.", "Leipzig ist eine schöne Stadt."),
])
def test_a_german_verb_before_ich_is_held_until_its_subject_tells_whose_it_is(reply, shown, piece):
    gate = SentenceGate(("Jonas", "Ark"), "Und wohin fahre ich am Samstag?", "de", user_names=("Jonas",),
                        user_said=_SAID, persona_name="Ark", greet_early=True)
    assert stream(gate, reply, piece) == shown


def test_a_capitalised_word_before_ich_is_a_verb_only_where_it_opens_the_sentence():
    assert as_second_person("Fahre ich morgen?") == "Fährst du morgen?"
    assert as_second_person("Am Wochenende ich weiß nicht.") == "Am Wochenende du weißt nicht."  # "Wochenende" no verb
