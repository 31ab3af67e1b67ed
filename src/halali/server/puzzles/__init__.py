"""The site's puzzles (docs/puzzles.md): the pages' API, the daily puzzle, puzzles from site games."""
