"""The scale run: three webhook workers behind one URL (the fake Bot API posts each
update to the next worker in turn) on a Redis Cluster of three masters, with many
groups playing at once for a set time. People press at their pace: when the bot has
written to them (their hand shows their turn, the table moved), looking again every few
seconds at most. At the set time they stop pressing, and the run waits until every
group's table shows the state the store holds (saying how long that took) before it
checks every press of every match, finished or not. It prints moves per second, the
99th percentile from a press to its answer and from a move's press to the group table's
next edit, the highest number of writes one group got in any minute and the whole bot
in any second (both also counted as problems over Telegram's limits), and anything lost
or doubled."""

from __future__ import annotations

import asyncio
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.soak import behind as lag
from bench.soak.group import ANSWER_WAIT, STORE_ERRORS, Group
from bench.soak.kill import bot_env
from bench.soak.presses import Tally
from bench.soak.procs import BotProcess, RedisCluster, free_port
from bot.storage.store import Store, connect
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import Call

WORKERS = 3
SECRET = "soak-secret-0123456789"
# Every call that changes what a chat shows.
WRITES = (
    "sendMessage",
    "editMessageText",
    "editMessageCaption",
    "editMessageReplyMarkup",
    "sendPhoto",
    "sendDocument",
    "editMessageMedia",
    "deleteMessage",
    "pinChatMessage",
    "unpinChatMessage",
)
GROUP_MINUTE, BOT_SECOND = 20, 30  # Telegram's limits
LOOK = 5.0  # people look at least this often, and whenever the bot writes to them
HAND_WAIT = 300.0  # ... and ask for their tiles when no hand came for this long
FINISH_LIMIT = 600.0  # the longest people caught mid-turn at the stop take to end it
DRAIN_LIMIT = 900.0  # the longest the tables may then take to show the stored state


@dataclass
class ScaleOptions:
    minutes: float = 10.0
    groups: int = 10
    keep: Path | None = None
    turn_timeout: int | None = None  # seconds; by default longer than the whole run

    @property
    def timer(self) -> int:
        """The turn timer. A thousand groups wait minutes for their turn in the bot's
        thirty writes a second, and so do their hands: a timer shorter than that queue
        plays for people waiting for their hand. And once the people stop, a timer that
        runs out keeps moving the games whose tables the run waits for (each such move a
        new edit, queued like the rest), so no look ever finds every table caught up:
        by default it is longer than the play, the turns ended after it and the wait."""
        if self.turn_timeout is not None:
            return self.turn_timeout
        return int(self.minutes * 60 + FINISH_LIMIT + DRAIN_LIMIT) + 60


async def scale_run(options: ScaleOptions) -> int:
    workdir = options.keep or Path(tempfile.mkdtemp(prefix="domino-scale-"))
    cluster = RedisCluster(workdir)
    cluster.start()
    fake = FakeBotApi()
    await fake.start()
    ports = [free_port() for _ in range(WORKERS)]
    workers = []
    for n, port in enumerate(ports):
        env = bot_env(fake, cluster.url) | {
            "REDIS_CLUSTER": "true",
            "TELEGRAM_WEBHOOK_URL": "https://bot.example/hook",
            "TELEGRAM_WEBHOOK_SECRET": SECRET,
            "TELEGRAM_WEBHOOK_LISTEN": "127.0.0.1",
            "TELEGRAM_WEBHOOK_PORT": str(port),
            "TURN_TIMEOUT": str(options.timer),
            "TIMER_POLL_INTERVAL": "0.5",  # the default: ten looks a second each is for tests
        }
        workers.append(BotProcess(env, workdir / f"worker{n}.log"))
    for worker in workers:
        worker.start()
    fake.deliver_to([f"http://127.0.0.1:{port}/hook" for port in ports], SECRET)
    await _until_listening(ports)
    client = connect(cluster.url, timeout=5.0, cluster=True)
    store = Store(client)
    tally = Tally()
    gate = asyncio.Event()
    gate.set()
    groups = [
        Group(fake, store, client, -2_000_000 - n, n, tally, gate, LOOK, HAND_WAIT)
        for n in range(options.groups)
    ]
    by_chat = {chat_id: g for g in groups for chat_id in g.chat_ids}
    answers: dict[str, asyncio.Event] = {}
    for group in groups:
        group.nudged = asyncio.Event()
        group.answer_events = answers

    async def watch(call: Call) -> None:
        if call.method == "answerCallbackQuery":
            came = answers.get(str(call.params.get("callback_query_id")))
            if came is not None:
                came.set()
            return
        group = by_chat.get(call.chat_id or 0)
        if group is None or call.method not in WRITES:
            return
        assert group.nudged is not None
        group.nudged.set()
        if call.method == "editMessageText" and call.chat_id == group.chat_id and group.moved_at:
            tally.press_to_edit.append(time.monotonic() - group.moved_at)
            group.moved_at = None

    fake.watchers["scale"] = watch
    started = time.monotonic()
    until = started + options.minutes * 60
    drained: float | None = None
    played = 0.0
    ending = (0, 0.0)
    try:
        await asyncio.gather(*(g.play(10_000, until) for g in groups))
        played = time.monotonic() - started
        finish_by = time.monotonic() + FINISH_LIMIT
        ended = await asyncio.gather(*(g.finish_turn(finish_by) for g in groups))
        ending = (sum(ended), time.monotonic() - started - played)
        drained = await _drain(groups, await lag.at_stop(groups))
        for group in groups:
            await group.check_unfinished()
            await group.check_scoreboard()
    finally:
        # In threads: the fake server, on this loop, answers what they send while draining.
        await asyncio.gather(*(asyncio.to_thread(w.stop) for w in workers))
        await store.close()
        await fake.close()
        cluster.stop()
    # A match cut by the end of the run is not a problem: its presses were checked.
    tally.problems = [p for p in tally.problems if "ran out of time" not in p]
    _report(tally, fake, played, ending, drained, workdir, options)
    return 1 if tally.problems else 0


