"""Computers think in worker processes: the same answers as in-process, no process
left behind, and the core plays what the thinker chose."""

from __future__ import annotations

import dataclasses
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil

from bot import ai
from bot.ai.thinker import Question, Thinker, answer
from bot.model.contract import ChatRef
from bot.storage.store import Store
from bot.table.sessions import Sessions
from engine import DOUBLE_SIX, Fixture, Move, new_match, parse_move, view
from tests.bot.driver import SETTINGS, Clock, Table, scripted, user

ALLOWANCE = ai.Allowance.of_worlds(3)


def questions(count: int) -> list[Question]:
    found = []
    for seed in range(count):
        state = new_match("kozel", 3, seed=seed)
        assert state.turn is not None
        found.append(Question(view(state, state.turn), "strong", f"q{seed}", (0, 0, 0), ALLOWANCE))
    return found


def children() -> set[int]:
    """This process's children, but for the one resource tracker that Python's
    multiprocessing starts once and keeps for the life of the process."""
    return {
        child.pid
        for child in psutil.Process().children(recursive=True)
        if "resource_tracker" not in " ".join(child.cmdline())
    }


async def test_a_pool_answers_as_the_process_itself_would_and_leaves_no_process() -> None:
    before = children()
    asked = questions(6)
    async with Thinker(2, ALLOWANCE) as thinker:
        answers = [await thinker.answer(q) for q in asked]
        # The pool starts its workers on demand (a spawned pool does): one may
        # have answered every question, but never more than two are started.
        assert 1 <= len(children() - before) <= 2
    assert answers == [answer(q) for q in asked]
    assert children() == before


# A bot that starts a pool, has one question answered, says its workers and waits.
_BOT = """
import asyncio, psutil
from bot.ai.thinker import Thinker
from tests.bot.test_ai_thinker import questions, ALLOWANCE, children

async def main():
    thinker = Thinker(1, ALLOWANCE)
    await thinker.answer(questions(1)[0])
    print(*children(), flush=True)
    await asyncio.sleep(300)

asyncio.run(main())
"""


def test_the_workers_of_a_bot_killed_outright_end_with_it() -> None:
    root = Path(__file__).resolve().parents[2]
    bot = subprocess.Popen([sys.executable, "-c", _BOT], cwd=root, stdout=subprocess.PIPE)
    try:
        assert bot.stdout is not None
        workers = [psutil.Process(int(pid)) for pid in bot.stdout.readline().split()]
        assert workers
    finally:
        bot.send_signal(signal.SIGKILL)
        bot.wait()
    _, alive = psutil.wait_procs(workers, timeout=60)
    assert alive == []


async def test_a_thinker_with_no_workers_starts_no_process() -> None:
    before = children()
    async with Thinker(0, ALLOWANCE) as thinker:
        assert await thinker.answer(questions(1)[0]) in questions(1)[0].view.legal
    assert children() == before


def test_a_question_that_waited_out_its_budget_gets_the_greedy_move() -> None:
    leads = []
    for seed in range(8):
        state = new_match("tyaga", 2, seed=seed)
        assert state.turn is not None
        leads.append(Question(view(state, state.turn), "strong", f"w{seed}", (0, 0), ALLOWANCE))
    greedy = [ai.choose(q.view, random.Random(q.dice), "greedy", lacks=q.lacks) for q in leads]
    searched = [answer(dataclasses.replace(q, allowance=ai.Allowance.of_worlds(20))) for q in leads]
    assert searched != greedy  # given the time, the search would choose otherwise
    late = ai.Allowance(seconds=0.05)
    waited = [answer(dataclasses.replace(q, allowance=late, asked=time.time() - 1)) for q in leads]
    assert waited == greedy


class Recording(Thinker):
    """Answers in this process and keeps each question and its answer."""

    def __init__(self) -> None:
        super().__init__(0, ALLOWANCE)
        self.asked: list[tuple[Question, Move]] = []

    async def answer(self, question: Question) -> Move:
        move = await super().answer(question)
        self.asked.append((question, move))
        return move


async def test_the_core_plays_the_move_the_thinker_chose(fake_store: Store) -> None:
    clock, thinker = Clock(), Recording()
    sessions = Sessions(fake_store, SETTINGS, clock=clock, thinker=thinker)
    table = Table(sessions, fake_store, ChatRef("tg", "-5"), clock)
    tiles = list(DOUBLE_SIX)
    random.Random(3).shuffle(tiles)
    fixture = Fixture((tuple(tiles[:7]), tuple(tiles[7:14])), tuple(tiles[14:]), leader=1)
    await scripted(table, "tyaga", [user(1, "Anna"), "strong"], fixture)
    clock.advance(SETTINGS.computer_delay + 0.1)
    await table.tick()
    doc = await table.doc()
    assert doc is not None and len(thinker.asked) == 1
    question, chosen = thinker.asked[0]
    assert question.view.seat == 1 and question.level == "strong"
    assert doc.moves[0][0] == 1 and parse_move(doc.moves[0][1]) == chosen.unflipped()
