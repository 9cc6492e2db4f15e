"""Shuffling a deal: the order is the one seeds have always dealt."""

from __future__ import annotations

import pytest

from engine.dealing import rng, shuffle
from engine.tiles import DOUBLE_SIX, THREE_GUNS_SET, Tile


@pytest.mark.parametrize("tiles", [DOUBLE_SIX, THREE_GUNS_SET, DOUBLE_SIX[:2]], ids=len)
def test_shuffle_orders_tiles_as_random_shuffle_does_from_the_same_generator(
    tiles: tuple[Tile, ...],
) -> None:
    for seed in range(300):
        expected = list(tiles)
        rng(seed, "deal", 1, 0).shuffle(expected)
        shuffled = list(tiles)
        shuffle(shuffled, rng(seed, "deal", 1, 0))
        assert shuffled == expected, f"seed {seed}"


def test_shuffle_keeps_every_tile() -> None:
    pool = list(DOUBLE_SIX)
    shuffle(pool, rng(1, "deal", 1, 0))
    assert sorted(pool) == sorted(DOUBLE_SIX)
    assert pool != list(DOUBLE_SIX)
