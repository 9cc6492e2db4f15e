"""What the web table's benchmarks measure with: a web worker in a process of its own
(:mod:`.worker`), pages as WebSocket clients in processes of their own (:mod:`.pages`),
and the parent's side of both (:mod:`.processes`)."""
