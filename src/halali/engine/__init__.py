"""The engine protocol (docs/engine-protocol.md): a bot behind text commands, the runner that talks to
engines, the arena."""
