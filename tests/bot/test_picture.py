"""The table and hand pictures: every game draws in every language, a picture
shows what changed and nothing hidden, the worst positions stay small, and a
picture is stored in colours the eye cannot tell from those drawn."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, cast

import pytest
from PIL import Image, ImageChops

import engine
from bot.model.table import position_table
from bot.picture import hand_png, png, table_png
from bot.picture.samples import NAMES, gallery, states, worst
from bot.picture.status import status_lines
from bot.picture.table import _crosswise, table_picture
from bot.views.i18n import Translator, available_languages, translator
from engine import Placed, State, View
from tests.bot.hand_models import hand_model

GAMES = [("tyaga", 2), ("tyaga", 6), ("kozel", 4), ("baghdad", 2), ("three_guns", 3)]
LIMIT = 150 * 1024


def _image(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _png(
    translator: Translator, view: View, names: Sequence[str], status: Sequence[str] = ()
) -> bytes:
    """The table picture of ``view``, drawn from its model, with the hands it reveals."""
    return table_png(translator, position_table(view, names), names, status, view.revealed)


def _some_states(variant: str, players: int, seed: int = 5) -> list[State[Any]]:
    """Every eighth state of a random match, with each deal's end."""
    played = list(states(variant, players, seed, limit=160))
    return [s for i, s in enumerate(played) if i % 8 == 0 or s.deal_over]


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_every_game_draws_in_every_language(variant: str, players: int) -> None:
    names = NAMES[:players]
    for lang in available_languages():
        _ = translator(lang)
        for state in _some_states(variant, players):
            seen = engine.public_view(state)
            status = status_lines(_, position_table(seen, names), names.__getitem__)
            table = _image(_png(_, seen, names, status))
            assert table.format == "PNG" and table.width == 800
            seat = state.turn if state.turn is not None else 0
            hand = _image(hand_png(_, hand_model(engine.view(state, seat)), "Table", "Your turn"))
            assert hand.format == "PNG"


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_each_move_changes_the_picture(variant: str, players: int) -> None:
    _ = translator("en")
    played = list(states(variant, players, 3, limit=40))
    pictures = [_png(_, engine.public_view(s), NAMES[:players]) for s in played]
    for before, after, picture_before, picture_after in zip(
        played, played[1:], pictures, pictures[1:], strict=False
    ):
        public_before = (before.line, before.turn, [len(h) for h in before.hands])
        public_after = (after.line, after.turn, [len(h) for h in after.hands])
        if public_before != public_after:
            assert picture_before != picture_after, (
                f"move {after.counter} left the picture as it was"
            )


def test_the_same_position_draws_the_same_picture() -> None:
    _ = translator("en")
    sample = gallery()[0]
    assert table_png(_, sample.table, sample.names) == table_png(_, sample.table, sample.names)


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_the_table_shows_no_hidden_tile(variant: str, players: int) -> None:
    """Mid-deal, the table is drawn from its model, which no seat's own view makes,
    and the picture is the same whichever tiles the hands and the boneyard hold, as
    long as each holds as many."""
    _ = translator("en")
    names = NAMES[:players]
    state = next(s for s in states(variant, players, 9) if s.counter >= 4 and not s.deal_over)
    for seat in range(players):
        with pytest.raises(ValueError, match="no seat"):
            position_table(engine.view(state, seat), names)
    hidden = [*(t for hand in state.hands for t in hand), *state.boneyard]
    dealt = hidden[::-1]  # the same tiles held elsewhere
    held = []
    for hand in state.hands:
        held.append(tuple(dealt[: len(hand)]))
        dealt = dealt[len(hand) :]
    other = state.but(hands=tuple(held), boneyard=tuple(dealt))
    assert other.hands != state.hands
    tables = {_png(_, engine.public_view(s), names) for s in (state, other)}
    assert len(tables) == 1
    hands = {hand_png(_, hand_model(engine.view(state, seat)), "T", "") for seat in range(players)}
    assert len(hands) == players


def test_a_finished_deal_shows_every_hand() -> None:
    _ = translator("en")
    state = next(s for s in states("kozel", 3, 4) if s.deal_over)
    view = engine.public_view(state)
    assert any(view.revealed or ())
    hidden = replace(view, revealed=None)
    assert _png(_, view, NAMES[:3]) != _png(_, hidden, NAMES[:3])


