"""`bench locomo` on a conversation in LoCoMo's format: alone, and after synthetic distractors."""
import hashlib
import json

import numpy as np
import pytest

import constants
from bench.locomo_bench import ablation_weights, run


class HashEmbedder:
    name = "hash-test-embedder"
    dim = 8
    dense_weight_scale = 1.0

    def _vec(self, text):
        v = np.frombuffer(hashlib.sha256(text.encode()).digest()[:64], dtype=np.uint32).astype(np.float32)
        return v / np.linalg.norm(v)

    def embed_documents(self, texts):
        return np.stack([self._vec(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def embed_query(self, text):
        return self._vec(text)


def conversation(tmp_path, date="1:56 pm on 8 May, 2023"):
    turns = [("Ann", "I painted a lighthouse at dawn last weekend"), ("Bo", "That sounds peaceful"),
             ("Ann", "My brother adopted a parrot named Kiwi"), ("Bo", "Does Kiwi talk yet?")]
    data = {"conversation": {"speaker_a": "Ann", "speaker_b": "Bo", "session_1_date_time": date,
                             "session_1": [{"speaker": s, "dia_id": f"D1:{n + 1}", "text": t}
                                           for n, (s, t) in enumerate(turns)]},
            "qa": [{"question": "What did Ann paint?", "answer": "a lighthouse", "evidence": ["D1:1"], "category": 4},
                   {"question": "What is the parrot called?", "answer": "Kiwi", "evidence": ["D1:3"], "category": 1}]}
    path = tmp_path / "conv.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_questions_find_their_turns_alone_and_after_distractors(tmp_path):
    alone = run([conversation(tmp_path)], HashEmbedder())
    assert alone["questions"] == 2 and alone["overall"]["R@5"] == 100.0
    crowded = run([conversation(tmp_path)], HashEmbedder(), distractors=400)
    assert crowded["questions"] == 2 and crowded["overall"]["R@25"] == 100.0


def test_a_conversation_older_than_the_distractors_is_refused(tmp_path):
    with pytest.raises(ValueError, match="starts before"):
        run([conversation(tmp_path, "10:00 am on 3 March, 2021")], HashEmbedder(), distractors=50)


def test_distractors_are_indexed_and_end_before_any_conversation(tmp_path):
    from bench.locomo_bench import DISTRACTORS_END, indexed_distractors
    from managers.chat_log import ChatLog

    root = indexed_distractors(tmp_path, 300, HashEmbedder(), partition_from=100)
    entries = ChatLog(root / "logs", lambda: DISTRACTORS_END).entries()
    assert len(entries) == 300 and max(e.ts for e in entries) < DISTRACTORS_END
    from managers.rag import MemoryIndexer
    indexer = MemoryIndexer(root, HashEmbedder(), partition_from=100)
    assert len(indexer.vectors) == 300 and indexer.vectors.partitioned
    indexer.db.close()


def test_ablation_weights_zero_every_signal_not_named_and_refuse_unknown_ones():
    assert ablation_weights('{"turn": 1}') == {signal: (1.0 if signal == "turn" else 0.0)
                                               for signal in constants.RECALL_WEIGHTS}
    with pytest.raises(SystemExit, match="unknown signals"):
        ablation_weights('{"turm": 1}')
