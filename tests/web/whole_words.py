"""Words a layout cut in two: the words of the elements a selector names (and of what they hold)
whose letters run over more than one line, other than at a soft hyphen, where a word may break with
a hyphen. A table squeezed into a narrow column cuts its headers ("Lu / ck") and its numbers
("+5. / 5") so."""

from __future__ import annotations

from typing import Any

_CUT_WORDS = """selector => { const out = [];
  for (const box of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('.sr-only, [hidden]')) continue;
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        if (m[0].includes('\\u00ad')) continue;
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width).map((r) => Math.round(r.top)));
        if (lines.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}"""


def cut_words(page: Any, selector: str) -> list[str]:
    return list(page.evaluate(_CUT_WORDS, selector))


_OVER_LINES = """selector => [...document.querySelectorAll(selector)].filter((e) => {
  const range = document.createRange();
  range.selectNodeContents(e);
  return new Set([...range.getClientRects()].filter((r) => r.width).map((r) => Math.round(r.top))).size > 1;
}).map((e) => e.textContent)"""


def over_lines(page: Any, selector: str) -> list[str]:
    """The texts of the elements ``selector`` names that run over more than one line ("±" on one, its
    number on the next)."""
    return list(page.evaluate(_OVER_LINES, selector))
