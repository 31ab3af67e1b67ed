"""The engine protocol (docs/ai.md): a bot behind text commands, the runner that talks to engines, the arena."""
