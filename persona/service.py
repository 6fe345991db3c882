"""The service facade: everything the UI and the CLI may ask of Nexus Ark.

UI handlers call these methods and lay out what comes back; no business logic lives in `ui/`.
Dependencies (data paths, clock, a model factory) are passed in, so tests build a service
around a temp directory and a scripted model.
"""
from __future__ import annotations

import gc
import logging
import random
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

import constants
from agent.graph import TurnControl, TurnDeps, build_turn_graph, turn_config
from agent.providers.base import ChatModel, ProviderError
from agent.providers.discovery import LocalServer, LocalServerScan, discover_local_servers, require_loopback
from agent.providers.factory import create_chat_model, max_reply_tokens
from agent.retrieval import RetrievalResult, Searcher, retrieve
from managers.chat_log import LogEntry
from managers.config import AppSettings, ConfigStore, DataPaths, Secrets, mask_secret
from managers.embeddings import EmbedderUnavailable
from managers.memory_db import StoreClosed
from managers.personas import PersonaError, PersonaManager
from managers.store import QuarantineReport
from agent.sleep_schedule import QuietHours, due, parse_quiet_hours
from managers.entities import OFFERED, PENDING, REJECTED, EntityError, EntityPage, EntityProposal
from managers.diaries import DiaryStore
from managers.episodes import Episode, EpisodeStore
from managers.sleep_state import SleepReport, SleepState, SleepStateStore
from persona.after_turn import AfterTurnDeps, after_turn
from persona.inner_life import InnerLifeMethods
from persona.scheduler import SleepScheduler
from persona.sleep import SleepBusy, SleepInputs, run_night
from persona.dream_job import DreamStores
from managers.dream_diary import PendingDream
from persona.episode_view import EpisodeMonths, episode_months
from persona.dashboard import InnerLifeView, inner_life_view, last_run_text, next_run_text
from persona.session import CharacterSession, RecoveredReply
from persona.speak_first_job import FirstNotice, speak_first, unseen_first_message
from persona.tool_host import PersonaTools

log = logging.getLogger(__name__)

BUNDLED_CHARACTERS = Path(__file__).resolve().parent.parent / "characters"
ModelFactory = Callable[[AppSettings, Secrets, Path], ChatModel]
ServerFinder = Callable[[], tuple[LocalServer, ...]]


def freeze_startup_heap() -> None:
    """Once the app is up: everything loaded so far lives as long as the process, so keep it out
    of the cyclic garbage collector's full passes. With langgraph/langchain loaded (~126k objects,
    more with gradio) each full pass took ~40 ms and landed inside some turn (BENCHMARKS.md §2)."""
    gc.collect()
    gc.freeze()


# Settings whose change needs another model (a provider, its model or key): the others (the user's
# name, the planner) take effect with the next turn's prompt.
MODEL_SETTINGS = ("provider", "local_model_path", "gemini_model", "openai_base_url", "openai_model",
                  "openai_native_tools")


def names_default(user_name: str) -> bool:
    """Settings has no name of the user's own (empty, or the placeholder "User")."""
    return user_name.strip() in ("", constants.DEFAULT_USER_NAME)


def system_clock() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class ModelStatus:
    state: str = "not loaded"  # not loaded / loading / warming / ready / error
    detail: str = ""
    ready_event: threading.Event = field(default_factory=threading.Event)

    def text(self) -> str:
        return f"{self.state}: {self.detail}" if self.detail else self.state


@dataclass(frozen=True)
class TurnEvent:
    kind: str  # status / token / tool / retrieval / guard / done / error
    text: str = ""
    entry: LogEntry | None = None
    retrieval: RetrievalResult | None = None
    counts: Mapping[str, int] | None = None  # "guard": replies asked for again, sentences put right


