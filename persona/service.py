"""The service facade: everything the UI and the CLI may ask of Nexus Ark.

UI handlers call these methods and lay out what comes back; no business logic lives in `ui/`.
Dependencies (data paths, clock, a model factory) are passed in, so tests build a service
around a temp directory and a scripted model.
"""
from __future__ import annotations

import logging
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, Iterator, Mapping, Sequence

import constants
from agent.graph import TurnControl, build_turn_graph, turn_config
from agent.language import LANGUAGES, hint_parts
from agent.providers.base import ChatModel, ProviderError
from agent.providers.discovery import LocalServer, LocalServerScan, discover_local_servers
from agent.providers.factory import create_chat_model
from agent.retrieval import Searcher
from agent.sleep_schedule import QuietHours, parse_quiet_hours
from managers.chat_log import LogEntry
from managers.config import AppSettings, ConfigStore, DataPaths, mask_secret
from managers.entities import EntityPage, EntityProposal
from managers.episodes import Episode
from managers.line_edits import MergedEdit
from managers.personas import CharacterSettings, PersonaError, PersonaManager
from managers.sleep_state import SleepReport, SleepState
from persona import night_records, provider_choice
from persona.after_turn import AfterTurnDeps, after_turn
from persona.background import BackgroundWork
from persona.dashboard import InnerLifeView, dashboard_of
from persona.episode_view import EpisodeMonths, episode_months
from persona.inner_life import InnerLifeMethods
from persona.memory_indexes import MemoryIndexes
from persona.model_host import ModelFactory, ModelHost, ModelStatus, needs_new_model
from persona.open_sessions import OpenSessions
from persona.scheduler import SleepScheduler
from persona.session import CharacterSession
from persona.sleep import run_night
from persona.sleep_time import last_talk, nights_due, quiet_hours, run_nights, sleep_inputs, sleep_state
from persona.speak_first_job import FirstNotice, speak_first, unseen_first_message
from persona.turn_stream import TurnEvent, outliving_the_page, regenerate_state, turn_deps, turn_events
from persona.user_names import name_to_offer, name_to_use, names_default

log = logging.getLogger(__name__)

BUNDLED_CHARACTERS = Path(__file__).resolve().parent.parent / "characters"
ServerFinder = Callable[[], tuple[LocalServer, ...]]


