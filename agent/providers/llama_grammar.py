"""Greedy JSON decoding that checks the grammar on the chosen token first.

llama-cpp-python's sampler chain applies a JSON grammar to every token of the vocabulary (151,936
for Qwen2.5) before each greedy pick: on this project's 2-core machine a forced JSON answer took
~90–125 ms a token against ~20 ms for the same model's chat (BENCHMARKS.md, session 32), and a
night's sleep-time work is mostly such answers. llama.cpp's own tools sample first and run the
grammar over the whole vocabulary only when the pick breaks it (common/sampling.cpp); this does
the same inside llama-cpp-python's chain. The pick is the same token either way: when the best
token is allowed it is also the best allowed one, and otherwise the whole vocabulary is filtered
as before.
"""
from __future__ import annotations

import ctypes
import math
import weakref

import numpy as np

_TOKEN_DATA = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)])


class CheckFirstGrammar:
    """A sampler for a llama.cpp chain (after the penalties, before greedy): filters the candidates
    by `grammar` only when the best of them breaks it; passes each accepted token to the grammar."""

    def __init__(self, llama_cpp, model, grammar_text: str, root: str):
        self._lib = llama_cpp
        self._grammar = llama_cpp.llama_sampler_init_grammar(model.vocab, grammar_text.encode("utf-8"),
                                                             root.encode("utf-8"))
        if not self._grammar:
            raise ValueError("llama.cpp could not parse the JSON grammar")
        weakref.finalize(self, llama_cpp.llama_sampler_free, self._grammar)
        self.full_passes = 0  # how often the whole vocabulary had to be filtered (tests read it)

        def apply(_sampler, candidates_p):
            self._apply(candidates_p)

        def accept(_sampler, token):
            llama_cpp.llama_sampler_accept(self._grammar, token)

        # The callbacks must outlive the chain: kept on self, which the chain's owner keeps.
        self._callbacks = (llama_cpp.llama_sampler_i_apply(apply), llama_cpp.llama_sampler_i_accept(accept))
        self._iface = llama_cpp.llama_sampler_i()
        self._iface.apply, self._iface.accept = self._callbacks
        self._iface.name = llama_cpp.llama_sampler_i_name(0)
        self._iface.reset = llama_cpp.llama_sampler_i_reset(0)
        self._iface.clone = llama_cpp.llama_sampler_i_clone(0)
        self._iface.free = llama_cpp.llama_sampler_i_free(0)
        self.sampler = llama_cpp.llama_sampler()
        self.sampler.iface = ctypes.pointer(self._iface)
        self.sampler.ctx = None

    def get_sampler(self):
        """What llama-cpp-python's `LlamaSampler` asks of its custom samplers."""
        return ctypes.pointer(self.sampler)

    def _apply(self, candidates_p) -> None:
        lib = self._lib
        candidates = candidates_p.contents
        size = int(candidates.size)
        if size == 0:
            return
        data = (lib.llama_token_data * size).from_address(ctypes.addressof(candidates.data.contents))
        view = np.frombuffer(data, dtype=_TOKEN_DATA, count=size)
        best = int(np.argmax(view["logit"]))
        single = lib.llama_token_data(int(view["id"][best]), float(view["logit"][best]), 0.0)
        one = lib.llama_token_data_array(ctypes.pointer(single), 1, -1, False)
        lib.llama_sampler_apply(self._grammar, ctypes.byref(one))
        if one.data[0].logit != -math.inf:
            return  # greedy takes the best token, which the grammar allows
        self.full_passes += 1
        lib.llama_sampler_apply(self._grammar, candidates_p)


def greedy_json_sampler(llama, grammar, repeat_penalty: float, frequency_penalty: float, presence_penalty: float):
    """The chain llama-cpp-python builds for a greedy grammar-forced answer (penalties, grammar,
    greedy) with the grammar checked on the pick first. `llama`: a loaded `llama_cpp.Llama`;
    `grammar`: its `LlamaGrammar`."""
    import llama_cpp
    from llama_cpp import _internals

    chain = _internals.LlamaSampler()
    chain.add_penalties(n_vocab=llama._n_vocab, penalty_last_n=llama.last_n_tokens_size,
                        penalty_repeat=repeat_penalty, penalty_freq=frequency_penalty,
                        penalty_present=presence_penalty)
    check = CheckFirstGrammar(llama_cpp, llama._model, grammar._grammar, grammar._root)
    llama_cpp.llama_sampler_chain_add(chain.sampler, check.get_sampler())
    # Registered so the chain leaves it out when freed (llama.cpp would free it), and kept alive.
    chain.custom_samplers.append((llama_cpp.llama_sampler_chain_n(chain.sampler) - 1, check))
    chain.add_greedy()
    return chain


def check_first_llama_class():
    """`llama_cpp.Llama` whose greedy grammar-forced answers use `greedy_json_sampler`; every other
    sampling (the chat's, with its logits processor or a temperature) is llama-cpp-python's own."""
    from llama_cpp import Llama

    class CheckFirstLlama(Llama):
        def _init_sampler(self, **options):
            grammar = options.get("grammar")
            if (grammar is None or options.get("temp") != 0.0 or options.get("logits_processor") is not None
                    or options.get("mirostat_mode")):
                return super()._init_sampler(**options)
            return greedy_json_sampler(self, grammar, options.get("repeat_penalty", 1.0),
                                       options.get("frequency_penalty", 0.0), options.get("presence_penalty", 0.0))

    return CheckFirstLlama
