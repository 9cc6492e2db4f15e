"""Computers think in worker processes, so a search never holds up the event loop.

A :class:`Question` is everything one decision needs, as plain picklable data:
the seat's view, the clues, the level, the dice's seed and the allowance. A
:class:`Thinker` with ``workers`` processes answers questions in a
``ProcessPoolExecutor`` (the standard library's pool: one search is pure CPU
work in Python, which threads cannot run in parallel); with no workers it
answers in the calling process, which tests and tools that have no event loop
to protect use.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import time
from dataclasses import dataclass
from typing import Final, Protocol

from bot.ai import Allowance, choose
from bot.ai.review import Judged, ReviewJob, review
from bot.ai.workers import Pooled, end_with_the_bot, spawn_all, spawned_pool
from engine import Move, View

WORKER_NICENESS = 10
#: Kept back from a pooled decision's allowance for the answer's way back to the bot.
WAY_BACK: Final = 0.006


@dataclass(frozen=True, slots=True)
class Question:
    view: View
    level: str
    dice: str  # the seed of the decision's random generator
    lacks: tuple[int, ...]
    allowance: Allowance
    asked: float | None = None  # when it was sent to a worker (``time.time()``)


def answer(question: Question) -> Move:
    """The move for ``question`` (runs in a worker process). A question sent to
    a worker thinks for what is left of its allowance once it is taken up, less the
    way back, so the bot has its answer within the allowance even when the
    question waited for a free worker."""
    rng = random.Random(question.dice)
    allowance = question.allowance
    if question.asked is not None:
        waited = max(0.0, time.time() - question.asked)
        allowance = allowance.less(waited + WAY_BACK)
    return choose(question.view, rng, question.level, allowance, question.lacks)


class AllowanceSettings(Protocol):
    @property
    def ai_seconds(self) -> float: ...
    @property
    def ai_worlds(self) -> int | None: ...


def allowance_of(settings: AllowanceSettings) -> Allowance:
    """The settings' allowance; with a number of worlds set, that number alone (so a
    decision depends on the game's seed and not on how busy the machine is)."""
    if settings.ai_worlds is not None:
        return Allowance.of_worlds(settings.ai_worlds)
    return Allowance(seconds=settings.ai_seconds)


def _yield_to_the_bot() -> None:
    """A worker runs at a lower priority than the bot's own process, so that on a
    busy machine presses are served before searches; and it ends with the bot."""
    os.nice(WORKER_NICENESS)
    end_with_the_bot()


class Thinker(Pooled):
    """Answers questions in ``workers`` processes (none: in this process)."""

    def __init__(self, workers: int = 0, allowance: Allowance | None = None) -> None:
        if workers < 0:
            raise ValueError(f"workers must be 0 or more, not {workers}")
        self.workers = workers
        self.allowance = allowance or Allowance()
        self._pool = None

    def start(self) -> None:
        """Spawn the workers now rather than at the first question (see
        :mod:`bot.ai.workers` for why a full-screen terminal needs this)."""
        if self.workers and self._pool is None:
            pool = spawned_pool(self.workers, _yield_to_the_bot)
            spawn_all(pool, self.workers)
            self._pool = pool

    def question(self, view: View, level: str, dice: str, lacks: tuple[int, ...]) -> Question:
        return Question(view, level, dice, lacks, self.allowance)

    async def review(self, job: ReviewJob) -> tuple[Judged, ...]:
        """A finished match reviewed from one seat, in a worker (with none, in a thread),
        never on the event loop: it takes seconds."""
        if self.workers == 0:
            return await asyncio.to_thread(review, job)
        if self._pool is None:
            self._pool = spawned_pool(self.workers, _yield_to_the_bot)
        return await asyncio.get_running_loop().run_in_executor(self._pool, review, job)

    async def answer(self, question: Question) -> Move:
        if self.workers == 0:
            return answer(question)
        self.start()
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        sent = dataclasses.replace(question, asked=time.time())
        return await loop.run_in_executor(self._pool, answer, sent)
