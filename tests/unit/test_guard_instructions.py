"""A retry's instruction said back from its middle never streams; a reply that shares a name with it does."""
import pytest

from agent.character_guard import SentenceGate
from agent.reply_rules import RETRY_AFTER_NOT_KNOWING, retry_nudge
from tests.conftest import stream

ASKED = "Ti ricordi dove sono stata con mia cugina lo scorso fine settimana?"
TOLD = ("Ciao Ark! Sono Giulia. Sono appena tornata da un weekend a Napoli con mia cugina.",)


def gate_for(nudge: str) -> SentenceGate:
    return SentenceGate(("Giulia", "Ark"), ASKED, "it", context=f"# Now\n{nudge}", user_names=("Giulia",),
                        persona_name="Ark", instructions=(nudge,), user_said=TOLD)


@pytest.mark.parametrize("piece", [1, 3, 1000])
def test_the_second_half_of_the_retry_line_said_back_is_not_shown(piece):
    # dev-it-napoli, session 27: "Giulia te l'ha già detto; rispondi con quello che ti ha detto." was shown as the reply
    nudge = retry_nudge("it", "Ark", "Giulia", RETRY_AFTER_NOT_KNOWING)
    gate = gate_for(nudge)
    assert stream(gate, "Giulia te l'ha già detto; rispondi con quello che ti ha detto.", piece) == ""
    assert gate.blocked


@pytest.mark.parametrize("reply", ["Giulia, sei stata a Napoli con tua cugina!", "Sei stata a Napoli con tua cugina.",
                                   "Ti ha detto tutto tua cugina? A Napoli, no?"])
@pytest.mark.parametrize("piece", [1, 3, 1000])
def test_an_answer_that_shares_words_with_the_retry_line_is_shown(reply, piece):
    gate = gate_for(retry_nudge("it", "Ark", "Giulia", RETRY_AFTER_NOT_KNOWING))
    assert stream(gate, reply, piece) == reply and not gate.blocked
