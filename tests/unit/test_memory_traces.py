"""Memory traces: arousal moves toward the resonance; the embedded model's resonance is read from its words."""
import pytest

from agent.memory_traces import moved_arousal, read_resonance


@pytest.mark.parametrize("arousal, resonance, moved", [(0.3, 1.0, 0.44), (0.9, 0.0, 0.72), (0.5, 0.5, 0.5),
                                                         (1.4, 2.0, 1.0), (-1.0, 0.4, 0.08)])
def test_arousal_moves_a_fifth_of_the_way_to_the_resonance_and_stays_within_bounds(arousal, resonance, moved):
    assert moved_arousal(arousal, resonance) == pytest.approx(moved)


def test_the_resonance_is_how_much_of_the_reply_comes_from_the_episode():
    episode = "Mina finished the first draft of her novel about a lighthouse keeper after two years on the train."
    assert read_resonance("How is the lighthouse keeper novel going since you finished the draft?", episode) == 0.7
    assert read_resonance("Your novel sounds lovely! Is the lighthouse story done?", episode) == 0.4
    assert read_resonance("Good morning! Did you sleep well?", episode) == 0.0
    assert read_resonance("Nice!", episode) == 0.0
    ja = "ハルカさんが初めてフルマラソンを完走した日。最後の5キロはきつかったそうだ。"
    assert read_resonance("フルマラソンの完走、本当にすごかったね！筋肉痛は大丈夫？", ja) >= 0.4
