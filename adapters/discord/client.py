"""The Discord client: an auto-sharded gateway client with one ``/domino`` command
group, the game buttons, and a timer loop, started by :func:`run_discord`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import discord
import redis.asyncio as aredis
from discord import app_commands

from adapters.delivery.catchup import CatchUp
from adapters.delivery.clock import Clock
from adapters.delivery.wiring import redis_wiring
from adapters.discord.adapter import Core, DiscordAdapter
from adapters.discord.commands import build_group
from adapters.discord.components import GameItem, is_on_message, parse_custom_id, receive
from adapters.discord.deliver import Delivery
from adapters.discord.messages import HandTokens
from adapters.discord.pings import Pings
from adapters.discord.render import PLATFORM
from adapters.discord.translation import CatalogTranslator
from adapters.discord.web_links import WebLinked, page_delivery
from adapters.web_address import PageDeliveries, WebAddress, web_address
from bot.app.config import Settings
from bot.model.contract import ChatRef

log = logging.getLogger(__name__)

TICK_INTERVAL = 0.5  # seconds between looks at due deadlines
DRAIN_SECONDS = 10.0  # at shutdown, how long queued channel messages may still go out


def intents() -> discord.Intents:
    """Only guild events: commands and buttons arrive as interactions, which need no
    privileged intent, and the bot reads no messages; it hears that a channel message
    was deleted (no privileged intent either), to post a deleted table again."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    wanted.guild_messages = True
    return wanted


class DominoClient(discord.AutoShardedClient):
    """The client; :meth:`attach` connects it to an adapter before it logs in."""

    def __init__(
        self,
        *,
        guild_id: int | None = None,
        shard_ids: list[int] | None = None,
        shard_count: int | None = None,
        **options: Any,
    ) -> None:
        # The bot never joins voice: no warnings about voice libraries at start-up.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        if shard_ids is not None:
            options["shard_ids"] = shard_ids
        super().__init__(
            intents=intents(),
            shard_count=shard_count,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.tree: app_commands.CommandTree[DominoClient] = app_commands.CommandTree(self)
        self.guild_id = guild_id
        self.button_receiver: DiscordAdapter | None = None

    def attach(self, adapter: DiscordAdapter) -> None:
        self.button_receiver = adapter
        self.tree.add_command(build_group(adapter.on_command))

    async def setup_hook(self) -> None:
        # Buttons sent before a restart are parsed back from their custom ids.
        self.add_dynamic_items(GameItem)
        # Each user sees the commands in his client's language.
        await self.tree.set_translator(CatalogTranslator())
        await self.sync_commands()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer the presses no item of discord.py's receives: a button that is not
        ours (another version's, or a stray one) is acknowledged, so Discord does not
        show the presser an error; one of ours that is no longer on its message (a
        double tap on a redrawn hand, a tile of an earlier deal or of a finished match)
        goes to the adapter all the same, which tells the presser it is out of date."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        if parse_custom_id(custom_id) is None:
            await interaction.response.defer()
        elif not is_on_message(interaction, custom_id):
            log.info("a press on %r, no longer on its message", custom_id[:40])
            await receive(interaction, custom_id)

    async def on_raw_message_delete(self, event: discord.RawMessageDeleteEvent) -> None:
        """A message deleted in a server's channel: if it was a slot's (a table someone
        removed), the slot is shown again at once."""
        if event.guild_id is None or self.button_receiver is None:
            return
        chat = ChatRef(PLATFORM, str(event.channel_id))
        try:
            await self.button_receiver.message_deleted(chat, event.message_id)
        except Exception:
            log.exception("could not show a deleted message's slot again")

    async def sync_commands(self) -> None:
        """Register the commands: with a guild id, in that guild only (they show at
        once, for development); otherwise globally."""
        if self.guild_id is not None:
            guild = discord.Object(id=self.guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))


def build_client(
    core: Core,
    redis: aredis.Redis,
    *,
    guild_id: int | None = None,
    shard_ids: list[int] | None = None,
    shard_count: int | None = None,
    clock: Callable[[], float] = time.time,
    pacing: Clock | None = None,
    web: WebAddress | None = None,
    **options: Any,
) -> tuple[DominoClient, DiscordAdapter]:
    """A client wired to the core, not yet logged in; ``clock`` tells token ages and
    when held pings fall due, ``pacing`` (the system's by default) is what the channels'
    send budget waits by; ``web``: where the buttons that open the web table lead. Its
    runner starts and stops the process's liveness key (``adapter.delivery.liveness``)."""
    client = DominoClient(
        guild_id=guild_id, shard_ids=shard_ids, shard_count=shard_count, **options
    )
    messages = HandTokens(redis, clock=clock)
    wiring = redis_wiring(redis, PLATFORM, pacing, wall=time.time)
    delivery = Delivery(client, messages, wiring, Pings(redis, clock=clock))
    linked = core if web is None else WebLinked(core, web)
    adapter = DiscordAdapter(linked, delivery)
    if wiring.pending is not None:
        delivery.catch_up = CatchUp(
            wiring.pending,
            wiring.book,
            linked.redraw,
            delivery.submit,
            wiring.outbox,
            delivery.deliverer.resend,
        )
    core.tables_on_demand(PLATFORM)  # /domino table posts the live table (see respond)
    client.attach(adapter)
    return client, adapter


async def tick_forever(
    adapter: DiscordAdapter, stop: asyncio.Event, interval: float = TICK_INTERVAL
) -> None:
    """Apply due deadlines every ``interval`` seconds until ``stop`` is set."""
    while not stop.is_set():
        try:
            await adapter.tick()
        except Exception:
            log.exception("a timer round failed; trying again")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), interval)


async def run_discord(
    settings: Settings,
    core: Core,
    *,
    redis: aredis.Redis,
    stop_event: asyncio.Event,
    pages: PageDeliveries | None = None,
) -> None:
    """Serve Discord until ``stop_event`` is set (the CLI sets it on SIGTERM/SIGINT), or
    until the gateway connection ends for good (then its error is raised); its delivery
    carries what presses on the web table's pages say to Discord's channels (``pages``)."""
    if settings.discord_token is None:
        raise ValueError("DISCORD_TOKEN is not set")
    client, adapter = build_client(
        core,
        redis,
        guild_id=settings.discord_guild_id,
        shard_ids=settings.discord_shard_ids,
        shard_count=settings.discord_shard_count,
        web=web_address(settings),
    )
    if pages is not None:
        pages[PLATFORM] = page_delivery(adapter, web_address(settings))
    liveness = adapter.delivery.liveness
    if liveness is not None:
        await liveness.start()  # before any hold or turn names this process
    async with client:
        gateway = asyncio.create_task(client.start(settings.discord_token.get_secret_value()))
        timers = asyncio.create_task(
            tick_forever(adapter, stop_event, settings.timer_poll_interval)
        )
        stopping = asyncio.create_task(stop_event.wait())
        try:
            await asyncio.wait({gateway, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop_event.set()
            stopping.cancel()
            await timers
            # The presses being served end first, never cut short; then the channels'
            # mailboxes have a while to empty, and what is still queued is noted by
            # ``close`` for the next process to send.
            await adapter.drain(channels=False)
            try:
                await asyncio.wait_for(adapter.delivery.drain(), DRAIN_SECONDS)
            except TimeoutError:
                log.warning("stopping with channel messages still queued")
            await adapter.delivery.close()
            await client.close()
            if liveness is not None:
                await liveness.stop()
            (ended,) = await asyncio.gather(gateway, return_exceptions=True)
        if isinstance(ended, BaseException):
            raise ended
