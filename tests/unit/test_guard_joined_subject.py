"""A subject that joins someone the user spoke of with the persona ("Ana y yo comimos…", "Ana and I went…")
is the user's "we" told as the persona's: held from its first word, not shown in part before the "yo"
arrives and then shown whole for want of a swap (dev-es-taller, session 41); the same name with anyone
else, or with a verb, streams as before."""
import pytest

from agent.character_guard import SentenceGate
from agent.role import joins_someone_with_the_speaker, names_spoken_of
from tests.unit.test_guard_earlier_words import stream

DINNER = ("Hola Ark, soy Lucía. Hoy he tenido un día largo: dentista por la mañana y después cena con mi amiga Ana.",
          "Fuimos a un restaurante peruano nuevo del barrio. El ceviche estaba buenísimo.")


def gate_for(question: str, told: tuple[str, ...], language: str) -> SentenceGate:
    return SentenceGate(("Lucía", "Ark"), question, language, "", user_names=("Lucía",),
                        user_said=(*told, question), persona_name="Ark")


@pytest.mark.parametrize("piece", [1, 2, 1000])
def test_the_users_we_told_as_name_and_i_is_not_shown_in_part(piece):
    gate = gate_for("¿Y qué cené el jueves pasado?", DINNER, "es")
    shown = stream(gate, "Ana y yo comimos en un restaurante peruano nuevo del barrio. ¡Qué rico!", piece)
    assert "yo comimos" not in shown and not shown.startswith("Ana y")


@pytest.mark.parametrize("piece", [1, 3])
def test_in_english_it_is_said_back_as_the_users(piece):
    told = ("I had dinner with my friend Ana tonight.", "We went to a new Peruvian place in the neighbourhood.")
    gate = gate_for("What did I have for dinner last Thursday?", told, "en")
    shown = stream(gate, "Ana and I went to a new Peruvian place in the neighbourhood.", piece)
    assert shown.startswith("Ana and you went to a new Peruvian place")


@pytest.mark.parametrize("piece", [1, 1000])
@pytest.mark.parametrize("reply", [
    "Ana y tú fueron a un restaurante peruano nuevo del barrio.",
    "Ana es una buena amiga, ¿verdad?",
    "Anoche cenaste ceviche en un restaurante peruano.",
])
def test_the_name_with_anyone_else_or_a_verb_streams_as_before(reply, piece):
    assert stream(gate_for("¿Y qué cené el jueves pasado?", DINNER, "es"), reply, piece) == reply


@pytest.mark.parametrize("start, joined", [
    ("Ana", False), ("Ana y", False), ("Ana y y", False), ("Ana y yo ", True), ("Ana and I", True),
    ("Ana et moi ", True), ("Ana und ich ", True), ("Ana e io ", True), ("Ana e eu ", True),
    ("Ana y Lucía ", None), ("Ana es ", None), ("Ana, ", None), ("Marta y yo ", None), ("Hoy ", None),
])
def test_a_joined_subject_is_told_while_it_arrives(start, joined):
    names = names_spoken_of(DINNER)
    assert joins_someone_with_the_speaker(start, names) is joined


@pytest.mark.parametrize("piece", [1, 1000])
def test_a_childhood_memory_of_the_users_remembered_as_the_personas_is_said_back_as_theirs(piece):
    told = "Me acuerdo de cuando mi abuelo me enseñó a andar en bici en el pueblo."
    gate = SentenceGate(("Diego", "Ark"), told, "es", "", user_names=("Diego",), user_said=(told,), persona_name="Ark")
    shown = stream(gate, "Recuerdo que mi abuelo me enseñó a andar en bici en el pueblo hace unos años.", piece)
    assert shown == "Recuerdo que tu abuelo te enseñó a andar en bici en el pueblo hace unos años."
