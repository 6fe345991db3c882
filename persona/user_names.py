"""The name the persona calls the user by. Settings' name wins; while Settings has none of the
user's own, the name the user introduced themself by in the conversation ("I'm Ken") is used —
unless the user declined to save it — and the page offers to save it.
"""
from __future__ import annotations

from typing import Callable

import constants
from managers.config import AppSettings


def names_default(user_name: str) -> bool:
    """Settings has no name of the user's own (empty, or the placeholder "User")."""
    return user_name.strip() in ("", constants.DEFAULT_USER_NAME)


def name_to_use(settings: AppSettings, introduced: Callable[[], str]) -> str:
    """Settings' name, or while it has none, the introduced one (`introduced` reads it: only then)."""
    if not names_default(settings.user_name):
        return settings.user_name
    name = introduced()
    return name if name and name not in settings.declined_user_names else settings.user_name


def name_to_offer(settings: AppSettings, introduced: Callable[[], str]) -> str:
    """An introduced name that Settings does not have yet and the user did not decline; "" when there is none."""
    if not names_default(settings.user_name):
        return ""
    name = introduced()
    return "" if not name or name in settings.declined_user_names else name
