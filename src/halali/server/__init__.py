"""The game server: an ASGI app serving the page, the lobby and the tables over one WebSocket.

The way of one action: a client sends it in notation, the table checks it with the rules, the store
commits it, and only then every connection at the table gets its own view of the new position.
"""
