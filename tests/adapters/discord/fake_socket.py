"""A fake gateway websocket on the fake API's server, for running the bot the way
``domino-bot discord`` runs it: HELLO, heartbeats answered, IDENTIFY answered with
READY and the guild, then whatever events a test sends. Frames are plain JSON text,
which discord.py reads as it is (only binary frames are decompressed)."""

from __future__ import annotations

import asyncio
import itertools
import json

from aiohttp import WSMsgType, web

from tests.adapters.discord.fake_api import FakeDiscord, Json
from tests.adapters.discord.gateway import Gateway, Person

HELLO, HEARTBEAT, IDENTIFY, HEARTBEAT_ACK, DISPATCH = 10, 1, 2, 11, 0


class FakeSocket:
    def __init__(self, fake: FakeDiscord, gateway: Gateway, people: list[Person]) -> None:
        self.fake = fake
        self.gateway = gateway
        self.people = people
        self.identified = asyncio.Event()
        self.identify: Json = {}
        self._sockets: list[web.WebSocketResponse] = []
        self._sequence = itertools.count(1)
        fake.socket_handler = self._serve

    async def dispatch(self, event: str, data: Json) -> None:
        """Send a DISPATCH event to every connected shard."""
        for socket in list(self._sockets):
            await self._send(socket, {"op": DISPATCH, "t": event, "d": data})

    async def _send(self, socket: web.WebSocketResponse, frame: Json) -> None:
        if frame["op"] == DISPATCH:
            frame["s"] = next(self._sequence)
        await socket.send_str(json.dumps(frame))

    async def _serve(self, request: web.Request) -> web.StreamResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._sockets.append(socket)
        await self._send(socket, {"op": HELLO, "d": {"heartbeat_interval": 45_000}})
        try:
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(message.data)
                if frame["op"] == HEARTBEAT:
                    await self._send(socket, {"op": HEARTBEAT_ACK})
                elif frame["op"] == IDENTIFY:
                    await self._identified(socket, frame["d"])
        finally:
            self._sockets.remove(socket)
        return socket

    async def _identified(self, socket: web.WebSocketResponse, data: Json) -> None:
        self.identify = data
        shard = data.get("shard", [0, 1])
        await self._send(
            socket, {"op": DISPATCH, "t": "READY", "d": self.gateway.ready_payload(shard)}
        )
        guild = self.gateway.guild_payload(self.people)
        await self._send(socket, {"op": DISPATCH, "t": "GUILD_CREATE", "d": guild})
        self.identified.set()
