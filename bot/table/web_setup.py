"""Whether this bot offers the web table, read from its settings: only when both its
public address and the secret that signs its passes are set does any screen get a
button to it (a front end's own settings may have neither: they are read with
defaults, as :class:`bot.table.sessions.SessionSettings` says)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.views.web_links import WebLinks, pass_expiry

DEFAULT_PASS_HOURS = 24.0


@dataclass(frozen=True, slots=True)
class WebSetup:
    """The secret that signs the web table's passes, and how many hours one lasts."""

    secret: str
    hours: float = DEFAULT_PASS_HOURS

    def links(self, now: float) -> WebLinks:
        """The passes of a drawing at ``now``."""
        return WebLinks(self.secret, pass_expiry(now, self.hours))


def web_of(settings: object) -> WebSetup | None:
    """The web table's setup in ``settings``, or ``None`` where it is not set up."""
    url = getattr(settings, "web_public_url", None)
    secret = getattr(settings, "web_secret", None)
    if not url or secret is None:
        return None
    given = secret.get_secret_value() if hasattr(secret, "get_secret_value") else str(secret)
    if not given:
        return None
    return WebSetup(given, float(getattr(settings, "web_pass_hours", DEFAULT_PASS_HOURS)))
