"""A started bot process keeps its start-up objects out of the collector's sight and
collects the young less often."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from bot.app import gc_tuning


@pytest.fixture
def collector() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.mark.usefixtures("collector")
def test_what_start_up_made_is_frozen_and_the_young_are_collected_less_often() -> None:
    made_at_start_up = {"seats": [1, 2]}
    older = gc.get_threshold()[1:]
    assert any(o is made_at_start_up for o in gc.get_objects())
    gc_tuning.freeze_startup()
    assert not any(o is made_at_start_up for o in gc.get_objects())  # out of sight
    assert gc.get_threshold() == (gc_tuning.YOUNG, *older)