def test_a_hand_rings_the_tiles_that_can_be_played() -> None:
    _ = translator("en")
    state = next(s for s in states("tyaga", 2, 1) if s.counter >= 2 and not s.deal_over)
    assert state.turn is not None
    hand = hand_model(engine.view(state, state.turn))
    assert hand.moves
    assert hand_png(_, hand, "T", "") != hand_png(_, hand, "T", "", ringed=False)


@pytest.mark.parametrize("sample", worst(), ids=lambda s: s.name)
def test_the_worst_positions_stay_under_the_size_limit(sample: Any) -> None:
    for lang in available_languages():
        data = _png(translator(lang), sample.view, sample.names, sample.status)
        assert len(data) <= LIMIT, f"{sample.name} in {lang}: {len(data)} bytes"
        assert _image(data).height < 1400


def test_the_gallery_holds_every_game_and_the_positions_it_promises() -> None:
    samples = {s.name: s for s in gallery()}
    assert {s.view.variant for s in samples.values()} == {
        "tyaga",
        "kozel",
        "baghdad",
        "three_guns",
    }
    assert any(s.view.deal_over for s in samples.values())
    assert samples["tyaga-six-players"].view.players == 6
    assert sum(p.across for p in samples["three-guns-across"].view.line) >= 2
    details = samples["baghdad-three-caravans"].view.details
    assert isinstance(details, engine.BaghdadPublic) and len(details.caravans) >= 3


def test_a_caravan_shows_its_owner_its_thief_and_its_handcuffs() -> None:
    """Each of a caravan's marks is drawn: taking one away changes the picture."""
    _ = translator("en")
    sample = next(s for s in gallery() if s.name == "baghdad-three-caravans")
    details = sample.view.details
    assert isinstance(details, engine.BaghdadPublic)
    caravans = details.caravans
    recovered = next(c for c in caravans if c.status == "recovered")
    assert recovered.thief and recovered.handcuffs and recovered.owner is not None

    def drawn(**change: Any) -> bytes:
        changed = tuple(replace(c, **change) if c is recovered else c for c in caravans)
        view = replace(sample.view, details=replace(details, caravans=changed))
        return _png(_, view, sample.names)

    shown = drawn()
    assert shown == _png(_, sample.view, sample.names)
    other_owner = 1 - recovered.owner
    for change in ({"owner": other_owner}, {"thief": None}, {"handcuffs": None}):
        assert drawn(**change) != shown, f"{change} left the picture as it was"


def test_three_guns_draws_the_tiles_laid_across_across() -> None:
    _ = translator("en")
    sample = next(s for s in gallery() if s.name == "three-guns-across")
    along = tuple(p._replace(across=False) for p in sample.view.line)
    assert along != sample.view.line
    flat = replace(sample.view, line=along)
    assert _png(_, flat, sample.names) != _png(_, sample.view, sample.names)


def test_a_double_stands_across_the_line_but_in_three_guns_only_a_tile_laid_across() -> None:
    samples = {s.name: s for s in gallery()}
    for name in ("tyaga-mid-deal", "kozel-mid-deal", "baghdad-mid-deal"):
        crosswise = _crosswise(samples[name].view.variant)
        assert crosswise(Placed(5, 5)) and not crosswise(Placed(5, 3)), name
    guns = _crosswise(samples["three-guns-across"].view.variant)
    assert not guns(Placed(5, 5)) and guns(Placed(5, 1, across=True))


def test_a_picture_is_stored_in_colours_the_eye_cannot_tell_apart() -> None:
    # The worst positions are not among those the palette is learnt from.
    for lang in ("ru", "ca"):
        _ = translator(lang)
        for sample in worst():
            drawn = table_picture(
                _, sample.table, sample.names, sample.status, sample.revealed
            ).convert("RGB")
            stored = _image(png(drawn)).convert("RGB")
            assert stored.size == drawn.size
            bands = ImageChops.difference(drawn, stored).getextrema()  # (low, high) a band
            furthest = [high for _low, high in cast(tuple[tuple[int, int], ...], bands)]
            assert max(furthest) <= 16, (sample.name, furthest)
