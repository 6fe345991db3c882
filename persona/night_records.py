"""What the night writes — episodes, entity pages and their proposals, diaries — as the user reads
and edits it through the facade (persona/service.py). The user's edits win: an edited episode is
left as written by the night's work, a deleted one leaves a mark so that day is not written again.
"""
from __future__ import annotations

from datetime import datetime

from managers.diaries import DiaryStore
from managers.entities import OFFERED, PENDING, REJECTED, EntityError, EntityPage, EntityProposal
from managers.episodes import Episode
from managers.personas import PersonaError
from persona.session import CharacterSession


# --- episodes (managers/episodes.py) ---------------------------------------------------
def episodes(session: CharacterSession) -> list[Episode]:
    """The persona's episodes, oldest first (not the ones the user deleted)."""
    return [e for e in session.episodes().all() if not e.deleted]


def _episode(session: CharacterSession, episode_id: str) -> Episode:
    episode = session.episodes().get(episode_id)
    if episode is None:
        raise PersonaError(f"There is no episode {episode_id!r} any more; reload the list.")
    return episode


def save_episode(session: CharacterSession, episode_id: str, summary: str) -> Episode:
    """The user's edit of an episode; the night's work leaves it as the user wrote it."""
    episode = _episode(session, episode_id)
    if not summary.strip():
        raise PersonaError("An episode needs some text; to keep it as it was, reload the list.")
    edited = episode.model_copy(update={"summary": summary.strip(), "user_edited": True})
    session.episodes().put([edited])
    return edited


def delete_episode(session: CharacterSession, episode_id: str) -> None:
    """The user deletes an episode: its text goes (a backup keeps the file as it was), a mark
    stays so the night's work does not write that day again."""
    episode = _episode(session, episode_id)
    session.episodes().put([episode.model_copy(update={"summary": "", "deleted": True})])


# --- entity memory v2 (seed 004 §4; managers/entities.py) ------------------------------
def save_entity_page(session: CharacterSession, name: str, body: str, now: datetime, kind: str = "") -> EntityPage:
    """The user's edit (or a new page): the whole page rewritten atomically, the old one backed up."""
    try:
        return session.entities.replace(name, body, now, kind or None)
    except EntityError as exc:
        raise PersonaError(str(exc)) from exc


def delete_entity_page(session: CharacterSession, name: str) -> None:
    """The page goes; its backup stays in backups/memory/entities/."""
    try:
        session.entities.delete(name)
    except EntityError as exc:
        raise PersonaError(str(exc)) from exc


def entity_proposals(session: CharacterSession) -> list[EntityProposal]:
    """The night's proposals not yet applied: waiting to be told, or told and to be applied next night."""
    return session.entity_proposals.with_status(PENDING, OFFERED)


def reject_entity_proposal(session: CharacterSession, proposal_id: str, now: datetime) -> None:
    """A proposal the user (or the persona) turns down: never applied."""
    if not session.entity_proposals.mark([proposal_id], REJECTED, now, only_from=(PENDING, OFFERED)):
        raise PersonaError("That proposal was applied or dismissed already; reload the list.")


# --- diaries (managers/diaries.py) ---------------------------------------------------
def diaries(session: CharacterSession) -> DiaryStore:
    return DiaryStore(session.character.memory_dir, session.files)


def save_diary(session: CharacterSession, which: str, text: str, shown: str | None = None) -> str:
    """The user's edit of a whole diary: the old file is backed up, the new one written atomically,
    and what it now holds returned; DiaryEditRefused if it changed since `shown` was read."""
    store = diaries(session)
    store.replace_all(which, text, expected=shown)
    return store.read(which)