def system_clock() -> datetime:
    return datetime.now(timezone.utc)


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
        self.models = ModelHost(model_factory, self.paths.embedded_model)
        self._searcher = searcher
        self._prompt_budgets = dict(prompt_budgets) if prompt_budgets else None
        self._after_turn_work = after_turn_work
        self.indexes = MemoryIndexes(self.personas, lambda: self.settings.embedder, clock, self._wait_while_replying)
        self.index_status = self.indexes.status  # per persona, for the page
        self.background = BackgroundWork()  # per persona: its latest job off the reply's path
        self._turns_started = 0  # lets after-turn work see that a newer turn has begun
        self._replying = 0  # turns generating right now
        self._count_lock = threading.Lock()  # guards the two turn counters above
        self.sessions = OpenSessions(self.personas, clock)
        self._controls: dict[str, TurnControl] = {}
        self._turn_graph = build_turn_graph().compile()
        self.local_servers = LocalServerScan(find_local_servers)
        self.settings = self.config.load_settings()
        self.personas.ensure_sample()
        self.sessions.notices.extend(r.message() for r in self.config.files.quarantined)

    # --- personas -------------------------------------------------------------------
    def persona_names(self) -> list[str]:
        return self.personas.list()

    def current_persona(self) -> str:
        names = self.persona_names()
        last = self.settings.last_character
        return last if last in names else (names[0] if names else "")

    def session(self, name: str) -> CharacterSession:
        # The name a turn cut off would have used, for the "please remember" it left (as before the
        # split, a declined introduced name is not skipped here, unlike user_name_for).
        return self.sessions.get(name, lambda session: self.settings.user_name if not names_default(
            self.settings.user_name) else (session.introduced_name() or self.settings.user_name))

    def select_persona(self, name: str) -> CharacterSession:
        session = self.session(name)
        if self._searcher is None and not self.indexes.is_open(session.character.name):
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

    def persona_settings(self, name: str) -> CharacterSettings:
        """The persona's display name and languages, as the Persona tab shows them."""
        return self.session(name).character_settings()

    def update_persona_settings(self, name: str, display_name: str, language_hint: str,
                                lookback_days: float | None = None) -> CharacterSettings:
        """Save the persona's display name — its other names, "Ark (アーク)", which the nights read as the
        persona's (managers/personas.py `other_names`) — its languages ("ja/en": a message too short to
        tell takes the first) and, when given, how many days of episodes before the history the prompt
        shows (`episode_memory_lookback_days`). PersonaError, with nothing saved, for a name too long, an
        unknown code or days out of range."""
        display = " ".join(display_name.split())
        if len(display) > constants.MAX_NAME_LENGTH:
            raise PersonaError(f"The display name is too long ({len(display)} characters; at most "
                               f"{constants.MAX_NAME_LENGTH}).")
        codes = list(dict.fromkeys(hint_parts(language_hint)))
        unknown = [code for code in codes if code not in LANGUAGES]
        if unknown:
            raise PersonaError(f"Unknown language code: {', '.join(unknown)}. Use codes of these: {', '.join(LANGUAGES)}, "
                               "separated by '/' (for example ja/en).")
        update = {"display_name": display, "language_hint": "/".join(codes)}
        if lookback_days is not None:
            if lookback_days != int(lookback_days) or not 0 <= lookback_days <= constants.EPISODE_LOOKBACK_DAYS_MAX:
                raise PersonaError(f"Days of episodes: a whole number from 0 to {constants.EPISODE_LOOKBACK_DAYS_MAX}.")
            update["episode_memory_lookback_days"] = int(lookback_days)
        session = self.session(name)
        settings = session.character_settings().model_copy(update=update)
        session.save_character_settings(settings)
        return settings

    def close_persona(self, name: str) -> None:
        """Close the persona's open session and indexes, so its folder may be replaced on disk;
        the next use opens them again (the QA bench restores the replayed state this way)."""
        self._forget_session(name)

    def _forget_session(self, name: str) -> None:
        self.sessions.check_idle(name)
        self.indexes.close(name, closing=lambda: self.sessions.drop(name))

    # --- memory files ---------------------------------------------------------------
    def read_memory(self, persona: str, which: str) -> str:
        return self.session(persona).read(which)

    def save_memory(self, persona: str, which: str, text: str, shown: str | None = None) -> MergedEdit:
        """The user's edit; with `shown`, what the persona kept meanwhile is merged in (MergedEdit)."""
        return self.session(persona).write_edit(which, text, shown)

    def pop_notices(self) -> list[str]:
        return self.sessions.pop_notices()

    # --- settings -------------------------------------------------------------------------
    def update_settings(self, **changes) -> AppSettings:
        self.update_settings_reloads(**changes)
        return self.settings

    def update_settings_reloads(self, **changes) -> bool:
        """Save the changed settings; whether the model is loaded again for them (the provider or its model changed)."""
        before = self.settings
        self.settings = AppSettings.model_validate({**self.settings.model_dump(), **changes})
        self.config.save_settings(self.settings)
        reloads = needs_new_model(before, self.settings)
        if reloads:
            self.models.drop(forget_status=True)
        return reloads

    def update_sleep_settings(self, enabled: bool, quiet_hours: str, idle_minutes: float) -> AppSettings:
        """Sleep-time work's switch, its quiet hours ("00:00-07:00") and how long the user is idle first;
        ValueError with a message a user can act on (pydantic's ValidationError is one)."""
        parse_quiet_hours(quiet_hours)
        return self.update_settings(sleep_enabled=bool(enabled), quiet_hours=quiet_hours.strip().replace("–", "-"),
                                    sleep_idle_minutes=int(idle_minutes or 0))

    # --- the user's name ---------------------------------------------------------------
    def user_name_for(self, persona: str, message: str = "") -> str:
        """The name the persona calls the user by (persona/user_names.py)."""
        return name_to_use(self.settings, lambda: self.session(persona).introduced_name(message))

    def name_offer(self, persona: str) -> str:
        """A name the user introduced themself by for the page to offer to save ("" for none)."""
        return name_to_offer(self.settings, lambda: self.session(persona).introduced_name()) if persona else ""

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

    # --- the provider (persona/provider_choice.py) and the model (persona/model_host.py) --------
    def use_local_server(self, base_url: str, model: str) -> AppSettings:
        """Switch to a server on this computer; a ValueError for any other host, and nothing changes."""
        return self.update_settings(**provider_choice.local_server(base_url, model))

    def use_embedded_model(self) -> AppSettings:
        return self.update_settings(**provider_choice.EMBEDDED_MODEL)

    def shows_first_run_note(self) -> bool:
        return provider_choice.shows_first_run_note(self.settings)

    def dismiss_first_run_note(self) -> None:
        """Keep the embedded model and stop showing the note (the loaded model stays loaded)."""
        self.settings = self.settings.model_copy(update={"provider_chosen": True})
        self.config.save_settings(self.settings)

    def set_api_key(self, which: str, value: str) -> str:
        secrets = provider_choice.with_key(self.config.load_secrets(), which, value)
        self.config.save_secrets(secrets)
        self.models.drop()
        return mask_secret(secrets.model_dump()[which])

    def masked_keys(self) -> dict[str, str]:
        return provider_choice.masked(self.config.load_secrets())

    @property
    def model_status(self) -> ModelStatus:
        return self.models.status

    def model(self) -> ChatModel:
        return self.models.get(self.settings, self.config.load_secrets)

    def start_background_warmup(self) -> threading.Thread:
        """Load the model and pre-evaluate the current persona's prompt prefix, off the UI thread;
        then the start-up's housekeeping (sweep_temp_files), after the model is ready."""
        thread = threading.Thread(target=self._start_up, name="model-warmup", daemon=True)
        thread.start()
        return thread

    def _start_up(self) -> None:
        self.warm_up()
        self.sweep_temp_files()

    def sweep_temp_files(self, now: datetime | None = None) -> int:
        """Remove the temp files that killed writes left in the personas' folders (managers/store.py
        sweep_temp_files: only stale ones, by name and age); returns how many went."""
        removed = self.personas.sweep_temp_files(now if now is not None else self.clock())
        log.info("Start-up sweep: %d temp file(s) left by interrupted writes removed%s", sum(removed.values()),
                 "".join(f"; {name}: {n}" for name, n in removed.items() if n))
        return sum(removed.values())

    def warm_up(self) -> None:
        self.models.warm_up(self.model, self.current_persona, lambda persona, model: self.session(persona).warm(
            model, self.settings.user_name))  # no turn lock: a message sent meanwhile waits for the model
        persona = self.current_persona()
        if persona and self._searcher is None and self.model_status.state == "ready":
            self._index_quietly(persona)  # after the warm-up (not inside its lock), never competing with it
            self.indexes.complete_knowledge_quietly(persona)
            self.indexes.load_embedder_quietly()  # the first message's recall then has it ready

    # --- memory indexes (persona/memory_indexes.py) -----------------------------------
    def embedder(self):
        return self.indexes.embedder()

    def memory_index(self, persona: str):
        return self.indexes.memory_index(persona)

    def update_memory_index(self, persona: str, rebuild: bool = False, progress=None):
        return self.indexes.update(persona, rebuild, progress)

    def knowledge(self, persona: str):
        return self.indexes.knowledge(persona)

    def index_in_background(self, persona: str) -> threading.Thread:
        return self.background.start(persona, self._index_quietly, (persona,), "memory-index")

    def _index_quietly(self, persona: str) -> None:
        self.indexes.update_quietly(persona)

    def uses_llm_planner(self, model: ChatModel) -> bool:
        """Whether retrieval is planned by one LLM call (else by rules); see AppSettings.query_planner."""
        choice = self.settings.query_planner
        return choice == "llm" or (choice == "auto" and model.budget_family == "remote")

    def _searcher_for(self, session: CharacterSession, model: ChatModel) -> Searcher:
        if self._searcher is not None:
            return self._searcher
        return self.indexes.searcher(session, model, self.uses_llm_planner(model),
                                     lambda: self.user_name_for(session.character.name))

    # --- background work ----------------------------------------------------------------
    def _wait_while_replying(self, at_most_s: float | None = None, waiting: Callable[[], None] = lambda: None) -> None:
        """Background work yields the CPU to a reply being generated (2 cores are shared); `at_most_s`:
        no longer than that; `waiting`: called at each look (progress shown to the user)."""
        deadline = None if at_most_s is None else time.monotonic() + at_most_s
        while self._replying and (deadline is None or time.monotonic() < deadline):
            waiting()
            time.sleep(constants.BACKGROUND_YIELD_POLL_S)

    def wait_for_background_work(self, persona: str, timeout: float | None = None) -> None:
        """Wait for the persona's background indexing (and the after-turn prefix warm-up)."""
        self.background.wait(persona, timeout)

    def close(self) -> None:
        """Shut-down: write what the memory indexes hold in memory only."""
        self.indexes.flush()

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
        state = regenerate_state(self.conversation(persona))
        if state is None:
            yield TurnEvent("error", "There is no message to answer yet.")
            return
        yield from self._run_turn(persona, state)

    def find_message(self, persona: str, entry_id: str) -> LogEntry | None:
        return self.session(persona).chat_log.find(entry_id)

    def edit_message(self, persona: str, entry_id: str, new_text: str) -> LogEntry:
        return self.session(persona).chat_log.record_edit(entry_id, new_text)

    def delete_message(self, persona: str, entry_id: str) -> LogEntry:
        return self.session(persona).chat_log.record_delete(entry_id)

    def _run_turn(self, persona: str, state: dict) -> Iterator[TurnEvent]:
        session = self.session(persona)
        if not session.turn_lock.acquire(blocking=False):
            yield TurnEvent("error", f"{persona} is still replying; wait or press Stop.")
            return
        yield from outliving_the_page(self._locked_turn(session, state), persona)

    def _locked_turn(self, session: CharacterSession, state: dict) -> Iterator[TurnEvent]:
        """The turn itself, the session's turn lock held (and released at its end)."""
        control = TurnControl()
        self._controls[session.character.name] = control
        with self._count_lock:
            self._replying += 1
            self._turns_started += 1
            turn_number = self._turns_started
        model, reply = None, None
        try:
            try:
                model = self.model()
                model.load()
                self.models.loaded_after_all()
            except ProviderError as exc:
                model = None
                # The message is still kept, so nothing the user typed is lost.
                if not state.get("user_entry_id"):
                    session.chat_log.append("USER", self.settings.user_name, state["user_text"])
                yield TurnEvent("error", exc.user_message)
                return
            with self.models.warm_lock:
                pass  # a turn sent during warm-up waits for it, then reuses the warmed prefix
            text = state.get("user_text", "")
            name = session.character.name
            deps = turn_deps(session, model, text, self.user_name_for(name, text), self.settings, self.clock,
                             searcher=lambda: self._searcher_for(session, model), recall=lambda: self.indexes.recall(session),
                             knowledge=lambda: self.knowledge(name), prompt_budgets=self._prompt_budgets,
                             keep_reader=self.indexes.keep_reader())
            config = turn_config(deps, control)
            for event in turn_events(self._turn_graph.stream(state, config, stream_mode=["custom", "values"])):
                if event.kind == "done":
                    reply = event.entry
                yield event
            self.sessions.tell_what_no_longer_fits(session)
        finally:
            with self._count_lock:
                self._replying -= 1
            self._controls.pop(session.character.name, None)
            session.turn_lock.release()
            self.background.start(session.character.name, self._after_turn,
                                  (session, model, turn_number, state.get("user_text", ""), reply), "after-turn")

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

    # --- sleep time (persona/sleep_time.py, persona/sleep.py) --------------------------------
    def quiet_hours(self) -> QuietHours:
        return quiet_hours(self.settings)

    def sleep_state(self, persona: str) -> SleepState:
        return sleep_state(self.session(persona))

    def sleep_now(self, persona: str, progress: Callable[[str, float], None] | None = None,
                  now: datetime | None = None, wait_for_reply_s: float = 0.0) -> SleepReport:
        """Run what is left of tonight's sleep-time work for `persona` now (SleepBusy if it is
        already running); a reply that needs the model stops it, and it resumes later. Asked for
        by the user ("Sleep now"), a reply being written is first waited for, up to `wait_for_reply_s`:
        pressed while a long reply was still streaming, the run stopped at once and said only "Stopped
        for a reply" (a new user's test, session 47)."""
        report_progress = progress or (lambda what, done: None)
        self._wait_while_replying(wait_for_reply_s, lambda: report_progress("Waiting for the reply being written to finish", 0.0))
        # In the user's time zone: the quiet hours and a day's end are the user's, not UTC's (a
        # given `now` keeps its own zone: the scheduler's look passes local time, benches UTC).
        now = now if now is not None else self.clock().astimezone()
        inputs = sleep_inputs(self.session(persona), self.model(), self.user_name_for(persona))
        report = run_night(inputs, now, self.quiet_hours(), should_stop=lambda: self._replying > 0,
                           progress=report_progress)
        if report.written and self.model_status.state == "ready":
            # The new episodes are in the next prompt's cached prefix and in recall: prepare both now.
            if persona == self.current_persona():  # awaited like the after-turn work (wait_for_background_work)
                self.background.start(persona, self.warm_up, (), "night-warmup")
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
        seen = {p: (self.sleep_state(p), last_talk(self.session(p))) for p in self.personas.list()}
        due_now = nights_due(now, self.quiet_hours(), timedelta(minutes=self.settings.sleep_idle_minutes), seen)
        return run_nights(due_now, lambda persona: self.sleep_now(persona, now=now))

    def start_sleep_scheduler(self) -> SleepScheduler:
        scheduler = SleepScheduler(self.sleep_tick, self.clock)
        scheduler.start()
        return scheduler

    def keep_warm(self) -> bool:
        """Between turns, when time alone has changed the next prompt's cached part (the sitting
        ended, so its running summary leaves the prompt; the hour turned), evaluate it now rather
        than at the start of the user's next reply (~10 s for a full history on 2 cores). Never
        during a reply or the persona's other background work. True when it evaluated."""
        persona = self.current_persona()
        if not persona or self._replying or self.model_status.state != "ready":
            return False
        if self.background.busy(persona):
            return False
        with self.models.warm_lock:  # a message sent meanwhile waits, then finds the prefix evaluated
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
        """The dashboard's data, in the user's local time (see dashboard_of)."""
        return dashboard_of(self.session(persona), self.clock().astimezone(), self.sleep_state(persona),
                            self.quiet_hours(), self.user_name_for(persona), self.settings.sleep_enabled,
                            self.settings.sleep_idle_minutes, goals, questions, dreams)

    # --- what the night writes: episodes, entity pages, diaries (persona/night_records.py) -----
    def episodes(self, persona: str) -> list[Episode]:
        return night_records.episodes(self.session(persona))

    def episode_months(self, persona: str, month: str | None = None) -> EpisodeMonths:
        """The Episodes viewer: `month`'s episodes ("YYYY-MM" or ALL_MONTHS; the newest month when it
        has none), newest first, and the months there are (persona/episode_view.py)."""
        return episode_months(self.episodes(persona), month)

    def save_episode(self, persona: str, episode_id: str, summary: str) -> Episode:
        return night_records.save_episode(self.session(persona), episode_id, summary)

    def delete_episode(self, persona: str, episode_id: str) -> None:
        night_records.delete_episode(self.session(persona), episode_id)

    def entity_pages(self, persona: str) -> list[EntityPage]:
        """The persona's entity pages, by name."""
        return self.session(persona).entities.pages()

    def save_entity_page(self, persona: str, name: str, body: str, kind: str = "") -> EntityPage:
        return night_records.save_entity_page(self.session(persona), name, body, self.clock(), kind)

    def delete_entity_page(self, persona: str, name: str) -> None:
        night_records.delete_entity_page(self.session(persona), name)

    def entity_proposals(self, persona: str) -> list[EntityProposal]:
        return night_records.entity_proposals(self.session(persona))

    def reject_entity_proposal(self, persona: str, proposal_id: str) -> None:
        night_records.reject_entity_proposal(self.session(persona), proposal_id, self.clock())

    def read_diary(self, persona: str, which: str) -> str:
        """The main or the secret diary, whole (the secret one too: it is the user's data)."""
        return night_records.diaries(self.session(persona)).read(which)

    def save_diary(self, persona: str, which: str, text: str, shown: str | None = None) -> str:
        return night_records.save_diary(self.session(persona), which, text, shown)
