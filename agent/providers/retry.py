"""Retries with exponential backoff, in one place for every provider.

A stream is retried only while it has produced nothing: once text reached the user, a retry
would duplicate it, so a later failure is raised as is.
"""
from __future__ import annotations

import logging
import time
from typing import Callable, Iterator, TypeVar

import constants
from agent.providers.base import ProviderError

log = logging.getLogger(__name__)
T = TypeVar("T")


def backoff_delays(
    attempts: int = constants.RETRY_ATTEMPTS,
    base: float = constants.RETRY_BASE_DELAY_S,
    cap: float = constants.RETRY_MAX_DELAY_S,
) -> list[float]:
    """Delays before each retry: base, 2·base, 4·base… capped."""
    return [min(cap, base * (2**i)) for i in range(max(0, attempts - 1))]


def retrying_stream(
    start: Callable[[], Iterator[T]],
    sleep: Callable[[float], None] = time.sleep,
    delays: list[float] | None = None,
) -> Iterator[T]:
    delays = backoff_delays() if delays is None else delays
    attempt = 0
    while True:
        produced = False
        try:
            for item in start():
                produced = True
                yield item
            return
        except ProviderError as exc:
            if produced or not exc.retryable or attempt >= len(delays):
                raise
            log.warning("Provider error (%s); retry %d in %.1fs", exc.user_message, attempt + 1, delays[attempt])
            sleep(delays[attempt])
            attempt += 1
