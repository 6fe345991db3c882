"""The one module that imports APScheduler: it wakes the facade's `sleep_tick(now)` every few
minutes in the app process. Whether anything is due is decided there, by pure functions of `now`
(agent/sleep_schedule.py), so tests call the tick with a fixed `now` and never wait for a clock.
"""
from __future__ import annotations

import logging
from datetime import datetime
from typing import Callable

from apscheduler.schedulers.background import BackgroundScheduler

import constants

log = logging.getLogger(__name__)


class SleepScheduler:
    def __init__(self, tick: Callable[[datetime], object], clock: Callable[[], datetime]):
        self._tick = tick
        self._clock = clock
        # One tick at a time: a tick that finds the last one still running is skipped, not queued.
        self._scheduler = BackgroundScheduler(job_defaults={"max_instances": 1, "coalesce": True})

    def start(self) -> None:
        self._scheduler.add_job(self._wake, "interval", minutes=constants.SLEEP_TICK_MINUTES, id="sleep-tick")
        self._scheduler.start()
        log.info("Sleep-time scheduler started (a look every %d minutes)", constants.SLEEP_TICK_MINUTES)

    def _wake(self) -> None:
        try:
            self._tick(self._clock())
        except Exception:  # a failed night must not stop the scheduler: it is logged and tried again
            log.exception("Sleep-time work failed")

    def stop(self) -> None:
        if self._scheduler.running:
            self._scheduler.shutdown(wait=False)
