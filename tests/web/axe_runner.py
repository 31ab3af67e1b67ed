"""axe-core on a page, its script put into each document once.

``axe_playwright_python``'s ``Axe.run`` evaluates the whole axe-core script (over 500 KB) before every
run; a page checked in five languages, switched in place, parsed and compiled it five times (about
70 ms each). Here the script goes in only when the document has none yet (a new page or a
navigation), then ``axe.run`` runs as the library runs it, on violations only.
"""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import DEFAULT_OPTIONS, Axe, AxeResults


class AxeOnce(Axe):
    def run(self, page: Any, context: str | list[Any] | dict[str, Any] | None = None,
            options: dict[str, Any] | None = DEFAULT_OPTIONS) -> AxeResults:
        if not page.evaluate("() => typeof window.axe?.run === 'function'"):
            page.evaluate(self.axe_script)
        args = self._format_script_args(context=context, options=options)
        return AxeResults(page.evaluate(f"axe.run({args}).then(results => results)"))
