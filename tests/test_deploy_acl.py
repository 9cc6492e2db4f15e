"""The Redis users the Kubernetes Secret gives, on a real Redis started for the test:
the bot's URL from the same Secret reaches it and the bot plays, and anyone without the
password may PING (the probe) and do nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
import yaml

from bot.model.contract import ChatRef, Command
from bot.storage.store import Store, connect
from bot.table.sessions import Sessions
from tests.bot.driver import SETTINGS, user
from tests.bot.test_launch_eviction import own_redis

K8S = Path(__file__).resolve().parent.parent / "deploy" / "k8s"


def _secrets() -> dict[str, dict[str, str]]:
    documents = yaml.safe_load_all((K8S / "secret.example.yaml").read_text())
    return {d["metadata"]["name"]: d["stringData"] for d in documents if d}


async def test_the_bots_user_plays_and_anyone_else_may_only_ping(tmp_path: Path) -> None:
    secrets = _secrets()
    (tmp_path / "users.acl").write_text(secrets["redis-acl"]["users.acl"])
    with own_redis(tmp_path, "--aclfile", str(tmp_path / "users.acl")) as url:
        port = url.rsplit(":", 1)[1].split("/")[0]
        bot_url = secrets["domino-bot"]["REDIS_URL"].replace("@redis:6379", f"@127.0.0.1:{port}")
        store = Store(connect(bot_url))
        try:
            chat = ChatRef("tg", "-100321")
            await Sessions(store, SETTINGS).handle(
                Command(chat, user(1, "Anna"), "new", ("tyaga",))
            )
            assert await store.load(chat) is not None
        finally:
            await store.close()
        anyone = redis.Redis.from_url(url)
        try:
            assert anyone.ping()
            with pytest.raises(redis.exceptions.NoPermissionError):
                anyone.keys("*")
            with pytest.raises(redis.exceptions.NoPermissionError):
                anyone.set("mine", "1")
        finally:
            anyone.close()
