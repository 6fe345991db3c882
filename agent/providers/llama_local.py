"""The embedded model: any GGUF file through llama-cpp-python, streamed token by token.

llama.cpp keeps the tokens of the last prompt; a new prompt that starts with the same tokens
only evaluates the rest. The prompt builder puts static sections first for that reason, and
`warm` evaluates a prefix in the background at start-up.
"""
from __future__ import annotations

import logging
import os
import re
import threading
from pathlib import Path
from typing import Callable, Iterator, Sequence

import constants
from agent.providers.base import CallStopped, ChatMessage, ProviderError, StreamEvent, TextDelta, ToolSpec

log = logging.getLogger(__name__)


# A reply's opening word alone ("Oui, ", 「はい、」, "Wow! ") or a quote mark: after it, a word the reply may not open
# with may not come either ("Oui, le premier client a acheté…" said the user's message back after "Le…" was banned
# as the opening; '"Sì, hai bisogno di restituire tre libri…' to "Domani devo restituire tre libri…").
_LATIN_LETTER = re.compile(r"[a-zà-öø-ÿ]", re.I)  # a word opening with one may be spelled from its first letter
_ONE_WORD_OPENING = re.compile(r"\s*[¡¿\"“「『]*(?:[\w'’]+\s*[,，、!！.。…~～]+\s*)?")


def _reply_rules(min_tokens: int, end_tokens: Sequence[int], banned_first: Sequence[int],
                 spell: Callable[[Sequence[int]], str] | None = None, first_letters: frozenset[str] = frozenset()):
    """A llama.cpp logits processor, or None: the end of the reply cannot be sampled before
    `min_tokens` generated tokens, and the reply cannot open with a token of `banned_first` — nor,
    with `spell` (token ids → text), take one up right after an opening word alone, or after the
    banned word's own first letter alone (`first_letters`: "J", then " Jonas"). (The prompt's
    length is what the first call sees: generation starts there.)"""
    if not min_tokens and not banned_first:
        return None
    from llama_cpp import LogitsProcessorList

    start: list[int] = []
    banned = list(banned_first)

    def processor(input_ids, scores):
        if not start:
            start.append(len(input_ids))
        generated = len(input_ids) - start[0]
        if generated < min_tokens:
            scores[list(end_tokens)] = -float("inf")
        if banned and (generated == 0 or spell is not None and generated <= constants.OPENING_WORD_MAX_TOKENS
                       and _before_an_opening_word(spell(list(input_ids[start[0]:])), first_letters)):
            scores[banned] = -float("inf")
        return scores

    return LogitsProcessorList([processor])


def _before_an_opening_word(so_far: str, first_letters: frozenset[str]) -> bool:
    return bool(_ONE_WORD_OPENING.fullmatch(so_far)) or so_far.strip() in first_letters


def first_letters(openings: Sequence[str]) -> frozenset[str]:
    """The first letters of the openings' Latin words of more than one letter, in both cases: a reply
    that has written one alone is still opening with that word."""
    words = ((text.strip().split(maxsplit=1) or [""])[0] for text in openings)
    return frozenset(letter for word in words if len(word) > 1 and _LATIN_LETTER.match(word)
                     for letter in (word[0], word[0].swapcase()))


def opening_spellings(text: str) -> tuple[str, ...]:
    """How a text's first word may come as a reply's first token: as it is, after a space, and in the
    other case of its first letter (after "Oui," the model goes on with " le", not " Le"); and, for a
    Latin word, the rest of it after its first letter ("onas": the model wrote "J" and went on with
    the word it could not open with)."""
    text = text.strip()
    if not text:
        return ()
    other = text[:1].swapcase() + text[1:]
    forms = (text, other) if other != text else (text,)
    rest = text[1:]
    after_letter = (rest,) if len(rest) > 1 and _LATIN_LETTER.match(rest) else ()
    return tuple(spelled for form in forms for spelled in (form, " " + form)) + after_letter



