"""The benchmarks of docs/performance.md, run from the project folder as ``python -m benchmarks.NAME``."""
