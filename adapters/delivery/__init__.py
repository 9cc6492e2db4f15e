"""The delivery layer the chat platforms share: which message shows which screen at
which version (the slot book), what is queued and not yet shown (the pending book and
the outbox), the catch-up that brings a chat up to the store after a restart, the send
budget every worker of a bot shares, the held turn pings' place in a chat's mailbox,
and the mailboxes that merge a burst of screens into the newest. A platform plugs in
only its transport (:class:`adapters.delivery.transport.Transport`: showing and deleting
a slot's message, one-off messages and files, and its refusals in this layer's words)
and its send rules (:class:`adapters.delivery.limiter.Budget`). Modules here may import
``bot``, ``engine`` and redis, never ``telegram`` or ``discord``."""
