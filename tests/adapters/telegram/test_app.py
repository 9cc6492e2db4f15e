"""The Application's handlers, polling the fake Bot API, in front of a stand-in core."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import Any

import pytest

from adapters.telegram.app import ADMIN_CACHE_SECONDS, ADMIN_REFUSED_SECONDS
from adapters.telegram.render import INERT_DATA
from bot.model import codec
from bot.model.contract import (
    Answer,
    Button,
    ChatRef,
    Command,
    Inbound,
    Notice,
    Outbound,
    Press,
    Response,
    Screen,
)
from bot.table.redraw import Drawn
from bot.views import catalog
from bot.views.i18n import available_languages
from engine import Move, Tile
from tests.adapters.delivery.vclock import VirtualClock
from tests.adapters.telegram.fakebot import FakeBotApi
from tests.adapters.telegram.fakeworld import FakeUser
from tests.adapters.telegram.harness import Running, running

GROUP_ID = -100123
GROUP = ChatRef("tg", str(GROUP_ID))
GAME = "abcdefgh"
# Presses whose meaning never turns on the presser being a chat admin ...
NO_ADMIN_NEEDED = {
    "move": codec.move_payload(GAME, 3, Move.play(Tile(6, 4), "L")),
    "my tiles": codec.tiles_payload(GAME),
    "join": codec.lobby_payload(GAME, "join"),
    "leave": codec.lobby_payload(GAME, "leave"),
    "the host's own start": codec.lobby_payload(GAME, "start", host="43"),
    "the host's own computer": codec.lobby_payload(GAME, "add_computer", "strong", "43"),
    "next deal": codec.next_deal_payload(GAME, 1),
    "a game picked": codec.variant_payload("tyaga"),
    "not ours": "p_help",
}
# ... and those only the host or an admin may make.
ADMIN_NEEDED = {
    "start": codec.lobby_payload(GAME, "start"),
    "start in another host's lobby": codec.lobby_payload(GAME, "start", host="42"),
    "cancel": codec.lobby_payload(GAME, "cancel"),
    "add a computer": codec.lobby_payload(GAME, "add_computer"),
    "remove a computer": codec.lobby_payload(GAME, "remove_computer"),
    "settings": codec.lobby_payload(GAME, "settings"),
    "a setting": codec.setting_payload(GAME, "T", 2),
}


def text(line: str, *buttons: Button) -> Screen:
    return Screen(((line,),), (buttons,) if buttons else ())


class EchoCore:
    """Records what it is told; a command opens a message with one button, a press
    is answered with what the button carried."""

    def __init__(self) -> None:
        self.seen: list[Inbound] = []
        self.ticks = 0
        self.due: list[Outbound] = []
        self.fail = False

    async def handle(self, inbound: Inbound) -> Sequence[Outbound]:
        self.seen.append(inbound)
        if self.fail:
            raise RuntimeError("the core broke")
        if isinstance(inbound, Command):
            button = Button("Press", payload=f"p_{inbound.name}")
            shown = text(f"{inbound.name} {inbound.args}", button)
            return [Response(inbound.chat, shown, inbound.message_id, inbound.name)]
        if isinstance(inbound, Press):
            alert = inbound.payload.endswith("alert")
            return [
                Answer(f"you pressed {inbound.payload}", alert=alert),
                Notice(inbound.chat, text("pressed")),
            ]
        return []

    async def tick(self, platform: str) -> Sequence[Outbound]:
        assert platform == "tg"
        self.ticks += 1
        due, self.due = self.due, []
        return due

    async def redraw(self, chat: ChatRef, slot_keys: Collection[str]) -> Drawn | None:
        return None  # it keeps no games

    def steady_hands(self, platform: str) -> None:
        assert platform == "tg"


@pytest.fixture
def core() -> EchoCore:
    return EchoCore()


@pytest.fixture
def ann(fake: FakeBotApi) -> FakeUser:
    fake.add_group(GROUP_ID, "Dominoes")
    user = fake.add_user(42, "Ann")
    fake.started.add(42)
    return user


async def test_the_command_menu_is_registered_in_every_language(
    fake: FakeBotApi, core: EchoCore, clock: VirtualClock
) -> None:
    async with running(fake, core, clock):
        pass
    calls = fake.calls_to("setMyCommands")
    assert len(calls) == len(available_languages())
    english = next(c for c in calls if "language_code" not in c.params)
    names = [c["command"] for c in english.params["commands"]]
    assert names[0] == "newgame" and "startgame" in names and "join" in names
    descriptions = {c["command"]: c["description"] for c in english.params["commands"]}
    assert descriptions["newgame"] == catalog.commands("en")[0].description
    russian = next(c for c in calls if c.params.get("language_code") == "ru")
    said = {c["command"]: c["description"] for c in russian.params["commands"]}
    assert said["newgame"] == "открыть стол для игры"


async def test_a_group_command_reaches_the_core_with_the_senders_admin_status(
    fake: FakeBotApi, core: EchoCore, clock: VirtualClock, ann: FakeUser
) -> None:
    fake.admins[GROUP_ID] = {42}
    async with running(fake, core, clock) as bot:
        fake.type_text(ann, GROUP_ID, "/settings target=51")
        await bot.drain()
    (command,) = core.seen
    assert isinstance(command, Command)
    assert (command.name, command.args, command.is_admin) == ("settings", ("target=51",), True)
    assert [m["text"] for m in fake.bot_messages(GROUP_ID)] == ["settings ('target=51',)"]


async def test_a_group_command_that_needs_no_admin_rights_is_handled_without_asking_telegram(
    fake: FakeBotApi, core: EchoCore, clock: VirtualClock, ann: FakeUser
) -> None:
    fake.admins[GROUP_ID] = {42}
    async with running(fake, core, clock) as bot:
        fake.type_text(ann, GROUP_ID, "/newgame kozel target=51")
        fake.type_text(ann, GROUP_ID, "/join")
        await bot.drain()
    assert [(c.name, c.is_admin) for c in core.seen if isinstance(c, Command)] == [
        ("new", False),
        ("join", False),
    ]
    assert fake.calls_to("getChatMember") == []


async def test_whether_someone_is_an_admin_is_asked_once_in_a_while(
    fake: FakeBotApi, core: EchoCore, clock: VirtualClock, ann: FakeUser
) -> None:
    async with running(fake, core, clock) as bot:
        fake.type_text(ann, GROUP_ID, "/startgame")
        await bot.drain()
        fake.type_text(ann, GROUP_ID, "/stop")
        await bot.drain()
    assert len(fake.calls_to("getChatMember")) == 1
    assert [c.is_admin for c in core.seen if isinstance(c, Command)] == [False, False]


async def test_an_anonymous_admin_is_an_admin_without_asking(
    fake: FakeBotApi, core: EchoCore, clock: VirtualClock, ann: FakeUser
) -> None:
    async with running(fake, core, clock) as bot:
        fake.type_text(None, GROUP_ID, "/stop", anonymous=True)
        await bot.drain()
    (command,) = core.seen
    assert isinstance(command, Command) and command.is_admin
    assert fake.calls_to("getChatMember") == []


async def test_commands_for_another_bot_never_reach_the_core(
    fake: FakeBotApi, core: EchoCore, clock: VirtualClock, ann: FakeUser
) -> None:
    async with running(fake, core, clock) as bot:
        fake.type_text(ann, GROUP_ID, "/join@some_other_bot")
        await bot.drain()
    assert core.seen == []


async def test_a_press_is_answered_with_the_cores_answer_before_anything_else(
    fake: FakeBotApi, core: EchoCore, clock: VirtualClock, ann: FakeUser
) -> None:
    async with running(fake, core, clock) as bot:
        fake.type_text(ann, GROUP_ID, "/rules")
        await bot.drain()
        (message,) = fake.bot_messages(GROUP_ID)
        query = fake.press(ann, message, "p_rules")
        await bot.drain()
    assert fake.answered[query]["text"] == "you pressed p_rules"
    assert not fake.answered[query].get("show_alert")
    methods = [c.method for c in fake.calls if c.method in ("answerCallbackQuery", "sendMessage")]
    assert methods[-2:] == ["answerCallbackQuery", "sendMessage"]
    assert fake.open_queries == {}


async def button_carrying(
    fake: FakeBotApi, bot: Running, ann: FakeUser, payload: str
) -> dict[str, Any]:
    """A message the bot sent to the group, its button made to carry ``payload``."""
    fake.type_text(ann, GROUP_ID, "/help")
    await bot.drain()
    (message,) = fake.bot_messages(GROUP_ID)
    message["reply_markup"]["inline_keyboard"][0][0]["callback_data"] = payload
    return message


@pytest.fixture
def bob(fake: FakeBotApi, ann: FakeUser) -> FakeUser:
    """A group admin whose status the bot has never had a reason to ask about."""
    user = fake.add_user(43, "Bob")
    fake.admins[GROUP_ID] = {43}
    return user


BobPresses = Callable[[str], Awaitable[tuple[str, int]]]


@pytest.fixture
def bob_presses(
    fake: FakeBotApi, core: EchoCore, clock: VirtualClock, ann: FakeUser, bob: FakeUser
) -> BobPresses:
    """Bob presses a button carrying a payload under a message Ann asked for: the query,
    and how many times the bot had asked Telegram about admins before the press."""

    async def press(payload: str) -> tuple[str, int]:
        async with running(fake, core, clock) as bot:
            message = await button_carrying(fake, bot, ann, payload)
            asked = len(fake.calls_to("getChatMember"))
            query = fake.press(bob, message, payload)
            await bot.drain()
        return query, asked

    return press


@pytest.mark.parametrize("payload", NO_ADMIN_NEEDED.values(), ids=NO_ADMIN_NEEDED.keys())
async def test_a_press_that_needs_no_admin_rights_is_answered_without_asking_telegram(
    fake: FakeBotApi, core: EchoCore, bob_presses: BobPresses, payload: str
) -> None:
    query, asked = await bob_presses(payload)
    assert query in fake.answered
    assert len(fake.calls_to("getChatMember")) == asked
    (press,) = [i for i in core.seen if isinstance(i, Press)]
    assert press.payload == payload and not press.is_admin


@pytest.mark.parametrize("payload", ADMIN_NEEDED.values(), ids=ADMIN_NEEDED.keys())
async def test_a_host_press_reaches_the_core_with_the_pressers_admin_status(
    fake: FakeBotApi, core: EchoCore, bob_presses: BobPresses, payload: str
) -> None:
    query, asked = await bob_presses(payload)
    assert query in fake.answered
    assert [c.params["user_id"] for c in fake.calls_to("getChatMember")[asked:]] == [43]
    (press,) = [i for i in core.seen if isinstance(i, Press)]
    assert press.payload == payload and press.is_admin


async def test_a_non_host_pressing_host_actions_is_asked_about_once_in_a_while(
    fake: FakeBotApi, core: EchoCore, clock: VirtualClock, ann: FakeUser, bob: FakeUser
) -> None:
    payload = ADMIN_NEEDED["start in another host's lobby"]
    asked = []
    async with running(fake, core, clock) as bot:
        message = await button_carrying(fake, bot, ann, payload)
        for wait in (0.0, 1.0, 1.0, ADMIN_CACHE_SECONDS):
            clock.advance(wait)
            fake.press(bob, message, payload)
            await bot.drain()
            asked.append(len(fake.calls_to("getChatMember")))
    assert asked == [1, 1, 1, 2]
    assert all(i.is_admin for i in core.seen if isinstance(i, Press))


async def test_an_admin_lookup_telegram_refused_is_not_asked_again_for_a_while(
    fake: FakeBotApi, core: EchoCore, clock: VirtualClock, ann: FakeUser, bob: FakeUser
) -> None:
    payload = ADMIN_NEEDED["start in another host's lobby"]
    fake.inject("getChatMember", 429, "Too Many Requests: retry after 1", retry_after=1)
    asked = []
    async with running(fake, core, clock) as bot:
        message = await button_carrying(fake, bot, ann, payload)
        for wait in (0.0, 1.0, ADMIN_REFUSED_SECONDS):
            clock.advance(wait)
            fake.press(bob, message, payload)
            await bot.drain()
            asked.append(len(fake.calls_to("getChatMember")))
    assert asked == [1, 1, 2]
    admin = [i.is_admin for i in core.seen if isinstance(i, Press)]
    assert admin == [False, False, True]


async def test_an_alert_answer_is_shown_as_a_dialog(
    fake: FakeBotApi, core: EchoCore, clock: VirtualClock, ann: FakeUser
) -> None:
    async with running(fake, core, clock) as bot:
        message = await button_carrying(fake, bot, ann, "p_alert")
        query = fake.press(ann, message, "p_alert")
        await bot.drain()
    assert fake.answered[query]["show_alert"] is True


async def test_a_button_leading_nowhere_is_answered_without_the_core(
    fake: FakeBotApi, core: EchoCore, clock: VirtualClock, ann: FakeUser
) -> None:
    async with running(fake, core, clock) as bot:
        message = await button_carrying(fake, bot, ann, INERT_DATA)
        query = fake.press(ann, message, INERT_DATA)
        await bot.drain()
    assert query in fake.answered
    assert not any(isinstance(i, Press) for i in core.seen)


async def test_a_press_the_core_fails_on_is_still_answered(
    fake: FakeBotApi, core: EchoCore, clock: VirtualClock, ann: FakeUser
) -> None:
    async with running(fake, core, clock) as bot:
        message = await button_carrying(fake, bot, ann, "p_help")
        core.fail = True
        query = fake.press(ann, message, "p_help")
        await bot.drain()
    assert "went wrong" in fake.answered[query]["text"]


async def test_a_failing_update_does_not_stop_the_bot(
    fake: FakeBotApi, core: EchoCore, clock: VirtualClock, ann: FakeUser
) -> None:
    async with running(fake, core, clock) as bot:
        core.fail = True
        fake.type_text(ann, GROUP_ID, "/join")
        await bot.drain()
        core.fail = False
        fake.type_text(ann, GROUP_ID, "/leave")
        await bot.drain()
    assert [m["text"] for m in fake.bot_messages(GROUP_ID)] == ["leave ()"]
