"""What `ui/` may name besides the facade (persona/service.py): the exceptions its calls raise and
the types and constants of what they return, gathered from the layers below so that the UI imports
from persona/ only. A name the UI needs is added here, not imported from a store in ui/.
"""
from agent.providers.discovery import LocalServer, NotLoopback
from agent.sentences import shortened
from managers.chat_log import STATUS_RECOVERED, STATUS_STOPPED, LogEntry
from managers.diaries import DIARY_FILES, MAIN_DIARY, SECRET_DIARY, DiaryEditRefused
from managers.documents import SUPPORTED_EXTENSIONS, DocumentRejected
from managers.embeddings import EmbedderUnavailable
from managers.knowledge import KnowledgeError
from managers.memory_db import StoreClosed
from managers.personas import PersonaError
from persona.episode_view import ALL_MONTHS, EpisodeMonths
from persona.sleep import SleepBusy
from persona.speak_first_job import FIRST_MARK

__all__ = [
    "ALL_MONTHS", "DIARY_FILES", "DiaryEditRefused", "MAIN_DIARY", "SECRET_DIARY",
    "DocumentRejected", "EpisodeMonths", "FIRST_MARK", "EmbedderUnavailable", "KnowledgeError", "LocalServer", "LogEntry", "NotLoopback",
    "PersonaError", "SleepBusy", "STATUS_RECOVERED", "STATUS_STOPPED", "SUPPORTED_EXTENSIONS", "StoreClosed",
    "shortened",
]
