"""Every test fails when the core logs an exception.

The core turns any crash while handling an update into a short apology and a logged
traceback, so a test that only looks at what the user got would pass over a crash. A
handler on the core's loggers collects every record that carries an exception, and the
test fails at its end if there was one. A test about that very catch-all declares the
crash it causes with ``@pytest.mark.logs_exception``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

CORE_LOGGERS = ("bot", "engine")


class _Crashes(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info is not None and record.exc_info[0] is not None:
            self.records.append(record)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "logs_exception: the test makes the core log an exception on purpose"
    )


@pytest.fixture(autouse=True)
def core_logs_no_exception(request: pytest.FixtureRequest) -> Iterator[None]:
    crashes = _Crashes()
    loggers = [logging.getLogger(name) for name in CORE_LOGGERS]
    for logger in loggers:
        logger.addHandler(crashes)
    try:
        yield
    finally:
        for logger in loggers:
            logger.removeHandler(crashes)
    if crashes.records and request.node.get_closest_marker("logs_exception") is None:
        shown = "\n".join(
            f"{r.name}: {r.getMessage()}\n{logging.Formatter().formatException(r.exc_info)}"  # type: ignore[arg-type]
            for r in crashes.records
        )
        pytest.fail(f"the core logged {len(crashes.records)} exception(s):\n{shown}", False)
