"""Gateway events for the real discord.py client, fed to its connection state the way
the gateway would: READY, GUILD_CREATE, then INTERACTION_CREATE for commands (type 2)
and components (type 3, with the message they are on).

The payloads follow Discord's documented shapes; only the fields discord.py reads are
filled in. This reaches into ``client._connection``, which is why discord.py is pinned
to a minor version.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import discord

from tests.adapters.discord.fake_api import FakeDiscord, InteractionRecord, Json

MANAGE_GUILD = 1 << 5
SEND_MESSAGES = 1 << 11
VIEW_CHANNEL = 1 << 10
MEMBER_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | (1 << 31)  # + use application commands
PUBLIC_THREAD = 11


@dataclass(frozen=True)
class Person:
    id: int
    name: str
    admin: bool = False
    locale: str = "en-US"

    def user(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name.lower(),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
        }

    def member(self) -> Json:
        permissions = MEMBER_PERMISSIONS | (MANAGE_GUILD if self.admin else 0)
        return {
            "user": self.user(),
            "roles": [],
            "joined_at": datetime.now(UTC).isoformat(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(permissions),
        }


class Gateway:
    """Injects gateway events into one client, for one guild the fake knows."""

    def __init__(self, fake: FakeDiscord, client: discord.Client | None, guild_id: int) -> None:
        """``client``: the client to inject into; ``None`` to build payloads only (for
        the fake gateway socket)."""
        self.fake = fake
        self.client = client
        self.guild_id = guild_id
        self.channels: dict[int, Json] = {}

    def add_channel(self, channel_id: int, *, thread_of: int | None = None) -> None:
        kind = PUBLIC_THREAD if thread_of is not None else 0
        self.fake.add_channel(channel_id, self.guild_id, kind=kind)
        channel: Json = {
            "id": str(channel_id),
            "type": kind,
            "guild_id": str(self.guild_id),
            "name": f"channel-{channel_id}",
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": str(thread_of) if thread_of is not None else None,
        }
        if thread_of is not None:
            channel["owner_id"] = self.fake.owner_user["id"]
            channel["thread_metadata"] = {
                "archived": False,
                "auto_archive_duration": 1440,
                "archive_timestamp": datetime.now(UTC).isoformat(),
                "locked": False,
            }
            channel["member_count"] = 2
            channel["message_count"] = 0
        self.channels[channel_id] = channel

    def connect(self, people: list[Person]) -> None:
        """READY for shard 0, then the guild with its channels and members."""
        state = self._state()
        state.parse_ready(self.ready_payload([0, 1]))
        state.parse_guild_create(self.guild_payload(people))

    def ready_payload(self, shard: list[int]) -> Json:
        return {
            "v": 10,
            "user": self.fake.bot_user,
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": secrets.token_hex(8),
            "resume_gateway_url": "wss://gateway.invalid",
            "shard": shard,
            "application": {"id": str(self.fake.app_id), "flags": 0},
        }

    def guild_payload(self, people: list[Person]) -> Json:
        plain = [c for c in self.channels.values() if c["type"] != PUBLIC_THREAD]
        threads = [c for c in self.channels.values() if c["type"] == PUBLIC_THREAD]
        return {
            "id": str(self.guild_id),
            "name": "Domino club",
            "owner_id": self.fake.owner_user["id"],
            "roles": [_everyone_role(self.guild_id)],
            "channels": plain,
            "threads": threads,
            "members": [p.member() for p in people],
            "member_count": len(people),
            "emojis": [],
            "stickers": [],
            "features": [],
            "voice_states": [],
            "presences": [],
            "large": False,
            "unavailable": False,
            "joined_at": datetime.now(UTC).isoformat(),
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
        }

    def _base(
        self, person: Person, channel_id: int, kind: int, age: float = 0.0
    ) -> tuple[Json, InteractionRecord]:
        """``age``: seconds since the interaction was made (one the gateway delivers
        late, replayed after a resume)."""
        record = InteractionRecord(
            id=self.fake.snowflake(age=age),
            token=secrets.token_urlsafe(48),
            kind=kind,
            channel_id=channel_id,
            guild_id=self.guild_id,
            user_id=person.id,
            user=person.user(),
            created=self.fake.now() - age,
        )
        self.fake.register_interaction(record)
        payload: Json = {
            "id": str(record.id),
            "application_id": str(self.fake.app_id),
            "type": kind,
            "token": record.token,
            "version": 1,
            "guild_id": str(self.guild_id),
            "channel_id": str(channel_id),
            "channel": self.channels[channel_id],
            "member": person.member(),
            "app_permissions": str(self.fake.app_permissions(channel_id)),
            "locale": person.locale,
            "guild_locale": "en-US",
            "attachment_size_limit": 8 * 1024 * 1024,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
        }
        return payload, record

    def command(
        self, person: Person, channel_id: int, sub: str, options: dict[str, Any]
    ) -> InteractionRecord:
        """Type 2: ``/domino <sub>`` with option values, typed as the synced command says."""
        return self._inject(*self.command_payload(person, channel_id, sub, options))

    def command_payload(
        self, person: Person, channel_id: int, sub: str, options: dict[str, Any]
    ) -> tuple[Json, InteractionRecord]:
        payload, record = self._base(person, channel_id, 2)
        synced = self._synced_group()
        spec = next(o for o in synced["options"] if o["name"] == sub)
        types = {o["name"]: o["type"] for o in spec.get("options", [])}
        unknown = set(options) - set(types)
        if unknown:
            raise KeyError(f"/domino {sub} has no option {sorted(unknown)}")
        payload["data"] = {
            "id": synced["id"],
            "name": synced["name"],
            "type": 1,
            "guild_id": str(self.guild_id),
            "options": [
                {
                    "type": 1,
                    "name": sub,
                    "options": [
                        {"type": types[name], "name": name, "value": value}
                        for name, value in options.items()
                    ],
                }
            ],
        }
        return payload, record

    def component(
        self,
        person: Person,
        message: Json,
        custom_id: str,
        *,
        channel_id: int | None = None,
        values: list[str] | None = None,
        age: float = 0.0,
    ) -> InteractionRecord:
        """Type 3: a press on a button of ``message`` (a message the bot sent), or with
        ``values``, a choice in one of its select menus."""
        channel = channel_id if channel_id is not None else int(message["channel_id"])
        payload, record = self._base(person, channel, 3, age)
        payload["message"] = message
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            payload["data"] = {"custom_id": custom_id, "component_type": 3, "values": values}
        record.source_message_id = int(message["id"])
        record.pressed = dict(message)
        return self._inject(payload, record)

    def message_deleted(self, message: Json) -> None:
        """Someone (a moderator) deletes ``message``: gone from the fake, and
        MESSAGE_DELETE sent to the client."""
        self.fake.messages.pop(int(message["id"]), None)
        self.fake.record("delete", message, "moderator")
        event = {
            "id": message["id"],
            "channel_id": message["channel_id"],
            "guild_id": str(self.guild_id),
        }
        self._state().parse_message_delete(event)

    def _state(self) -> Any:
        assert self.client is not None, "this gateway only builds payloads"
        return self.client._connection

    def _synced_group(self) -> Json:
        for scope in (str(self.guild_id), "global"):
            for command in self.fake.commands.get(scope, []):
                if command["name"] == "domino":
                    return command
        raise AssertionError("the bot never synced /domino")

    def _inject(self, payload: Json, record: InteractionRecord) -> InteractionRecord:
        self._state().parse_interaction_create(payload)
        return record


def _everyone_role(guild_id: int) -> Json:
    return {
        "id": str(guild_id),
        "name": "@everyone",
        "permissions": str(MEMBER_PERMISSIONS),
        "position": 0,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }
