"""The ``domino-bot`` command as a process of its own: what it loads, how a signal ends it,
and which of its commands the deploy files start."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
import yaml

from bot.app.cli import build_parser
from bot.views.i18n import translator
from tests.test_cli import GOLDEN, NO_STORE_SETTINGS, ROOT


def child_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in NO_STORE_SETTINGS}
    env.update(DATA_DIR=str(tmp_path / "data"), COMPUTER_DELAY="0", PYTHONPATH=str(ROOT))
    return env


# -- processes -------------------------------------------------------------------------


def test_front_ends_are_imported_only_when_they_run(tmp_path: Path) -> None:
    script = (
        "import json, sys\n"
        "from bot.__main__ import main\n"
        f"main(['replay', {str(GOLDEN)!r}])\n"
        "main(['play'])\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=child_env(tmp_path),
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout.splitlines()[-1])
    assert [m for m in loaded if m.split(".")[0] in ("telegram", "discord")] == []
    adapters = [m for m in loaded if m.startswith("adapters.")]
    assert adapters and all(m.startswith("adapters.console") for m in adapters)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stop_signal_at_the_table_leaves_cleanly_and_keeps_the_match(
    tmp_path: Path, stop: signal.Signals
) -> None:
    child = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--seed", "3"],
        env=child_env(tmp_path),
        cwd=tmp_path,
        stdin=subprocess.PIPE,  # open and silent: the table waits at its prompt
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None
    seen = b""
    deadline = time.monotonic() + 30
    while b"You> " not in seen and time.monotonic() < deadline:
        chunk = os.read(child.stdout.fileno(), 4096)
        if not chunk:
            break
        seen += chunk
    assert b"You> " in seen
    child.send_signal(stop)
    assert child.wait(timeout=30) == 0  # its input is still open: the signal alone ended it
    assert child.stderr is not None
    out, err = child.stdout.read(), child.stderr.read()
    assert "» Stopped. The match is saved" in (seen + out).decode()
    assert b"Traceback" not in err
    child.stdin.close()  # type: ignore[union-attr]


def test_ctrl_c_reaching_the_workers_too_stops_the_table_without_a_traceback(
    tmp_path: Path,
) -> None:
    """Ctrl-C at a terminal signals every process of the foreground group: the table's
    and its computers' workers."""
    env = child_env(tmp_path)
    env.update(AI_WORKERS="1", AI_SECONDS="0.01")
    child = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "--seed", "3", "--level", "strong"],
        env=env,
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a group of its own, as a terminal's foreground job
    )
    assert child.stdout is not None and child.stdin is not None
    table = psutil.Process(child.pid)
    seen = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        chunk = os.read(child.stdout.fileno(), 4096)
        assert chunk, seen.decode()
        seen += chunk
        if seen.endswith(b"You> "):
            if len(table.children()) >= 2:  # a worker thought, beside the resource tracker
                break
            child.stdin.write(b"1\n")
            child.stdin.flush()
    assert len(table.children()) >= 2
    os.killpg(child.pid, signal.SIGINT)
    assert child.wait(timeout=30) == 0
    assert child.stderr is not None
    out, err = child.stdout.read(), child.stderr.read()
    assert "» Stopped. The match is saved" in (seen + out).decode()
    assert b"Traceback" not in err, err.decode()
    assert b"KeyboardInterrupt" not in err
    child.stdin.close()


# -- the deploy files use commands that exist -------------------------------------------


def subcommands() -> set[str]:
    parser = build_parser(translator("en"))
    action = next(a for a in parser._actions if a.dest == "command")
    return set(action.choices or ())


def test_every_command_the_deploy_files_run_exists() -> None:
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    used = {compose["services"][name]["command"][0] for name in ("telegram", "discord")}
    used |= {compose["services"]["telegram"]["healthcheck"]["test"][2]}
    for path in (ROOT / "deploy" / "k8s").glob("*.yaml"):
        for document in yaml.safe_load_all(path.read_text()):
            if document and document["kind"] == "Deployment":
                (container,) = document["spec"]["template"]["spec"]["containers"]
                used.add(container["args"][0])
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    used |= set(json.loads(re.search(r"^CMD (.*)$", dockerfile, re.MULTILINE)[1]))  # type: ignore[index]
    unit = (ROOT / "deploy" / "domino-bot.service").read_text()
    used.add(re.search(r"^ExecStart=\S+ (\w+)", unit, re.MULTILINE)[1])  # type: ignore[index]
    assert used == used & subcommands()
    assert {"serve", "telegram", "discord", "health"} <= used


@pytest.mark.slow
async def test_sigterm_stops_the_telegram_bot_cleanly(tmp_path: Path) -> None:
    from tests.adapters.telegram.fakebot import FakeBotApi

    fake = FakeBotApi()
    await fake.start()
    group = -100555
    ann = fake.add_user(501, "Ann")
    fake.add_group(group, "Dominoes")
    env = child_env(tmp_path)
    env.update(TELEGRAM_TOKEN=fake.token, TELEGRAM_BASE_URL=f"http://127.0.0.1:{fake.port}")
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "telegram",
        env=env,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        fake.type_text(ann, group, "/help")
        for _ in range(3000):
            if fake.bot_messages(group):
                break
            await asyncio.sleep(0.01)
        assert fake.bot_messages(group), "the bot never answered /help"
        # Its worker processes: the picture worker is started with the bot.
        workers = psutil.Process(child.pid).children(recursive=True)
        assert any("multiprocessing" in " ".join(w.cmdline()) for w in workers)
        child.send_signal(signal.SIGTERM)
        _out, err = await asyncio.wait_for(child.communicate(), 30)
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
        await fake.close()
    log = err.decode()
    assert child.returncode == 0, log
    assert log.splitlines()[0].startswith("domino-bot: Telegram on an embedded Redis at ")
    assert "SIGTERM received: stopping" in log
    assert log.rstrip().endswith("bot: stopped")  # every front end returned, Redis closed
    assert "Traceback" not in log
    _gone, alive = psutil.wait_procs(workers, timeout=30)
    assert alive == []  # its workers stopped with it
