"""What a button asks of a game: the chat whose game a press may act on, and the
flow (:data:`bot.table.runner.Flow`) a decoded press runs there: a move, a tile's
question, the next deal, a lobby action or a setting."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.model import codec
from bot.model.contract import ChatRef, Press, UserRef
from bot.model.decision import Decision, Game
from bot.table import lobby, play, steady_presses
from bot.table.match_steps import Tempo
from bot.table.runner import Flow
from bot.table.settings import AUTO_START, PINGS, TIMER
from bot.views.i18n import Translator
from bot.views.lobby import decode_option_value
from bot.views.web_links import WebLinks
from engine import get_variant


def game_chat(press: Press, action: codec.GameAction) -> ChatRef | None:
    """The chat whose game a press may act on: the chat it was pressed in, or, for a
    button in the presser's private chat, the game's chat the button names. ``None``
    for a button naming another chat than the one it was pressed in."""
    named = (
        action.chat
        if isinstance(
            action,
            codec.MovePress | codec.TilePress | codec.HandPress | codec.HandAgain | codec.HandLink,
        )
        else None
    )
    if named is None or named == press.chat:
        return press.chat
    return named if press.chat == play.private_chat(press.user) else None


async def press_flow(
    press: Press,
    action: codec.GameAction,
    now: float,
    tempo: Tempo,
    user_lang: Callable[[UserRef], Awaitable[str]],
    steady: bool = False,
    web: WebLinks | None = None,
) -> Flow:
    """The flow a press on one game's button runs (``user_lang`` is asked only for a
    lobby's buttons: a seat taken keeps the presser's language; ``steady``: the game's
    hands are steady ones; ``web``: a hand drawn offers the web table)."""
    user, admin = press.user, press.is_admin
    game_id = action.game_id
    if isinstance(action, codec.MovePress):
        counter, move = action.counter, action.move
        return lambda game, translator: play.press_move(
            game, game_id, user, counter, move, translator=translator, now=now, tempo=tempo
        )
    if isinstance(action, codec.TilesPress):
        return lambda game, translator: play.press_tiles(
            game, game_id, user, translator=translator, steady=steady, web=web
        )
    if isinstance(action, codec.HandPress):
        hand, tile, word = action.hand, action.tile, action.move
        return lambda game, translator: steady_presses.press_hand(
            game, game_id, user, hand, tile, word, translator=translator, now=now, tempo=tempo
        )
    if isinstance(action, codec.HandAgain):
        return lambda game, translator: steady_presses.hand_again(
            game, game_id, user, translator=translator, steady=steady, web=web
        )
    if isinstance(action, codec.TilePress):
        counter, tile = action.counter, action.tile
        return lambda game, translator: play.why_not(
            game, game_id, user, counter, tile, translator=translator
        )
    assert not isinstance(action, codec.RematchPress | codec.HandLink)
    if isinstance(action, codec.NextDealPress):
        deal = action.deal
        return lambda game, translator: play.press_next_deal(
            game, game_id, user, deal, translator=translator, now=now, tempo=tempo
        )
    if isinstance(action, codec.SettingPress):
        key, value = action.key, action.value
        return lambda game, translator: (
            _lobby_only(game, game_id, translator)
            or _setting(game, user, admin, key, value, translator)
        )
    assert isinstance(action, codec.LobbyPress)
    lang, level = await user_lang(user), action.level
    flows: dict[str, Flow] = {
        "join": lambda game, translator: lobby.join(
            game, user, translator=translator, lang=lang, now=now, tempo=tempo
        ),
        "leave": lambda game, translator: lobby.leave(
            game, user, translator=translator, now=now, tempo=tempo
        ),
        "add_computer": lambda game, translator: lobby.add_computer(
            game, user, admin, level, translator=translator
        ),
        "remove_computer": lambda game, translator: lobby.remove_computer(
            game, user, admin, translator=translator
        ),
        "start": lambda game, translator: lobby.start(
            game, user, admin, translator=translator, now=now, tempo=tempo
        ),
        "cancel": lambda game, translator: lobby.cancel(game, user, admin, translator=translator),
        "settings": lambda game, translator: lobby.show_panel(
            game, user, admin, "settings", translator=translator
        ),
        "back": lambda game, translator: lobby.show_panel(
            game, user, admin, "main", translator=translator
        ),
    }
    chosen = flows[action.action]
    return lambda game, translator: (
        _lobby_only(game, game_id, translator) or chosen(game, translator)
    )


def _lobby_only(game: Game | None, game_id: str, translator: Translator) -> Decision | None:
    """A lobby button of another (finished) game gets a refusal."""
    if game is None or game.doc.id != game_id or not game.doc.active:
        return play.finished_button(translator)
    return None


def _setting(
    game: Game | None, user: UserRef, admin: bool, key: str, value: int, translator: Translator
) -> Decision:
    """A settings button: a game option by its index, or a table setting."""
    assert game is not None
    pairs: dict[str, str]
    if key == "T":
        pairs = {TIMER: str(value)}
    elif key in ("A", "P"):
        pairs = {AUTO_START if key == "A" else PINGS: "on" if value else "off"}
    else:
        specs = get_variant(game.doc.variant).option_specs
        index = int(key)
        if not 0 <= index < len(specs):
            return play.finished_button(translator)
        try:
            pairs = {specs[index].name: str(decode_option_value(specs[index], value))}
        except ValueError:
            return play.finished_button(translator)
    return lobby.change_settings(game, user, admin, pairs, translator=translator)