class NexusService(InnerLifeMethods):  # goals, open questions, the dream diary: persona/inner_life.py
    def __init__(
        self,
        data_dir: Path,
        clock: Callable[[], datetime] = system_clock,
        model_factory: ModelFactory = create_chat_model,
        bundled_characters: Path = BUNDLED_CHARACTERS,
        searcher: Searcher | None = None,
        prompt_budgets: Mapping[str, int] | None = None,
        after_turn_work: bool = True,
        find_local_servers: ServerFinder = discover_local_servers,
    ):
        """Benchmark hooks (the defaults are the app): `prompt_budgets` replaces some of the
        model family's per-section token budgets (constants.PROMPT_BUDGETS) in each turn's
        prompt, e.g. the QA bench's oracle condition lifts "dynamic" so the evidence it recalls is
        not cut; `after_turn_work=False` skips the work after a reply (indexing the exchange,
        pre-evaluating the next prefix, reading the emotion), for benches that discard every
        exchange. `find_local_servers` looks for OpenAI-compatible servers on this computer
        (agent/providers/discovery.py; tests pass a fake)."""
        self.paths = DataPaths(Path(data_dir))
        self.paths.root.mkdir(parents=True, exist_ok=True)
        self.clock = clock
        self.config = ConfigStore(self.paths)
        self.personas = PersonaManager(self.paths.characters, self.paths.trash, bundled_characters, clock)
        self._model_factory = model_factory
        self._searcher = searcher
        self._prompt_budgets = dict(prompt_budgets) if prompt_budgets else None
        self._after_turn_work = after_turn_work
        self._embedder = None
        self._knowledge: dict[str, object] = {}
        self._indexers: dict[str, object] = {}
        self.index_status: dict[str, str] = {}
        self._background: dict[str, threading.Thread] = {}  # per persona: its latest background job
        self._turns_started = 0  # lets after-turn work see that a newer turn has begun
        self._replying = 0  # turns generating right now
        self._model: ChatModel | None = None
        self._model_lock = threading.Lock()
        self._warm_lock = threading.Lock()  # held while the prefix is pre-evaluated
        self._open_lock = threading.RLock()  # one indexer / knowledge base per persona
        self.model_status = ModelStatus()
        self._sessions: dict[str, CharacterSession] = {}
        self._left_out_told: dict[str, int] = {}  # per persona: core-memory lines left out, as last told
        self._controls: dict[str, TurnControl] = {}
        self._turn_graph = build_turn_graph().compile()
        self.local_servers = LocalServerScan(find_local_servers)
        self.notices: list[str] = []
        self.settings = self.config.load_settings()
        self.personas.ensure_sample()
        self.notices.extend(r.message() for r in self.config.files.quarantined)

    # --- personas -------------------------------------------------------------------
    def persona_names(self) -> list[str]:
        return self.personas.list()

    def current_persona(self) -> str:
        names = self.persona_names()
        last = self.settings.last_character
        return last if last in names else (names[0] if names else "")

    def session(self, name: str) -> CharacterSession:
        character = self.personas.get(name)
        session = self._sessions.get(character.name)
        if session is None:
            session = CharacterSession(character, self.clock)
            recovered = session.recover_interrupted_reply()
            if recovered:
                self.notices.append(self._recovered_notice(character.name, recovered))
            # A "please remember" whose turn was cut off lands now (managers/keep_ledger.py).
            name = self.settings.user_name if not names_default(self.settings.user_name) else \
                (session.introduced_name() or self.settings.user_name)  # the name the turn would have used
            for line in session.complete_keep_requests(name):
                self.notices.append(f"🛠️ {character.name} kept what you asked before the app stopped: {line[2:]}")
            self._sessions[character.name] = session
        return session

    def _recovered_notice(self, name: str, recovered: RecoveredReply) -> str:
        return (f"{name}'s last reply was cut off (the app stopped while it was being written); "
                f"the {recovered.chars} characters written so far were recovered and are marked as recovered.")

    def select_persona(self, name: str) -> CharacterSession:
        session = self.session(name)
        if self._searcher is None and session.character.name not in self._indexers:
            self.index_in_background(session.character.name)  # catch up on what is not indexed yet
        if self.settings.last_character != session.character.name:
            self.settings = self.settings.model_copy(update={"last_character": session.character.name})
            self.config.save_settings(self.settings)
        return session

    def create_persona(self, name: str, template: str = "_template") -> str:
        return self.personas.create(name, template).name

    def rename_persona(self, old: str, new: str) -> str:
        self._forget_session(old)
        return self.personas.rename(old, new).name

    def delete_persona(self, name: str) -> Path:
        self._forget_session(name)
        return self.personas.delete(name)

    def close_persona(self, name: str) -> None:
        """Close the persona's open session and indexes, so its folder may be replaced on disk;
        the next use opens them again (the QA bench restores the replayed state this way)."""
        self._forget_session(name)

    def _forget_session(self, name: str) -> None:
        session = self._sessions.get(name)
        if session is not None and session.turn_lock.locked():
            raise PersonaError(f"{name} is replying right now; wait for the reply or stop it first.")
        stores = [s for s in (self._indexers.get(name), self._knowledge.get(name)) if s is not None]
        with ExitStack() as held:
            # The knowledge base shares the indexer's connection: closing it under a running upload
            # or indexing run would fail that run half-way.
            for store in stores:
                if not store.work_lock.acquire(blocking=False):
                    raise PersonaError(f"{name}'s memory or knowledge base is being indexed right now; "
                                       "try again when the progress shows it is done.")
                held.callback(store.work_lock.release)
            self._sessions.pop(name, None)
            self._knowledge.pop(name, None)
            indexer = self._indexers.pop(name, None)
            if indexer is not None:
                indexer.db.close()

    # --- memory files ---------------------------------------------------------------
    def read_memory(self, persona: str, which: str) -> str:
        return self.session(persona).read(which)

    def save_memory(self, persona: str, which: str, text: str) -> None:
        self.session(persona).write(which, text)

    def _tell_what_no_longer_fits(self, session: CharacterSession) -> None:
        """Core memory keeps its newest lines in the prompt (agent/prompt_builder.fit_newest_lines);
        the user is told when older ones no longer fit, once per change."""
        name, left_out = session.character.name, session.core_memory_left_out
        if left_out and left_out != self._left_out_told.get(name, 0):
            self.notices.append(
                f"{name}'s core memory has outgrown the prompt: its {left_out} oldest line(s) no longer fit, so "
                f"{name} does not see them in every reply. They stay in core memory (Memory tab: shorten or merge "
                "them to bring them back), and the messages they came from can still be recalled.")
        self._left_out_told[name] = left_out

    def pop_notices(self) -> list[str]:
        notices = self.notices + [r.message() for s in self._sessions.values() for r in s.files.quarantined]
        self.notices = []
        for s in self._sessions.values():
            s.files.quarantined.clear()
        return notices

    # --- settings and model -----------------------------------------------------------
    def update_settings(self, **changes) -> AppSettings:
        before = self.settings
        self.settings = AppSettings.model_validate({**self.settings.model_dump(), **changes})
        self.config.save_settings(self.settings)
        if any(getattr(before, k) != getattr(self.settings, k) for k in MODEL_SETTINGS):
            with self._model_lock:
                self._model = None
                self.model_status = ModelStatus()
        return self.settings

    # --- the user's name ---------------------------------------------------------------
    def user_name_for(self, persona: str, message: str = "") -> str:
        """The name the persona calls the user by: Settings', or, while Settings has none, the
        name the user introduced themself by in the conversation ("I'm Ken")."""
        if not names_default(self.settings.user_name):
            return self.settings.user_name
        introduced = self.session(persona).introduced_name(message)
        return introduced if introduced and introduced not in self.settings.declined_user_names else self.settings.user_name

    def name_offer(self, persona: str) -> str:
        """A name the user introduced themself by that Settings does not have yet (and the user did
        not decline): the page offers to save it. "" when there is none."""
        if not persona or not names_default(self.settings.user_name):
            return ""
        name = self.session(persona).introduced_name()
        return "" if not name or name in self.settings.declined_user_names else name

    def answer_name_offer(self, name: str, save: bool) -> None:
        if save:
            self.update_settings(user_name=name)
        else:
            self.update_settings(declined_user_names=[*self.settings.declined_user_names, name])

    # --- local servers (Ollama, LM Studio, llama.cpp's server) ---------------------------
    def discover_local_servers(self) -> tuple[LocalServer, ...]:
        """Look for OpenAI-compatible servers on 127.0.0.1 now; the result is also kept in
        `local_servers` for the page."""
        return self.local_servers.run()

    def start_local_server_discovery(self) -> threading.Thread:
        """The look-up at start, off the UI thread: a few loopback requests, never before a reply."""
        return self.local_servers.start()

    def use_local_server(self, base_url: str, model: str) -> AppSettings:
        """Switch the provider to a server on this computer (no API key needed there).
        NotLoopback (a ValueError) for any other host, and nothing changes."""
        if not model.strip():
            raise ValueError("Choose a model of that server.")
        return self.update_settings(provider="openai", openai_base_url=require_loopback(base_url),
                                    openai_model=model.strip(), provider_chosen=True)

    def use_embedded_model(self) -> AppSettings:
        return self.update_settings(provider="local", provider_chosen=True)

    def shows_first_run_note(self) -> bool:
        """The first-run note (the embedded model is small; a local server helps): shown until the
        provider is chosen, and only while the embedded model is the one in use."""
        return self.settings.provider == "local" and not self.settings.provider_chosen

    def dismiss_first_run_note(self) -> None:
        """Keep the embedded model and stop showing the note (the loaded model stays loaded)."""
        self.settings = self.settings.model_copy(update={"provider_chosen": True})
        self.config.save_settings(self.settings)

    def set_api_key(self, which: str, value: str) -> str:
        if which not in ("gemini_api_key", "openai_api_key"):
            raise ValueError(f"unknown key {which!r}")
        secrets = self.config.load_secrets().model_copy(update={which: value.strip()})
        self.config.save_secrets(secrets)
        with self._model_lock:
            self._model = None
        return mask_secret(secrets.model_dump()[which])

    def masked_keys(self) -> dict[str, str]:
        return {k: mask_secret(v) for k, v in self.config.load_secrets().model_dump().items()}

    def model(self) -> ChatModel:
        with self._model_lock:
            if self._model is None:
                self._model = self._model_factory(self.settings, self.config.load_secrets(), self.paths.embedded_model)
            return self._model

    def start_background_warmup(self) -> threading.Thread:
        """Load the model and pre-evaluate the current persona's prompt prefix, off the UI thread."""
        thread = threading.Thread(target=self.warm_up, name="model-warmup", daemon=True)
        thread.start()
        return thread

    def warm_up(self) -> None:
        with self._warm_lock:
            self._warm_up()
        persona = self.current_persona()
        if persona and self._searcher is None and self.model_status.state == "ready":
            self._index_quietly(persona)  # after the warm-up (not inside its lock), never competing with it
            self._complete_knowledge_quietly(persona)

    def _warm_up(self) -> None:
        status = self.model_status
        try:
            status.state, status.detail = "loading", "loading the model…"
            model = self.model()
            model.load()
            persona = self.current_persona()
            if persona:
                status.state, status.detail = "warming", f"reading {persona}'s memory…"
                session = self.session(persona)
                # No turn lock here: a message sent meanwhile waits on the model's own lock
                # and then finds this prefix already evaluated.
                session.warm(model, self.settings.user_name)
            status.state, status.detail = "ready", f"{persona} is ready"
        except ProviderError as exc:
            status.state, status.detail = "error", exc.user_message
        finally:
            status.ready_event.set()

    # --- memory indexes ---------------------------------------------------------------
    def embedder(self):
        """The embedder every index of this app uses (one instance: models are big)."""
        with self._model_lock:
            if self._embedder is None:
                from managers.embeddings import create_embedder

                self._embedder = create_embedder(self.settings.embedder)
            return self._embedder

    def memory_index(self, persona: str):
        """The persona's memory indexer (memory.db + FAISS), opened on first use."""
        from managers.rag import MemoryIndexer

        character = self.personas.get(persona)
        with self._open_lock:
            if character.name not in self._indexers:
                self._indexers[character.name] = MemoryIndexer(character.root, self.embedder(), clock=self.clock)
            return self._indexers[character.name]

    def update_memory_index(self, persona: str, rebuild: bool = False, progress=None):
        """Index what is new in the persona's logs (or rebuild from scratch), reporting progress."""
        indexer = self.memory_index(persona)
        report_to = progress

        def progress(message: str, fraction: float) -> None:
            self.index_status[persona] = f"{message} ({fraction:.0%})"
            if report_to is not None:
                report_to(message, fraction)

        report = (indexer.rebuild(progress, self._wait_while_replying) if rebuild
                  else indexer.update(progress, self._wait_while_replying))
        self.index_status[persona] = " ".join((f"Memory index up to date ({len(indexer.vectors)} items).",
                                                *report.unreadable))
        return report

    def index_in_background(self, persona: str) -> threading.Thread:
        return self._start_background(persona, self._index_quietly, (persona,), "memory-index")

    def _start_background(self, persona: str, target, args: tuple, name: str) -> threading.Thread:
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        self._background[persona] = thread
        thread.start()
        return thread

    def _wait_while_replying(self) -> None:
        """Background work yields the CPU to a reply being generated (2 cores are shared)."""
        while self._replying:
            time.sleep(constants.BACKGROUND_YIELD_POLL_S)

    def close(self) -> None:
        """Shut-down: write what the memory indexes hold in memory only."""
        with self._open_lock:
            indexers = list(self._indexers.values())
        for indexer in indexers:
            indexer.flush()

    def wait_for_background_work(self, persona: str, timeout: float | None = None) -> None:
        """Wait for the persona's background indexing (and the after-turn prefix warm-up)."""
        thread = self._background.get(persona)
        if thread is not None:
            thread.join(timeout)

    def _index_quietly(self, persona: str) -> None:
        try:
            self.update_memory_index(persona)
        except (OSError, PersonaError, EmbedderUnavailable, StoreClosed) as exc:
            log.warning("Indexing %s failed: %s", persona, exc)
            self.index_status[persona] = f"Indexing failed: {exc}"

    def _complete_knowledge_quietly(self, persona: str) -> None:
        """Bring the knowledge base up to date at start-up: after an embedder switch its vector
        index starts empty, and only a re-index embeds the chunks again (unchanged files are
        skipped by their hash)."""
        try:
            report = self.knowledge(persona).reindex()
        except (OSError, PersonaError, EmbedderUnavailable, StoreClosed) as exc:
            log.warning("Re-indexing %s's knowledge base failed: %s", persona, exc)
            return
        if report.embedded:
            log.info("Knowledge base of %s: %d chunks embedded at start-up", persona, report.embedded)

    def _searcher_for(self, session: CharacterSession, model: ChatModel) -> Searcher:
        if self._searcher is not None:
            return self._searcher
        from persona.knowledge_recall import KnowledgeRecall, recall_room

        # Memories, and the persona's documents when it has any (issue 12, item 5).
        memories = self._recall_for(session, model.complete_json if self.uses_llm_planner(model) else None)
        return KnowledgeRecall(memories, lambda: self.knowledge(session.character.name), model.count_tokens,
                               recall_room(model.budget_family),
                               constants.KNOWLEDGE_RECALL_MAX_CHUNKS[model.budget_family])

    def uses_llm_planner(self, model: ChatModel) -> bool:
        """Whether retrieval is planned by one LLM call (else by rules); see AppSettings.query_planner."""
        choice = self.settings.query_planner
        return choice == "llm" or (choice == "auto" and model.budget_family == "remote")

    def _recall_for(self, session: CharacterSession, complete_json=None):
        from persona.recall import MemoryRecall

        return MemoryRecall(self.memory_index(session.character.name), random.Random(), complete_json,
                            exclude_ids=session.context_message_ids)

    def knowledge(self, persona: str):
        """The persona's knowledge base (uploaded documents), opened on first use."""
        from managers.knowledge import KnowledgeBase

        character = self.personas.get(persona)
        db = self.memory_index(character.name).db  # one connection to memory.db per persona
        with self._open_lock:
            if character.name not in self._knowledge:
                self._knowledge[character.name] = KnowledgeBase(character.root, self.embedder(), db=db)
            return self._knowledge[character.name]

    # --- chat -----------------------------------------------------------------------
    def conversation(self, persona: str) -> list[LogEntry]:
        return self.session(persona).chat_log.view()

    def stop(self, persona: str) -> None:
        control = self._controls.get(persona)
        if control is not None:
            control.stop.set()

    def send(self, persona: str, text: str) -> Iterator[TurnEvent]:
        yield from self._run_turn(persona, {"user_text": text})

    def regenerate(self, persona: str) -> Iterator[TurnEvent]:
        view = self.conversation(persona)
        last_user = next((e for e in reversed(view) if e.role == "USER"), None)
        if last_user is None:
            yield TurnEvent("error", "There is no message to answer yet.")
            return
        replaces = view[-1].id if view[-1].role == "AGENT" else ""
        state = {"user_text": last_user.text, "user_entry_id": last_user.id, "replaces_id": replaces}
        yield from self._run_turn(persona, state)

    def find_message(self, persona: str, entry_id: str) -> LogEntry | None:
        return self.session(persona).chat_log.find(entry_id)

    def edit_message(self, persona: str, entry_id: str, new_text: str) -> LogEntry:
        return self.session(persona).chat_log.record_edit(entry_id, new_text)

    def delete_message(self, persona: str, entry_id: str) -> LogEntry:
        return self.session(persona).chat_log.record_delete(entry_id)

    def _deps(self, session: CharacterSession, model: ChatModel, user_text: str) -> TurnDeps:
        user_name = self.user_name_for(session.character.name, user_text)
        introduced = session.introduced_name(user_text)
        return TurnDeps(
            model=model, chat_log=session.chat_log, journal=session.journal,
            memory_editor=PersonaTools(session, lambda: self._recall_for(session),
                                       lambda: self.knowledge(session.character.name), self.clock,
                                       model=lambda: model),
            clock=self.clock,
            retrieve=lambda text, now: retrieve(text, now, self._searcher_for(session, model),
                                                self.settings.auto_retrieval),
            compose_prompt=lambda entry, retrieval, tools, saved: session.compose_prompt(
                model, entry, retrieval, tools, user_name, saved, self._prompt_budgets),
            user_name=user_name, persona_name=session.character.name,
            introduced_names=(introduced,) if introduced else (),
            temperature=self.settings.temperature, max_tokens=max_reply_tokens(model), seed=self.settings.seed,
            remember_as_sent=session.remember_as_sent, on_emotion=session.record_emotion,
            on_traces=lambda traces: session.apply_traces(traces, "tag"),
            plan_keep=lambda entry: session.plan_keep(entry, user_name),
            keep_done=session.keep_ledger.record,
        )

    def _run_turn(self, persona: str, state: dict) -> Iterator[TurnEvent]:
        session = self.session(persona)
        if not session.turn_lock.acquire(blocking=False):
            yield TurnEvent("error", f"{persona} is still replying; wait or press Stop.")
            return
        control = TurnControl()
        self._controls[session.character.name] = control
        with self._open_lock:
            self._replying += 1
            self._turns_started += 1
            turn_number = self._turns_started
        model, reply = None, None
        try:
            try:
                model = self.model()
                model.load()
            except ProviderError as exc:
                model = None
                # The message is still kept, so nothing the user typed is lost.
                if not state.get("user_entry_id"):
                    session.chat_log.append("USER", self.settings.user_name, state["user_text"])
                yield TurnEvent("error", exc.user_message)
                return
            with self._warm_lock:
                pass  # a turn sent during warm-up waits for it, then reuses the warmed prefix
            config = turn_config(self._deps(session, model, state.get("user_text", "")), control)
            final_error = ""
            started, first_token_logged = time.monotonic(), False
            for mode, payload in self._turn_graph.stream(state, config, stream_mode=["custom", "values"]):
                if mode == "values":
                    final_error = payload.get("error", "") or final_error
                    continue
                kind = payload.get("type")
                if kind == "token":
                    if not first_token_logged:
                        first_token_logged = True
                        log.info("First token after %.2f s", time.monotonic() - started)
                    yield TurnEvent("token", payload["text"])
                elif kind == "tool":
                    yield TurnEvent("tool", payload["announcement"])
                elif kind == "status":
                    yield TurnEvent("status", payload["text"])
                elif kind == "retrieval":
                    yield TurnEvent("retrieval", retrieval=payload["result"])
                elif kind == "guard":
                    yield TurnEvent("guard", counts={"asked_again": payload["asked_again"],
                                                     "repaired": payload["repaired"]})
                elif kind == "done":
                    reply = payload["entry"]
                    yield TurnEvent("done", payload["text"], entry=reply)
            if final_error:
                yield TurnEvent("error", final_error)
            self._tell_what_no_longer_fits(session)
        finally:
            with self._open_lock:
                self._replying -= 1
            self._controls.pop(session.character.name, None)
            session.turn_lock.release()
            self._start_background(session.character.name, self._after_turn,
                                   (session, model, turn_number, state.get("user_text", ""), reply), "after-turn")

    # --- sleep time (persona/sleep.py) ---------------------------------------------------
    def quiet_hours(self) -> QuietHours:
        try:
            return parse_quiet_hours(self.settings.quiet_hours)
        except ValueError:  # Settings validates what the user types; a hand-edited file falls back
            return parse_quiet_hours(constants.DEFAULT_QUIET_HOURS)

    def _sleep_inputs(self, persona: str) -> SleepInputs:
        session = self.session(persona)
        memory = session.character.memory_dir
        memory.mkdir(parents=True, exist_ok=True)
        return SleepInputs(persona=session.character.name, user_name=self.user_name_for(persona),
                           language_hint=session.language_hint(), memory_dir=memory, entries=session.chat_log.view,
                           episodes=EpisodeStore(memory, session.files), state=SleepStateStore(memory, session.files),
                           model=self.model(), entities=session.entities, entity_proposals=session.entity_proposals,
                           diaries=DiaryStore(memory, session.files), identity=session.read("system_prompt"),
                           dream=DreamStores(session.episodes(), session.goals(), session.questions(),
                                             session.dream_diary(), PendingDream(memory, session.files), session.entities))

    def sleep_now(self, persona: str, progress: Callable[[str, float], None] | None = None,
                  now: datetime | None = None) -> SleepReport:
        """Run what is left of tonight's sleep-time work for `persona` now (SleepBusy if it is
        already running); a reply that needs the model stops it, and it resumes later."""
        # In the user's time zone: the quiet hours and a day's end are the user's, not UTC's (a
        # given `now` keeps its own zone: the scheduler's look passes local time, benches UTC).
        now = now if now is not None else self.clock().astimezone()
        report = run_night(self._sleep_inputs(persona), now, self.quiet_hours(),
                           should_stop=lambda: self._replying > 0, progress=progress or (lambda what, done: None))
        if report.written and self.model_status.state == "ready":
            # The new episodes are in the next prompt's cached prefix and in recall: prepare both now.
            if persona == self.current_persona():  # awaited like the after-turn work (wait_for_background_work)
                self._start_background(persona, self.warm_up, (), "night-warmup")
            else:
                self.index_in_background(persona)
        return report

    def sleep_tick(self, now: datetime) -> list[SleepReport]:
        """The scheduler's look: every persona whose night is due (agent/sleep_schedule.py) gets it;
        first, whether the current persona writes first (speak_first_tick); with no night to run,
        the next reply's prompt is kept ready (keep_warm)."""
        self.speak_first_tick(now)
        reports = self._nights_due(now) if self.settings.sleep_enabled and not self._replying else []
        if not reports:  # a night re-warms once its work is done (sleep_now)
            self.keep_warm()
        return reports

    def _nights_due(self, now: datetime) -> list[SleepReport]:
        now = now.astimezone()  # the quiet hours are the user's local hours
        reports = []
        idle = timedelta(minutes=self.settings.sleep_idle_minutes)
        last_talk = {}
        for persona in self.personas.list():
            recent = self.session(persona).chat_log.recent(constants.SLEEP_ACTIVITY_SCAN)
            last_talk[persona] = next((e.ts for e in reversed(recent) if e.is_dialogue and e.ts is not None), None)
        never = datetime.min.replace(tzinfo=timezone.utc)
        for persona in sorted(last_talk, key=lambda p: last_talk[p] or never, reverse=True):  # most recent first
            state = self.sleep_state(persona)
            done = date.fromisoformat(state.last_done_night) if state.last_done_night else None
            last = last_talk[persona]
            if due(now, self.quiet_hours(), done, last, idle):
                try:
                    reports.append(self.sleep_now(persona, now=now))
                except SleepBusy as exc:
                    log.info("%s", exc)
                except ProviderError as exc:
                    log.warning("Sleep-time work for %s could not reach the model: %s", persona, exc.user_message)
        return reports

    def keep_warm(self) -> bool:
        """Between turns, when time alone has changed the next prompt's cached part (the sitting
        ended, so its running summary leaves the prompt; the hour turned), evaluate it now rather
        than at the start of the user's next reply (~10 s for a full history on 2 cores). Never
        during a reply or the persona's other background work. True when it evaluated."""
        persona = self.current_persona()
        if not persona or self._replying or self.model_status.state != "ready":
            return False
        job = self._background.get(persona)
        if job is not None and job.is_alive():
            return False
        with self._warm_lock:  # a message sent meanwhile waits, then finds the prefix evaluated
            try:
                return self.session(persona).warm(self.model(), self.settings.user_name, only_if_changed=True)
            except ProviderError as exc:
                log.warning("Could not prepare the next turn: %s", exc.user_message)
                return False

    def speak_first_tick(self, now: datetime) -> LogEntry | None:
        """The current persona writes first if Settings allow it and it is time (persona/speak_first_job.py);
        never while a reply is being written or before the model is ready."""
        persona = self.current_persona()
        if not self.settings.speak_first or not persona or self._replying or self.model_status.state != "ready":
            return None
        try:
            return speak_first(self.session(persona), self.model(), now.astimezone(), self.quiet_hours(), True,
                               self.user_name_for(persona), should_stop=lambda: self._replying > 0)
        except (OSError, PersonaError) as exc:
            log.warning("Speaking first failed for %s: %s", persona, exc)
            return None

    def first_message_notice(self, persona: str, shown_ids: Sequence[str]) -> FirstNotice | None:
        """What the page may notify of: a message `persona` wrote first since the page's last shown one."""
        return unseen_first_message(self.conversation(persona), shown_ids)

    def is_replying(self) -> bool:
        """A reply is being written right now (the page leaves the chat alone meanwhile)."""
        return self._replying > 0

    # --- introspection dashboard (persona/dashboard.py) ----------------------------------
    def inner_life(self, persona: str, goals: Sequence[str] | None = None, questions: Sequence[str] | None = None,
                   dreams: Sequence[str] | None = None) -> InnerLifeView:
        """The dashboard's data, in the user's local time. `goals`, `questions`, `dreams`: lines from
        their stores when there are any (None shows "none yet"); open questions also default to the
        session's source of them."""
        session = self.session(persona)
        now, state = self.clock().astimezone(), self.sleep_state(persona)
        if questions is None and (asked := tuple(session.open_questions())):
            questions = [str(q[2]) for q in asked if len(q) > 2]
        if goals is None and (active := session.goals().load().active()):
            goals = [f"[{g.term}] {g.goal}" for g in active]
        if dreams is None and (entries := self.dream_diary(persona)):
            dreams = [f"{e.created_at[:10]} — {e.insight}" for e in entries if e.insight]
        language = (session.language_hint().split("/")[0].strip() or "en")
        return inner_life_view(session.drives(now=now), session.emotion_log().entries(), language,
                               self.user_name_for(persona), last_run_text(state),
                               next_run_text(now, self.quiet_hours(), state, self.settings.sleep_enabled,
                                             self.settings.sleep_idle_minutes), goals, questions, dreams)

    def sleep_state(self, persona: str) -> SleepState:
        session = self.session(persona)
        return SleepStateStore(session.character.memory_dir, session.files).load()

    def episodes(self, persona: str) -> list[Episode]:
        """The persona's episodes, oldest first (not the ones the user deleted)."""
        session = self.session(persona)
        return [e for e in EpisodeStore(session.character.memory_dir, session.files).all() if not e.deleted]

    def episode_months(self, persona: str, month: str | None = None) -> EpisodeMonths:
        """The Episodes viewer: `month`'s episodes ("YYYY-MM" or ALL_MONTHS; the newest month when it
        has none), newest first, and the months there are (persona/episode_view.py)."""
        return episode_months(self.episodes(persona), month)

    def save_episode(self, persona: str, episode_id: str, summary: str) -> Episode:
        """The user's edit of an episode; the night's work leaves it as the user wrote it."""
        session = self.session(persona)
        store = EpisodeStore(session.character.memory_dir, session.files)
        episode = store.get(episode_id)
        if episode is None:
            raise PersonaError(f"There is no episode {episode_id!r} any more; reload the list.")
        if not summary.strip():
            raise PersonaError("An episode needs some text; to keep it as it was, reload the list.")
        edited = episode.model_copy(update={"summary": summary.strip(), "user_edited": True})
        store.put([edited])
        return edited

    def delete_episode(self, persona: str, episode_id: str) -> None:
        """The user deletes an episode: its text goes (a backup keeps the file as it was), a mark
        stays so the night's work does not write that day again."""
        session = self.session(persona)
        store = EpisodeStore(session.character.memory_dir, session.files)
        episode = store.get(episode_id)
        if episode is None:
            raise PersonaError(f"There is no episode {episode_id!r} any more; reload the list.")
        store.put([episode.model_copy(update={"summary": "", "deleted": True})])

    # --- entity memory v2 (seed 004 §4; managers/entities.py) ------------------------------
    def entity_pages(self, persona: str) -> list[EntityPage]:
        """The persona's entity pages, by name."""
        return self.session(persona).entities.pages()

    def save_entity_page(self, persona: str, name: str, body: str, kind: str = "") -> EntityPage:
        """The user's edit (or a new page): the whole page rewritten atomically, the old one backed up."""
        try:
            return self.session(persona).entities.replace(name, body, self.clock(), kind or None)
        except EntityError as exc:
            raise PersonaError(str(exc)) from exc

    def delete_entity_page(self, persona: str, name: str) -> None:
        """The page goes; its backup stays in backups/memory/entities/."""
        try:
            self.session(persona).entities.delete(name)
        except EntityError as exc:
            raise PersonaError(str(exc)) from exc

    def entity_proposals(self, persona: str) -> list[EntityProposal]:
        """The night's proposals not yet applied: waiting to be told, or told and to be applied next night."""
        return self.session(persona).entity_proposals.with_status(PENDING, OFFERED)

    def reject_entity_proposal(self, persona: str, proposal_id: str) -> None:
        """A proposal the user (or the persona) turns down: never applied."""
        if not self.session(persona).entity_proposals.mark([proposal_id], REJECTED, self.clock(),
                                                            only_from=(PENDING, OFFERED)):
            raise PersonaError("That proposal was applied or dismissed already; reload the list.")

    # --- diaries (managers/diaries.py) ---------------------------------------------------
    def _diaries(self, persona: str) -> DiaryStore:
        session = self.session(persona)
        return DiaryStore(session.character.memory_dir, session.files)

    def read_diary(self, persona: str, which: str) -> str:
        """The main or the secret diary, whole (the secret one too: it is the user's data)."""
        return self._diaries(persona).read(which)

    def save_diary(self, persona: str, which: str, text: str, shown: str | None = None) -> str:
        """The user's edit of a whole diary: the old file is backed up, the new one written atomically,
        and what it now holds returned; DiaryEditRefused if it changed since `shown` was read."""
        self._diaries(persona).replace_all(which, text, expected=shown)
        return self.read_diary(persona, which)

    def start_sleep_scheduler(self) -> SleepScheduler:
        scheduler = SleepScheduler(self.sleep_tick, self.clock)
        scheduler.start()
        return scheduler

    def _after_turn(self, session: CharacterSession, model: ChatModel | None, turn_number: int,
                    user_text: str = "", reply: LogEntry | None = None) -> None:
        """The work after a reply (persona/after_turn.py), unless a bench turned it off."""
        if not self._after_turn_work:
            return
        persona = session.character.name
        after_turn(session, model, user_text, reply, AfterTurnDeps(
            index=(lambda: self._index_quietly(persona)) if self._searcher is None else None,
            is_latest=lambda: turn_number == self._turns_started,
            user_name=lambda: self.settings.user_name))
