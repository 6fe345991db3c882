"""One open persona: its log, journal, memory files and the prompt built from them."""
from __future__ import annotations

import json
import logging
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, timezone
from functools import partial
from typing import Callable, Mapping, Sequence

import constants
from agent.drives import Drives, feelings_lines, opening_line
from agent.introductions import introduced_name
from agent.follow_up import question_before
from agent.language import message_language, name_for
from agent.memory_lines import focused_line, grouped_by_date
from agent.prompt_builder import (BuiltPrompt, HistoryWindow, PromptSection, build_prompt, fit_newest_lines, fit_to_budget,
                                  index_from_end, select_history)
from agent.providers.base import ChatMessage, ChatModel, ToolSpec
from agent.keep_requests import KeepAction, Likely, keep_action
from agent.providers.factory import max_reply_tokens
from agent.relative_time import dates_with_year, spelled_out, spelled_out_days
from agent.reply_form import asks_for_brevity, without_form_request
from agent.reply_rules import every_retry_nudge, reply_reminder, reply_rules
from agent.time_period import names_a_past_weekday
from agent.retrieval import RetrievalResult
from managers.chat_log import STATUS_RECOVERED, ChatLog, LogEntry, parse_timestamp, spoken_text
from agent.entities import index_hint, index_text, names_in, page_lines, proposal_head, proposal_line, proposals_intro
from agent.conversation_summary import SUMMARY_SCHEMA, fold_prompt, live_session, parse_fold
from agent.episodes import within
from agent.memory_traces import moved_arousal, read_resonance
from managers.conversation_summary import ConversationSummary, ConversationSummaryStore
from managers.entities import OFFERED, PENDING, EntityProposal, EntityStore, ProposalStore
from managers.emotion_log import EmotionLog
from managers.episodes import Episode, EpisodeStore, episode_id
from managers.dream_diary import DreamDiary
from managers.goals import GoalStore, priority_weight, shown_in_prompt
from managers.open_questions import OpenQuestionStore
from agent.goals import goal_lines, goals_hint
from managers.journal import StreamingJournal
from managers.keep_ledger import KeepLedger
from managers.personas import Character, CharacterSettings, other_names
from managers.line_edits import MergedEdit, merged_edit
from managers.store import append_durably, atomic_write_text, file_lock
from persona.emotions import record_persona_emotion
from persona.inner_state import GoalSource, QuestionSource, drives_now

log = logging.getLogger(__name__)

AS_SENT_MEMO_SIZE = 64
# A recalled episode's line (managers/memory_sources.py): "[2026-11-24] Episode: …", a week "[a~b] Episode: …".
_RECALLED_EPISODE = re.compile(r"\[(\d{4}-\d{2}-\d{2}(?:~\d{4}-\d{2}-\d{2})?)\] Episode")  # enough for any history window the local budget allows

def _episode_text(text: str, last_day: str) -> str:
    """An episode's text with its dates' years (`dates_with_year`, from its last day); as it is when
    that day is no ISO date (a hand-edited file)."""
    try:
        return dates_with_year(text, date.fromisoformat(last_day))
    except ValueError:
        return text


def _recalled_episodes_for_prompt(retrieval: RetrievalResult, dates: set[str]) -> RetrievalResult:
    """The recalled items but the episodes of these dates ("2026-03-14", or a week's "a~b": the
    prompt's earlier days show them), each other episode with its dates' years."""
    kept = []
    for item in retrieval.items:
        match = _RECALLED_EPISODE.match(item.text)
        if match and match.group(1) in dates:
            continue
        kept.append(replace(item, text=_episode_text(item.text, match.group(1)[-10:])) if match else item)
    return retrieval if tuple(kept) == retrieval.items else replace(retrieval, items=tuple(kept))


@dataclass(frozen=True)
class RecoveredReply:
    entry: LogEntry
    chars: int


