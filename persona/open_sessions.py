"""The personas' open sessions and the notices the page shows about them.

A session is opened on first use, and opening it finishes what a stopped app left half-done — a
reply cut off while it was written is recovered, a "please remember" whose turn was cut off is
kept — each told as a notice. Files found unreadable (quarantined) are told too.
"""
from __future__ import annotations

from datetime import datetime
from typing import Callable

import constants
from managers.personas import PersonaError, PersonaManager
from persona.heap import freeze_long_lived
from persona.session import CharacterSession, RecoveredReply


def recovered_notice(name: str, recovered: RecoveredReply) -> str:
    return (f"{name}'s last reply was cut off (the app stopped while it was being written); "
            f"the {recovered.chars} characters written so far were recovered and are marked as recovered.")


class OpenSessions:
    def __init__(self, personas: PersonaManager, clock: Callable[[], datetime]):
        self._personas = personas
        self._clock = clock
        self._open: dict[str, CharacterSession] = {}
        self._left_out_told: dict[str, int] = {}  # per persona: core-memory lines left out, as last told
        self.notices: list[str] = []  # the facade adds its own (the settings files' quarantine)

    def get(self, name: str, user_name: Callable[[CharacterSession], str]) -> CharacterSession:
        """`name`'s session, opened now if it is not open; `user_name`: the name a turn cut off
        would have called the user by."""
        character = self._personas.get(name)
        session = self._open.get(character.name)
        if session is None:
            session = CharacterSession(character, self._clock)
            recovered = session.recover_interrupted_reply()
            if recovered:
                self.notices.append(recovered_notice(character.name, recovered))
            # A "please remember" whose turn was cut off lands now (managers/keep_ledger.py).
            for line in session.complete_keep_requests(user_name(session), settle=False):
                self.notices.append(f"🛠️ {character.name} kept what you asked before the app stopped: {line[2:]}")
            self._open[character.name] = session
            # The history is read now, as the page shows it; a long one lives as long as the session.
            if len(session.chat_log.recent(constants.FREEZE_HISTORY_ENTRIES)) >= constants.FREEZE_HISTORY_ENTRIES:
                freeze_long_lived()
        return session

    def check_idle(self, name: str) -> None:
        """PersonaError while `name` is replying: its session may not be closed then."""
        session = self._open.get(name)
        if session is not None and session.turn_lock.locked():
            raise PersonaError(f"{name} is replying right now; wait for the reply or stop it first.")

    def drop(self, name: str) -> None:
        self._open.pop(name, None)

    def tell_what_no_longer_fits(self, session: CharacterSession) -> None:
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
        """The notices, then the open sessions' quarantined files; each is told once."""
        notices = self.notices + [r.message() for s in self._open.values() for r in s.files.quarantined]
        self.notices.clear()
        for s in self._open.values():
            s.files.quarantined.clear()
        return notices
