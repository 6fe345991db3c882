"""Grammar-forced JSON on the real embedded model: checking the grammar on the greedy pick first
(agent/providers/llama_grammar.py) must give llama-cpp-python's own answer, token for token."""
import json

import pytest

from agent.providers.llama_grammar import check_first_llama_class
from tests.conftest import embedded_model_path

pytestmark = pytest.mark.integration

SCHEMA = {"type": "object", "properties": {"diary": {"type": "string"}, "people": {"type": "array", "items": {"type": "string"}}},
          "required": ["diary", "people"]}
# Asked in words for Markdown: the model's own first pick ("```") breaks the grammar, so the
# fallback over the whole vocabulary runs as well as the quick check.
MESSAGES = [
    {"role": "system", "content": "Answer in a Markdown code block. Write a short diary entry about the talk and who was in it."},
    {"role": "user", "content": "Maria: I went to the beach with my sister Ana yesterday and we found a crab.\n"
                                "Ark: That sounds lovely! Did you swim?\nMaria: Yes. Tomorrow I start at the bakery."},
]


def answer(llama) -> str:
    out = llama.create_chat_completion(messages=MESSAGES, temperature=0.0, max_tokens=120, repeat_penalty=1.1,
                                       response_format={"type": "json_object", "schema": SCHEMA})
    return out["choices"][0]["message"]["content"]


def test_checking_the_pick_first_gives_the_same_json_as_filtering_every_token():
    from llama_cpp import Llama

    path = str(embedded_model_path())
    plain = Llama(model_path=path, n_ctx=1024, n_threads=2, verbose=False)
    expected = answer(plain)
    del plain
    quick = check_first_llama_class()(model_path=path, n_ctx=1024, n_threads=2, verbose=False)
    got = answer(quick)
    check = quick._sampler.custom_samplers[0][1]

    assert got == expected
    parsed = json.loads(got)
    assert parsed["diary"].strip() and isinstance(parsed["people"], list)
    assert check.full_passes >= 1, "the first pick breaks the grammar here: the fallback must have run"
    tokens = len(quick.tokenize(got.encode("utf-8"), add_bos=False))
    assert check.full_passes < tokens / 2, "most picks should pass the quick check"