class CharacterSession:
    def __init__(self, character: Character, clock: Callable[[], datetime]):
        self.character = character
        self.clock = clock
        self.chat_log = ChatLog(character.logs, clock)
        self.journal = StreamingJournal(character.journal_file, clock)
        self.files = character.files()
        self.turn_lock = threading.Lock()  # one reply at a time per persona
        self._anchor_id = ""
        self._warmed_prefix: tuple[ChatMessage, ...] = ()  # what `warm` last had the model evaluate
        # What was actually sent for recent entries (the user's text with its context block,
        # the reply with its tags): replaying it keeps the local model's cached prefix valid.
        self._as_sent: OrderedDict[str, str] = OrderedDict()
        self.keep_ledger = KeepLedger(character.memory_dir / "keep_ledger.jsonl")
        self.core_memory_left_out = 0  # older core-memory lines the last prompt had no room for
        self.unmerged_corrections: set[str] = set()  # corrected notes the model could not restate: not asked again
        self.shown_episodes: dict[str, Episode] = {}  # by id: what the last turn's prompt showed
        self.entities = EntityStore(character.memory_dir, self.files)  # kept: its listing is cached
        self.entity_proposals = ProposalStore(character.memory_dir, self.files)
        self._offers: tuple[str, list[EntityProposal]] = ("", [])  # the message the night's proposals went with
        # (the log's revision last read, the name the user introduced themself by in it): `introduced_name`
        self._introduced_in_log: tuple[int, str] = (-1, "")
        # The drives' inputs from stores other modules keep (wired by the facade): open questions as
        # (priority, raised or last asked[, text]) and the top active goal as (priority 0..1, text).
        self.open_questions: QuestionSource = self._open_questions
        self.top_goal: GoalSource = self._top_goal

    # --- crash recovery ---------------------------------------------------------------
    def recover_interrupted_reply(self) -> RecoveredReply | None:
        recovery = self.journal.recover()
        if recovery is None:
            return None
        entry = None
        if recovery.text.strip() and not recovery.completed:
            from agent.reply_tags import parse_reply

            visible = parse_reply(recovery.text).visible_text
            entry = self.chat_log.append(
                "AGENT", recovery.speaker or self.character.name, visible,
                reply_to=recovery.reply_to or "_", status=STATUS_RECOVERED,
            )
            log.warning("Recovered an interrupted reply of %d characters", len(visible))
        self.journal.discard()
        return RecoveredReply(entry, len(recovery.text)) if entry else None

    # --- "please remember" requests ------------------------------------------------------
    def _user_messages(self) -> list[LogEntry]:
        return [e for e in self.chat_log.recent(constants.KEEP_SCAN_ENTRIES) if e.role == "USER"]

    def _local(self, entry: LogEntry) -> datetime:
        """When the message was written, on the user's clock: 「明日」 said at 08:00 in Tokyo is
        tomorrow there, not in UTC."""
        return (entry.ts or self.clock()).astimezone()

    def plan_keep(self, entry: LogEntry, user_name: str, likely: Likely | None = None) -> KeepAction | None:
        """What the app keeps for this message (agent/keep_requests.py), from it and the user's
        messages before it; `likely`: the second reader beside the grammar (agent/keep_classifier.py)."""
        self.complete_keep_requests(user_name, before=entry.id, likely=likely)  # one that a failed turn left
        users = self._user_messages()
        earlier = [(e.text, self._local(e)) for e in users if e.id != entry.id]
        action = keep_action(entry.text, earlier, user_name, self._local(entry), likely)
        if action and not action.old_line and action.line.strip() in (
                line.strip() for line in self.read("core_memory").splitlines()):
            return None  # kept already, word for word
        return action

    def apply_keep(self, action: KeepAction) -> bool:
        """Write a planned keep: append the line (unless it is there already: a request handled
        again after a crash) or revise the kept line. False when nothing was written."""
        if action.old_line:
            return self.revise_core_memory_line(action.old_line, action.line)
        if action.line.strip() in (line.strip() for line in self.read("core_memory").splitlines()):
            return False
        self.edit_core_memory(action.line, "append")
        return True

    def complete_keep_requests(self, user_name: str, before: str | None = None,
                               likely: Likely | None = None, settle: bool = True) -> list[str]:
        """Handle the recent user messages (before the message `before`, when given) that no turn
        finished handling: a crash mid-turn, a model that failed to load. Returns the lines kept.
        With `settle` False (at open, before the second reader's embedder is loaded) a message the
        grammar finds no request in is left for the next turn's pass, which has the reader."""
        if not self.keep_ledger.exists():
            self.keep_ledger.start(e.id for e in self._user_messages())
            return []
        handled, kept = self.keep_ledger.handled(), []
        users = self._user_messages()
        for index, entry in enumerate(users):
            if entry.id == before:
                break
            if entry.id in handled:
                continue
            earlier = [(e.text, self._local(e)) for e in users[:index]]
            action = keep_action(entry.text, earlier, user_name, self._local(entry), likely)
            if not action and not settle:
                continue
            outcome = ""
            if action:
                try:
                    if self.apply_keep(action):
                        kept.append(action.line)
                    outcome = action.line
                except ValueError as exc:  # core memory is full
                    log.warning("Could not keep %r: %s", action.line[:80], exc)
                    outcome = "failed"
            self.keep_ledger.record(entry.id, outcome)
        return kept

    # --- memory files -----------------------------------------------------------------
    def read(self, which: str) -> str:
        return self.character.read_text(self._memory_path(which))

    def write(self, which: str, text: str) -> None:
        self.files.write_text_with_backup(self._memory_path(which), _within_limit(which, text))

    def write_edit(self, which: str, text: str, shown: str | None = None) -> MergedEdit:
        """The user's edit of a memory file; with `shown` (the text the editor was filled with), the
        lines the app wrote since are merged in, not lost (managers/line_edits.py)."""
        path = self._memory_path(which)
        with file_lock(path):  # read, merge and write as one: a note kept meanwhile waits for the lock
            current = self.character.read_text(path) if path.exists() else ""
            merged = MergedEdit(text, ()) if shown is None else merged_edit(shown, text, current)
            written = _within_limit(which, merged.text)
            self.files.backup(path)
            atomic_write_text(path, written)
        return replace(merged, text=written)

    def _memory_path(self, which: str):
        paths = {
            "system_prompt": self.character.system_prompt,
            "core_memory": self.character.core_memory,
            "notepad": self.character.notepad,
        }
        if which not in paths:
            raise ValueError(f"unknown memory file {which!r}")
        return paths[which]

    def _edit(self, which: str, content: str, mode: str) -> str:
        path = self._memory_path(which)
        with file_lock(path):
            current = self.character.read_text(path).rstrip()
            new = content.strip() if mode == "replace" else (current + "\n" + content.strip()).strip()
        self.write(which, new)
        return f"{which} updated ({mode})."

    def edit_core_memory(self, content: str, mode: str) -> str:
        return self._edit("core_memory", content, mode)

    def edit_notepad(self, content: str, mode: str) -> str:
        return self._edit("notepad", content, mode)

    def revise_core_memory_line(self, old_line: str, new_line: str) -> bool:
        """`old_line` replaced by `new_line` where it stands; False (nothing written) if core memory
        has no such line: it was revised already, or the user has changed or removed it."""
        path = self._memory_path("core_memory")
        with file_lock(path):
            lines = self.character.read_text(path).rstrip().split("\n")
            if old_line.strip() not in (line.strip() for line in lines):
                return False
            lines = [new_line.strip() if line.strip() == old_line.strip() else line for line in lines]
        self.write("core_memory", "\n".join(lines).strip())
        return True

    # --- the user's name ---------------------------------------------------------------
    def introduced_name(self, message: str = "") -> str:
        """The name the user last introduced themself by: in `message` (the turn's, not logged
        yet), else in the recent conversation; "" when they have not."""
        if message and (name := introduced_name(message)):
            return name
        # Only the messages appended since the last look are read (a turn asks several times, and a
        # scan of the whole 24,000-entry view was 5 ms at 100k messages: `bench scale`, session 54); an
        # edit or deletion reads the recent conversation again.
        seen_at, name = self._introduced_in_log
        revision, appended = self.chat_log.appended_since(seen_at)
        if appended is None:
            name = _last_introduction(self.chat_log.recent(constants.HISTORY_SCAN_ENTRIES))
        elif appended:
            name = _last_introduction(appended) or name
        self._introduced_in_log = (revision, name)
        return name

    # --- emotions -----------------------------------------------------------------------
    def record_emotion(self, entry: LogEntry, emotion) -> None:
        """Logged with its reply's time; a worry eased becomes a bonding episode (persona/emotions.py)."""
        user_texts = [e.text for e in self.chat_log.recent(constants.EMOTION_RECENT_ENTRIES) if e.role == "USER"][-3:]
        language = message_language(" ".join(user_texts), user_texts, self.language_hint()) or "en"
        record_persona_emotion(self.emotion_log(), self.episodes(), entry.ts or self.clock(),
                               emotion.category, emotion.intensity, entry.id, language)

    def emotion_log(self) -> EmotionLog:
        return EmotionLog(self.character.memory_dir)

    # --- drives (seed 004 §8; agent/drives.py) -------------------------------------------
    def drives(self, before_id: str = "", now: datetime | None = None) -> Drives:
        """The drives now; `before_id`: the turn's message, so the idle time is the one before it."""
        return drives_now(now or self.clock(), self.chat_log.recent(constants.EMOTION_RECENT_ENTRIES),
                          self.emotion_log(), self.open_questions, self.top_goal, before_id)

    # --- prompt -------------------------------------------------------------------------
    def remember_as_sent(self, entry_id: str, content: str) -> None:
        self._as_sent[entry_id] = content
        self._as_sent.move_to_end(entry_id)
        while len(self._as_sent) > AS_SENT_MEMO_SIZE:
            self._as_sent.popitem(last=False)

    def _render_history(self, entry: LogEntry) -> str:
        # A reply as the model wrote it (tags included), so the cached prefix stays valid; the
        # user's messages as typed (the per-turn context went in a message of its own).
        if entry.role == "AGENT":
            return self._as_sent.get(entry.id) or spoken_text(entry.text)
        return entry.text

    def context_message_ids(self, users_earlier_words: bool = False) -> list[str]:
        """Messages already in the prompt's history window: recall does not repeat them —
        `users_earlier_words`: but for the user's own earlier messages there. Asked about their own
        doings ("Where was my interview again?"), the embedded model answered "I don't have the
        details" with the answer three messages up; a memory line right before the question it uses
        (bench conversation, session 15)."""
        view = self.chat_log.recent(constants.HISTORY_SCAN_ENTRIES)
        start = index_from_end(view, self._anchor_id, missing=len(view))
        shown = view[start:]
        if not users_earlier_words:
            return [e.id for e in shown]
        last_user = next((e.id for e in reversed(shown) if e.role == "USER"), "")
        return [e.id for e in shown if e.role != "USER" or e.id == last_user]

    def episodes(self) -> EpisodeStore:
        return EpisodeStore(self.character.memory_dir, self.files)

    def episodes_before(self, window: HistoryWindow) -> list[Episode]:
        """The episodes of the days before the window's oldest message, oldest first; the days the
        window shows are its own."""
        first = next((e.ts for e in window.entries if e.ts is not None), None)
        until = (first or self.clock()).astimezone().date()
        since = until - timedelta(days=self.character_settings().episode_memory_lookback_days)
        return [e for e in self.episodes().all()
                if not e.deleted and since.isoformat() <= e.last_day < until.isoformat()]

    def _episodes_text(self, episodes: Sequence[Episode], model: ChatModel) -> str:
        """One line an episode (★: a stirring day); with its id where the model reports traces in tags."""
        with_ids = model.budget_family != "local"
        lines = []
        for episode in episodes:
            star = " ★" if episode.starred else ""
            dates = spelled_out_days(episode.first_day, episode.last_day)
            label = f"{dates} · {episode.id}" if with_ids else dates
            lines.append(f"- [{label}]{star} {' '.join(_episode_text(episode.summary, episode.last_day).split())}")
        return "\n".join(lines)

    def _episodes_that_fit(self, episodes: Sequence[Episode], budget: int, model: ChatModel) -> list[Episode]:
        """The newest of `episodes` the prefix's room holds, by build_prompt's own fit
        (`fit_newest_lines`): the ones the prompt shows. Only these count as shown: an older day left
        out for room is recalled like any other, and no memory trace can name it."""
        shown, left_out = fit_newest_lines(self._episodes_text(episodes, model), budget, model.count_tokens)
        return list(episodes[left_out:]) if shown else []

    def _note_shown_episodes(self, earlier: Sequence[Episode], retrieval: RetrievalResult) -> None:
        """The episodes this turn's prompt shows (the earlier days, and recalled ones): the ones a
        memory trace may name after the reply."""
        store = self.episodes()
        shown = {e.id: e for e in earlier}
        for item in retrieval.items:
            match = _RECALLED_EPISODE.match(item.text)
            episode = store.get(episode_id(match.group(1))) if match else None
            if episode is not None:
                shown[episode.id] = episode
        self.shown_episodes = shown

    def apply_traces(self, traces: Sequence[tuple[str, float]], source: str) -> None:
        """Each (episode id, resonance) moves that episode's arousal (agent/memory_traces.py), and
        is logged in `memory/memory_traces.jsonl`; ids the prompt did not show are ignored."""
        store, moved = self.episodes(), []
        for trace_id, resonance in traces:
            episode = store.get(trace_id) if trace_id in self.shown_episodes else None
            if episode is None:
                continue
            old = episode.arousal if episode.arousal is not None else (episode.arousal_avg or 0.0)
            new = moved_arousal(old, resonance)
            moved.append(episode.model_copy(update={"arousal": new, "arousal_max": max(new, episode.arousal_max or 0.0)}))
            record = {"ts": self.clock().isoformat(), "episode": trace_id, "resonance": resonance, "arousal": old,
                      "moved_to": new, "source": source}
            append_durably(self.character.memory_dir / "memory_traces.jsonl", json.dumps(record) + "\n")
        if moved:
            store.put(moved)

    def read_traces(self, reply: str) -> list[tuple[str, float]]:
        """The embedded model's traces, read from its reply's words: the shown episodes it drew on."""
        found = [(e.id, read_resonance(reply, e.summary)) for e in self.shown_episodes.values()]
        return [(trace_id, resonance) for trace_id, resonance in found if resonance > 0]

    # --- rolling compression (agent/conversation_summary.py) ----------------------------
    def _summary_store(self) -> ConversationSummaryStore:
        return ConversationSummaryStore(self.character.memory_dir, self.files)

    def _sitting_and_dropped(self, window: HistoryWindow) -> tuple[list[LogEntry], list[LogEntry]]:
        """The sitting in progress, and those of its messages the window no longer shows."""
        sitting = live_session(self.history_before(None), self.clock())
        if not sitting or not window.entries:
            return sitting, []
        first_shown = window.entries[0].id
        index = next((i for i, e in enumerate(sitting) if e.id == first_shown), 0)
        return sitting, sitting[:index]

    def conversation_summary(self, window: HistoryWindow) -> str:
        """The running summary, when it belongs to this sitting and the window no longer shows its start."""
        sitting, dropped = self._sitting_and_dropped(window)
        summary = self._summary_store().load()
        return summary.text if dropped and summary.text and summary.session_start_id == sitting[0].id else ""

    def fold_conversation(self, model: ChatModel, user_name: Callable[[], str], should_stop: Callable[[], bool]) -> bool:
        """Fold the sitting's messages that left the next prompt's window into the running summary
        (one model call, only when some left since the last fold). True when the summary changed."""
        budgets = constants.PROMPT_BUDGETS[model.budget_family]
        window = select_history(self.history_before(None), self._anchor_id, budgets["history"], model.count_tokens,
                                self._render_history)
        sitting, dropped = self._sitting_and_dropped(window)
        if not dropped:
            return False
        store = self._summary_store()
        summary = store.load()
        if summary.session_start_id != sitting[0].id:
            summary = ConversationSummary(session_start_id=sitting[0].id)
        done = next((i + 1 for i, e in enumerate(dropped) if e.id == summary.through_id), 0)
        new = dropped[done:]
        if not new:
            return False
        lines = [f"{e.name}: {spoken_text(e.text)[:constants.CONVERSATION_FOLD_LINE_CHARS]}" for e in new]
        while sum(len(line) for line in lines) > constants.CONVERSATION_FOLD_MAX_CHARS and len(lines) > 1:
            lines.pop(0)  # a first fold of a very long sitting: its oldest turns are left to recall
        language = message_language(" ".join(e.text for e in new if e.role == "USER")[-400:], [], self.language_hint()) or "en"
        answer = model.complete_json(*fold_prompt(self.character.name, user_name(), summary.text, lines, language),
                                     SUMMARY_SCHEMA, constants.CONVERSATION_SUMMARY_MAX_TOKENS, should_stop)
        text = within(parse_fold(answer), constants.CONVERSATION_SUMMARY_CHARS)
        if not text:
            log.warning("The conversation summary was not updated: no usable answer (%r)", answer[:120])
            return False
        store.save(summary.model_copy(update={"through_id": new[-1].id, "text": text}))
        return True

    def static_sections(self, model: ChatModel, user_name: str, window: HistoryWindow | None = None,
                        earlier: Sequence[Episode] | None = None) -> list[PromptSection]:
        # What changes least comes first: an edit of the notepad leaves the cached identity,
        # rules and core memory valid.
        rules = reply_rules(self.character.name, user_name, inline_emotion_tag=model.budget_family != "local")
        return [
            PromptSection("identity", "Who you are", self.read("system_prompt")),
            PromptSection("instructions", "How to reply", rules),
            PromptSection("core_memory", "Core memory", self.read("core_memory"), newest_first=True),
            PromptSection("notepad", "Notepad", self.read("notepad")),
            # Entity memory v2: the names only (seed 004 §4, 目次方式); changes when a page is made.
            PromptSection("entity_index", "People, places and things you know", self._entity_index(model)),
            # Goals (seed 004 §6: 3 short + 2 long) and last night's strategy (§5): they change once a
            # night or by a tool or the user's edit, so they stay in the cached part.
            PromptSection("goals", "Your goals", self._goals_text(model)),
            PromptSection("dream_strategy", "What you resolved while dreaming", self.dream_diary().latest_strategy()),
            # Last of the cached part: they change once a night, or when the window moves on.
            PromptSection("episodes", "Earlier days (your episodes)",
                          self._episodes_text(self.episodes_before(window) if earlier is None else earlier, model)
                          if window else "", newest_first=True),
            PromptSection("conversation_summary", "Earlier in this conversation",
                          self.conversation_summary(window) if window else ""),
        ]

    def history_before(self, entry_id: str | None) -> list[LogEntry]:
        """The conversation before this message, as far back as any history window can reach."""
        view = self.chat_log.recent(constants.HISTORY_SCAN_ENTRIES)
        if entry_id is not None:
            index = index_from_end(view, entry_id, missing=len(view))
            view = view[:index]
        return view

    def question_before_last(self, now: datetime) -> str:
        """The user's question just before their last message, when it may be followed up
        (agent/follow_up.py): the last message is the one being answered, already in the log."""
        view = self.history_before(None)
        last = next((i for i in range(len(view) - 1, -1, -1) if view[i].role == "USER"), 0)
        return question_before(view[:last], now)

    def compose_prompt(
        self, model: ChatModel, user_entry: LogEntry, retrieval: RetrievalResult, tools: Sequence[ToolSpec],
        user_name: str, saved_note: str = "", budget_overrides: Mapping[str, int] | None = None,
    ) -> BuiltPrompt:
        """The turn's prompt. `saved_note`: what the app has just kept for the user this turn
        (a "please remember" request), so the reply can say so. `budget_overrides`: section
        budgets that replace the model family's (a benchmark hook; see NexusService)."""
        budgets = {**constants.PROMPT_BUDGETS[model.budget_family], **(budget_overrides or {})}
        before = self.history_before(user_entry.id)
        window = select_history(before, self._anchor_id, budgets["history"], model.count_tokens, self._render_history)
        self._anchor_id = window.anchor_id
        # read once: the prefix, the traces and recall use it
        earlier = self._episodes_that_fit(self.episodes_before(window), budgets["episodes"], model)
        self._note_shown_episodes(earlier, retrieval)
        # An episode the earlier days already show is not recalled a second time: the memories'
        # small room goes to something the prompt does not hold yet.
        retrieval = _recalled_episodes_for_prompt(retrieval, {e.date for e in earlier})
        dynamic = []
        if saved_note:
            dynamic.append(PromptSection("dynamic", "Just saved to your core memory", saved_note))
        offers = self._proposals_for(user_entry.id)
        if offers:  # the night's proposals, told once (seed 004 §4, 二層記録)
            lines = (proposals_intro(model.native_tools), *(proposal_line(p.name, p.kind, p.facts) for p in offers))
            dynamic.append(PromptSection("entity_proposals", "Notes from your sleep", "\n".join(lines), lines,
                                         shorten=lambda line, tokens: fit_to_budget(line, tokens, model.count_tokens, "…")))
        language, wondering = self.turn_language(user_entry, before), ""
        if budgets.get("inner_state", 0) and (feelings := feelings_lines(self.drives(user_entry.id), language,
                                                                          user_name)):  # seed 004 §8: ≥ 0.4
            dynamic.append(PromptSection("inner_state", "How you feel now", "\n".join(feelings), feelings))
        elif budgets.get("opening_thought", 0) and (thought := opening_line(drives := self.drives(user_entry.id),
                                                                            language, user_name)):
            dynamic.append(PromptSection("opening_thought", "On your mind", thought))
            wondering = drives.top_question  # never to be denied in the reply (agent/on_mind.py)
        if not model.native_tools and (pages := self._named_pages(user_entry.text)):  # no tool to read them by
            dynamic.append(PromptSection("entity_page", "Your notes on what the message names", "\n".join(pages), pages,
                                         shorten=lambda line, tokens: fit_to_budget(line, tokens, model.count_tokens, "…")))
        retrieval = retrieval.for_prompt(with_samples=constants.PROMPT_KEYWORD_SAMPLES[model.budget_family])
        if retrieval.items:  # last: memories take the room the rest leaves, whole lines only
            about = without_form_request(user_entry.text)  # the lines' subject, not the reply's form
            lines = retrieval.prompt_lines(user_entry.ts.date() if user_entry.ts else None)  # the day the log's dates use
            dynamic.append(PromptSection(
                "dynamic", "Memories", "\n".join(lines), lines, retrieval.reading_order(),
                shorten=lambda line, tokens: focused_line(line, about, tokens, model.count_tokens),
                join=partial(grouped_by_date, weekdays=names_a_past_weekday(user_entry.text))))
        persona = self.name_in(language)  # one read of character.json for the reminder and the nudge's room
        reminder = reply_reminder(language, persona, user_name, brief=asks_for_brevity(user_entry.text))
        prompt = build_prompt(
            self.static_sections(model, user_name, window, earlier), window, dynamic, user_entry.text, budgets,
            model.count_tokens, render_history=self._render_history, reminder=reminder,
            closing_note=self.time_note(),
            context_tokens=self._prompt_room(model, language, user_name, persona, wondering),
        )
        self.core_memory_left_out = prompt.left_out.get("core_memory", 0)
        told = prompt.context.split("\n")  # a proposal is told when its line is there, whole or cut to fit
        shown = [p.id for p in offers if any(line.startswith(proposal_head(p.name, p.kind)) for line in told)]
        self.entity_proposals.mark(shown, OFFERED, self.clock(), only_from=(PENDING,))
        shown_thought = wondering if prompt.section_tokens.get("opening_thought") else ""
        return replace(prompt, language=language, thought=shown_thought)

    # --- entity memory v2 (seed 004 §4) --------------------------------------------------
    def _entity_index(self, model: ChatModel) -> str:
        names = self.entities.recent_names()  # cut to its budget, the index keeps the pages written last
        return f"{index_hint(model.native_tools)}\n{index_text(names)}" if names else ""

    # --- goals and the dream diary (seed 004 §5, §6) -------------------------------------
    def goals(self) -> GoalStore:
        return GoalStore(self.character.memory_dir, self.files)

    def questions(self) -> OpenQuestionStore:
        return OpenQuestionStore(self.character.memory_dir, self.files)

    def dream_diary(self) -> DreamDiary:
        return DreamDiary(self.character.memory_dir, self.files)

    def _open_questions(self) -> list[tuple[float, datetime, str]]:
        """The unresolved questions as the curiosity drive reads them: (priority, raised or last asked, text)."""
        found = []
        for question in self.questions().unresolved():
            when = parse_timestamp(question.last_asked or question.created_at)
            if when is not None:
                found.append((question.priority, when if when.tzinfo else when.replace(tzinfo=timezone.utc),
                              question.text))
        return found

    def _top_goal(self) -> tuple[float, str] | None:
        """The goal drive's input: the top active goal's priority as 0–1, and its text."""
        active = self.goals().load().active()
        return (priority_weight(active[0].priority), active[0].goal) if active else None

    def _goals_text(self, model: ChatModel) -> str:
        shown = shown_in_prompt(self.goals().load())
        return "\n".join((goals_hint(model.native_tools), *goal_lines(shown, model.native_tools))) if shown else ""

    def _named_pages(self, message: str) -> tuple[str, ...]:
        """The pages of the entities the message names, as lines for the turn's tail."""
        lines: list[str] = []
        for name in names_in(message, self.entities.names()):
            page = self.entities.find(name)
            if page is not None:
                lines.extend(page_lines(page.name, page.kind, page.body))
        return tuple(lines)

    def _proposals_for(self, entry_id: str) -> list[EntityProposal]:
        """The proposals not yet told, once per message: a prompt built again for the same message
        (a keep that changed nothing, a regeneration) tells the same ones."""
        if self._offers[0] != entry_id:
            self._offers = (entry_id, self.entity_proposals.with_status(PENDING))
        return self._offers[1]

    def _prompt_room(self, model: ChatModel, language: str, user_name: str, persona: str, thought: str = "") -> int:
        """What the prompt may take of the model's context: not the reply's room, nor a retry's nudge
        line (with the `thought` on the persona's mind), nor the header the chat template opens the reply
        with (one message's overhead)."""
        nudge = max(map(model.count_tokens, every_retry_nudge(language, persona, user_name, thought)))
        return (constants.CONTEXT_TOKENS[model.budget_family] - max_reply_tokens(model) - nudge
                - 2 * constants.CHAT_TEMPLATE_TOKENS_PER_MESSAGE)

    def turn_language(self, user_entry: LogEntry, before: Sequence[LogEntry]) -> str:
        """The language this message is answered in: its own, or, when it is too short to tell
        ("ok", 「了解」), the user's recent messages' (`before`: the conversation before it) or the
        persona's language hint's."""
        recent: list[str] = []
        for entry in reversed(before):  # newest first, only as far back as needed
            if len(recent) == constants.LANGUAGE_RECENT_MESSAGES:
                break
            if entry.role == "USER":
                recent.insert(0, entry.text)
        return message_language(user_entry.text, recent, self.language_hint())

    def user_language(self) -> str:
        """The language of the user's latest message (`turn_language`), or before any the persona's hint's first."""
        recent = self.chat_log.recent(2 * constants.LANGUAGE_RECENT_MESSAGES + 1)  # its replies between
        last = next((i for i in range(len(recent) - 1, -1, -1) if recent[i].role == "USER"), None)
        if last is None:
            return self.language_hint().split("/")[0].strip() or "en"
        return self.turn_language(recent[last], recent[:last])

    def character_settings(self) -> CharacterSettings:
        """The persona's own settings (character.json; a corrupt file is quarantined, the defaults used)."""
        return self.files.load_json_model(self.character.settings_file, CharacterSettings, CharacterSettings)

    def save_character_settings(self, settings: CharacterSettings) -> None:
        self.files.save_json_model(self.character.settings_file, settings)

    def language_hint(self) -> str:
        """The persona's languages ("ja/en", character.json)."""
        return self.character_settings().language_hint

    def other_names(self) -> tuple[str, ...]:
        """The names besides its folder's the persona goes by (its display name's: アーク for Ark)."""
        return other_names(self.character.name, self.character_settings().display_name)

    def name_in(self, language: str) -> str:
        """The persona's name as a reply in `language` writes it (アーク, not "Ark", in Japanese)."""
        return name_for(language, (self.character.name, *self.other_names()))

    def warm_prompt(self, model: ChatModel, user_name: str) -> BuiltPrompt:
        """The prefix the next turn will start with (static sections + history window)."""
        budgets = constants.PROMPT_BUDGETS[model.budget_family]
        window = select_history(self.history_before(None), self._anchor_id, budgets["history"],
                                model.count_tokens, self._render_history)
        self._anchor_id = window.anchor_id
        prompt = build_prompt(self.static_sections(model, user_name, window), window, [], "", budgets, model.count_tokens,
                              render_history=self._render_history, closing_note=self.time_note())
        self.core_memory_left_out = prompt.left_out.get("core_memory", 0)
        return prompt

    def warm(self, model: ChatModel, user_name: str, only_if_changed: bool = False) -> bool:
        """Evaluate the next turn's prompt prefix so the model has it cached. `only_if_changed`: not
        when it is the one this session last evaluated (the scheduler's look: time alone changes it
        when a sitting ends or the hour turns). True when it was evaluated."""
        prefix = self.warm_prompt(model, user_name).prefix
        if only_if_changed and prefix == self._warmed_prefix:
            return False
        model.warm(prefix)
        self._warmed_prefix = prefix
        return True

    def time_note(self) -> str:
        """The current hour, not minute: it ends the cached prefix, so it is evaluated after a
        reply and at most once an hour more (a minute-exact time cost ~20 tokens every turn)."""
        now = self.clock().astimezone()
        # The date as the memories' lines give theirs ("7 May 2023"): with an ISO date here the
        # model answered "When…?" with "2023-06" (bench qa, session 10).
        return (f"# Now\n{now:%A}, {spelled_out(now.date())}, "
                f"{now.hour:02d}:00–{(now.hour + 1) % 24:02d}:00")


def _last_introduction(entries: Sequence[LogEntry]) -> str:
    """The name the user introduced themself by in the newest of `entries` that introduces one, or ""."""
    return next((name for entry in reversed(entries)
                 if entry.role == "USER" and (name := introduced_name(entry.text))), "")


def _within_limit(which: str, text: str) -> str:
    """The text as a memory file holds it; ValueError over the file's limit (its message is shown)."""
    limit = {"core_memory": constants.MAX_CORE_MEMORY_CHARS, "notepad": constants.MAX_NOTEPAD_CHARS}
    if which in limit and len(text) > limit[which]:
        raise ValueError(f"That is {len(text)} characters; the limit is {limit[which]}.")
    return text.rstrip() + "\n"
