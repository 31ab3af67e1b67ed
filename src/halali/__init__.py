"""halali: Halali! on a computer - the forest game's rules engine, bots, server and web page."""

__version__ = "0.1.0"