class LlamaCppChatModel:
    budget_family = "local"
    native_tools = False

    def __init__(
        self,
        model_path: Path,
        n_ctx: int = constants.LOCAL_N_CTX,
        n_threads: int = constants.LOCAL_N_THREADS,
    ):
        self.model_path = Path(model_path)
        self.name = f"local:{self.model_path.name}"
        self._n_ctx = n_ctx
        self._n_threads = n_threads
        self._llama = None
        self._planner = None  # a second, small context for complete_json (see constants.PLANNER_N_CTX)
        self._long = None  # a third, for long JSON answers (sleep-time work), opened on first use
        self._ends: tuple[int, ...] | None = None  # the reply-ending tokens (`_end_tokens`)
        self._load_lock = threading.Lock()
        # One llama context: generations must not interleave.
        self._run_lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._llama is not None

    def load(self):
        with self._load_lock:
            if self._llama is None:
                self._llama = self._open_context(self._n_ctx)
        return self._llama

    def _open_context(self, n_ctx: int):
        if not self.model_path.is_file():
            raise ProviderError(
                f"The local model file was not found at {self.model_path}. "
                "Run the set-up command from README.md, or choose another model in Settings."
            )
        try:
            from agent.providers.llama_grammar import check_first_llama_class
            llama_class = check_first_llama_class()
        except ImportError as exc:  # the set-up builds it; say so if it is missing
            raise ProviderError(
                "llama-cpp-python is not installed; run the set-up command from README.md."
            ) from exc
        log.info("Loading local model %s (context of %d tokens)", self.model_path, n_ctx)
        return llama_class(
            model_path=str(self.model_path),
            n_ctx=n_ctx,
            n_threads=self._n_threads,
            # llama.cpp's own report (prefix-cache hits, prompt tokens evaluated) on request.
            verbose=bool(os.environ.get(constants.LLAMA_VERBOSE_ENV)),
        )

    def count_tokens(self, text: str) -> int:
        llama = self.load()
        return len(llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def _as_dicts(self, messages: Sequence[ChatMessage]) -> list[dict]:
        out = []
        for message in messages:
            role = "user" if message.role == "tool" else message.role
            content = message.content
            if message.role == "tool":
                content = f"[tool result {message.name}]\n{content}"
            out.append({"role": role, "content": content})
        return out

    def stream(
        self,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        temperature: float,
        max_tokens: int,
        seed: int | None = None,
        min_tokens: int = 0,
        avoid_openings: Sequence[str] = (),
        prefix: str = "",
    ) -> Iterator[StreamEvent]:
        llama = self.load()
        # Each opening's first token, in the forms it may come in; not a lone space (" 今日は" is " " + "今日は").
        banned = sorted({token for text in avoid_openings for spelled in opening_spellings(text)
                         for token in llama.tokenize(spelled.encode("utf-8"), add_bos=False, special=False)[:1]
                         if llama.detokenize([token]).strip()})
        sampling = dict(stream=True, temperature=temperature, max_tokens=max_tokens,
                        repeat_penalty=constants.LOCAL_REPEAT_PENALTY, min_p=constants.LOCAL_MIN_P,
                        top_k=constants.LOCAL_TOP_K, seed=seed,
                        logits_processor=_reply_rules(min_tokens, self._end_tokens(llama), banned,
                                                     lambda ids: llama.detokenize(ids).decode("utf-8", "ignore"),
                                                     first_letters(avoid_openings)))
        with self._run_lock:
            try:
                # Going on from the reply so far: the chat's own prompt tokens (so the cached prefix
                # is reused), then the prefix as the reply's start.
                tokens = _chat_tokens(llama, self._as_dicts(messages)) if prefix.strip() else None
                if tokens is not None:
                    tokens += llama.tokenize(prefix.encode("utf-8"), add_bos=False, special=False)
                    for chunk in llama.create_completion(prompt=tokens, **sampling):
                        text = chunk["choices"][0].get("text")
                        if text:
                            yield TextDelta(text)
                    return
                chunks = llama.create_chat_completion(messages=self._as_dicts(messages), **sampling)
                for chunk in chunks:
                    delta = chunk["choices"][0].get("delta", {})
                    text = delta.get("content")
                    if text:
                        yield TextDelta(text)
            except ValueError as exc:  # llama.cpp raises ValueError when the prompt is too long
                raise ProviderError(f"The local model could not take this prompt: {exc}") from exc

    def _end_tokens(self, llama) -> tuple[int, ...]:
        """The tokens that end a reply (end of text, the chat template's end of turn), looked up once."""
        if self._ends is None:
            im_end = llama.tokenize(b"<|im_end|>", add_bos=False, special=True)
            self._ends = tuple({llama.token_eos(), *(im_end if len(im_end) == 1 else ())})
        return self._ends

    def _evaluate_stoppably(self, context, messages: list[dict], should_stop: Callable[[], bool] | None) -> None:
        """Evaluate a long prompt a few dozen tokens at a time, checking `should_stop` between
        pieces: llama.cpp evaluates a prompt in one uninterruptible call (~40 s for a day's log on
        2 cores), and a reply must not wait for that. The completion that follows finds the prompt
        in the cache (llama-cpp-python reuses the longest common prefix); if the tokens computed
        here differ from its own, it only evaluates more itself."""
        if should_stop is None:
            return
        tokens = _chat_tokens(context, messages)
        if tokens is None:
            return
        cached = 0
        for have, want in zip(context._input_ids, tokens):  # the previous call's prompt may share a start
            if have != want:
                break
            cached += 1
        context.n_tokens = min(cached, len(tokens) - 1)
        for start in range(context.n_tokens, len(tokens) - 1, constants.LOCAL_STOPPABLE_EVAL_TOKENS):
            if should_stop():
                raise CallStopped()
            context.eval(tokens[start:min(start + constants.LOCAL_STOPPABLE_EVAL_TOKENS, len(tokens) - 1)])

    def warm(self, messages: Sequence[ChatMessage]) -> None:
        """Evaluate the prompt so its tokens are cached; generates a single token."""
        for _ in self.stream(messages, (), temperature=0.0, max_tokens=1):
            pass

    def complete_json(self, system: str, user: str, schema: dict, max_tokens: int = 0,
                      should_stop: Callable[[], bool] | None = None) -> str:
        """A JSON answer forced by a grammar built from `schema`: a short one in the planner's own
        small context, a long one (sleep-time work) in a context of its own, so neither evicts
        the chat's cached prefix. A long one is streamed and stops at the next token once
        `should_stop()` says so (a reply waits for one token, not for the whole answer)."""
        long = max_tokens > constants.PLANNER_MAX_TOKENS
        with self._load_lock:
            if long and self._long is None:
                self._long = self._open_context(self._n_ctx)
            if not long and self._planner is None:
                self._planner = self._open_context(constants.PLANNER_N_CTX)
        context = self._long if long else self._planner
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        with self._run_lock:  # more contexts, but the same two cores: one evaluation at a time
            try:
                if not long:
                    answer = context.create_chat_completion(
                        messages=messages, temperature=0.0, max_tokens=constants.PLANNER_MAX_TOKENS,
                        response_format={"type": "json_object", "schema": schema})
                    return answer["choices"][0]["message"].get("content") or ""
                self._evaluate_stoppably(context, messages, should_stop)
                pieces = []
                # A long answer in greedy decoding looped ("…the LGBTQ community. … the LGBTQ
                # community.") until it ran out of tokens: the chat's repeat penalty holds it.
                chunks = context.create_chat_completion(
                    messages=messages, temperature=0.0, max_tokens=max_tokens, stream=True,
                    repeat_penalty=constants.LOCAL_REPEAT_PENALTY,
                    response_format={"type": "json_object", "schema": schema})
                try:
                    for chunk in chunks:
                        if should_stop is not None and should_stop():
                            raise CallStopped()
                        pieces.append(chunk["choices"][0].get("delta", {}).get("content") or "")
                        # A JSON grammar allows any whitespace between values: a model done with
                        # its answer sometimes wrote blank lines until it ran out of tokens.
                        if len(pieces) > constants.LOCAL_JSON_BLANK_RUN and not "".join(
                                pieces[-constants.LOCAL_JSON_BLANK_RUN:]).strip():
                            break
                finally:
                    # Closed here, under the lock: a generator left to the garbage collector
                    # finished its clean-up inside the next call (the next night's answer came
                    # without its grammar).
                    chunks.close()
                return "".join(pieces)
            except ValueError as exc:
                raise ProviderError(f"The local model could not take this prompt: {exc}") from exc


def _chat_tokens(context, messages: list[dict]) -> list[int] | None:
    """The prompt tokens llama-cpp-python's default chat handler makes of `messages` (the GGUF's
    own chat template), or None when the model has no template or it cannot be rendered."""
    template = context.metadata.get("tokenizer.chat_template")
    if not template:
        return None
    from jinja2 import TemplateError
    from llama_cpp.llama_chat_format import Jinja2ChatFormatter

    eos_id, bos_id = context.token_eos(), context.token_bos()
    eos = context._model.token_get_text(eos_id) if eos_id != -1 else ""
    bos = context._model.token_get_text(bos_id) if bos_id != -1 else ""
    try:
        result = Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos, stop_token_ids=[eos_id])(
            messages=messages)
    except TemplateError:
        return None
    return context.tokenize(result.prompt.encode("utf-8"), add_bos=not result.added_special, special=True)