async def _drain(groups: list[Group], stop: dict[int, lag.Stored]) -> float | None:
    """Seconds from the last press until one look at every group's table finds it
    showing the stored state; ``None`` (each group behind noted and described) if not
    by the limit. Each minute it says how many are behind, and how many of those hold a
    state that moved since the stop."""
    stopped = time.monotonic()
    said = stopped
    while True:
        behind = [g for g in groups if not await _shows_store(g)]
        if not behind:
            return time.monotonic() - stopped
        if time.monotonic() - stopped > DRAIN_LIMIT:
            for group in behind:
                group.tally.problems.append(
                    f"table never caught up: {await lag.describe(group, stop)}"
                )
            return None
        if time.monotonic() - said >= 60:
            said = time.monotonic()
            print(
                f"{said - stopped:4.0f} s after the last press: {len(behind)} tables behind, "
                f"{await lag.moved_since(behind, stop)} of them moved since",
                flush=True,
            )
        await asyncio.sleep(1.0)


async def _shows_store(group: Group) -> bool:
    try:
        return await group.table_shows_store()
    except STORE_ERRORS:  # the store is slow to answer under load: look again
        return False


async def _until_listening(ports: list[int], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    for port in ports:
        while True:
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.2)


def _busiest_minute(fake: FakeBotApi) -> int:
    """The most writes any one group got within 60 seconds."""
    moments: dict[int, list[float]] = {}
    for call in fake.calls:
        if call.method in WRITES and call.chat_id is not None and call.chat_id < 0:
            moments.setdefault(call.chat_id, []).append(call.at)
    return max((_most_within(times, 60.0) for times in moments.values()), default=0)


def _busiest_second(fake: FakeBotApi) -> int:
    """The most writes the bot made to all chats together within one second."""
    return _most_within([c.at for c in fake.calls if c.method in WRITES], 1.0)


def _most_within(moments: list[float], seconds: float) -> int:
    times = sorted(moments)
    best, first = 0, 0
    for last, moment in enumerate(times):
        while moment - times[first] >= seconds:
            first += 1
        best = max(best, last - first + 1)
    return best


def _report(
    tally: Tally,
    fake: FakeBotApi,
    seconds: float,
    ending: tuple[int, float],
    drained: float | None,
    workdir: Path,
    options: ScaleOptions,
) -> None:
    waits = sorted(tally.press_to_edit)
    p99 = waits[min(len(waits) - 1, int(len(waits) * 0.99))] if waits else float("nan")
    # A press not answered within the people's wait counts as longer than any answered.
    answered = sorted(tally.press_to_answer)
    late = tally.presses - len(answered)
    at = min(tally.presses - 1, int(tally.presses * 0.99))
    answer_p99 = "-"
    if 0 <= at < len(answered):
        answer_p99 = f"{answered[at] * 1000:.0f} ms"
    elif at >= 0:
        answer_p99 = f"over {ANSWER_WAIT * 1000:.0f} ms"
    group_minute, bot_second = _busiest_minute(fake), _busiest_second(fake)
    if group_minute > GROUP_MINUTE:
        tally.problems.append(f"a group got {group_minute} writes in a minute")
    if bot_second > BOT_SECOND:
        tally.problems.append(f"the bot made {bot_second} writes in one second")
    writes = [c.at for c in fake.calls if c.method in WRITES]
    span = max(writes) - min(writes) if writes else 0.0
    lines = [
        f"workers              {WORKERS} webhook processes, Redis Cluster of 3 masters",
        f"groups playing       {options.groups} for {seconds:.0f} s, turn timer {options.timer} s",
        f"turns ended after    {ending[0]} people stopped mid-turn, in {ending[1]:.0f} s",
        "tables caught up     "
        + (f"{drained:.0f} s after the last press" if drained is not None else "NOT all"),
        f"games finished       {tally.games}",
        f"moves per second     {tally.moves_checked / seconds:.2f} (people's moves, checked; "
        f"{tally.timer_moves} more made by the turn timer)",
        f"press to answer      p99 {answer_p99} over {tally.presses} presses "
        f"({late} not answered within {ANSWER_WAIT:.0f} s)",
        f"press to table edit  p99 {p99 * 1000:.0f} ms over {len(waits)} moves",
        f"busiest group        {group_minute} writes in a minute",
        f"whole bot            {bot_second} writes in its busiest second, "
        f"{len(writes) / span if span else 0.0:.1f} a second on average over {span:.0f} s",
        f"presses              {tally.presses} ({tally.unanswered} unanswered, "
        f"{tally.refused} refused)",
        f"lost or doubled      {len(tally.problems)}",
        f"logs in              {workdir}",
    ]
    print("\n".join(lines))
    for problem in tally.problems:
        print("  " + problem)
