"""Every page, for everyone: a guest and an account, both with the longest name registration allows,
on a desktop (1366×850) and on a phone (390×844), in all five languages. axe-core finds no violation
at all (minor ones included), no page scrolls sideways on the phone and no table header there breaks
a word but at a soft hyphen; in the end-of-match dialog and the seat cards no text runs outside its
box, and a name cut short has its whole self in its title and its text (for the mouse and for a
screen reader).

The page is loaded in English and switched through the other languages in place, as a visitor would
switch; the phone is checked for sideways scrolling in every language. By default axe runs once or
twice per page and visitor (guest and account, desktop and phone), the language turning with the page,
so that each page meets all five languages and each visitor every language; `pytest -m slow` runs it
on every page, for every visitor, in every language.
"""

from __future__ import annotations

from typing import Any

import pytest
from long_names import ACCOUNT_PREFIX, GUEST_NAME, World, browser_context, build, pages, settle
from whole_words import cut_words, over_lines

pytestmark = [pytest.mark.browser, pytest.mark.heavy]

LANGS = ("en", "de", "fr", "it", "cs")
VISITORS = [("guest", False), ("guest", True), ("account", False), ("account", True)]
IDS = ["guest-desktop", "guest-phone", "account-desktop", "account-phone"]

SWITCH = """lang => { const s = document.querySelector('[data-testid="lang-select"]');
  s.value = lang; s.dispatchEvent(new Event('change')); }"""

# Elements past the right edge of the page (what makes a phone scroll sideways), for the message.
PAST_THE_EDGE = """() => { const w = document.documentElement.clientWidth; const out = [];
  for (const e of document.querySelectorAll('body *')) { const r = e.getBoundingClientRect();
    if (r.width && r.right > w + 0.5) out.push(`${e.tagName.toLowerCase()}.${e.className}` +
      `[${e.dataset.testid || ''}] to ${Math.round(r.right)} px`); }
  return out.slice(0, 5); }"""

# Every piece of text in a box that shows outside it: a text's rectangle, cut by the boxes on its way
# up that clip (an ellipsis), must lie within the box sideways. A box scrolling up and down is fine.
OUTSIDE_THE_BOX = """box => {
  const frame = box.getBoundingClientRect();
  const out = [];
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || node.parentElement.closest('.sr-only, [hidden]')) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      let left = r.left, right = r.right;
      for (let e = node.parentElement; e && e !== box; e = e.parentElement) {
        if (getComputedStyle(e).overflowX !== 'visible') {
          const c = e.getBoundingClientRect();
          left = Math.max(left, c.left); right = Math.min(right, c.right);
        }
      }
      if (right > left && (left < frame.left - 1 || right > frame.right + 1)) {
        out.push(`"${node.textContent.trim().slice(0, 30)}" from ${Math.round(left)} to ${Math.round(right)} px,` +
          ` box ${Math.round(frame.left)}-${Math.round(frame.right)}`);
      }
    }
  }
  return out;
}"""

# A name cut with an ellipsis keeps its whole self: in its title (hover) and its text (a screen reader).
CUT_NAMES = """box => [...box.querySelectorAll('.name')]
  .filter((e) => e.scrollWidth > e.clientWidth + 1)
  .filter((e) => e.title !== e.textContent || e.textContent.length < 24)
  .map((e) => `${e.textContent} (title ${e.title})`)"""


@pytest.fixture(scope="module")
def world(server: Any) -> World:
    return build(server.url)


def axe_languages(page_index: int, visitor_index: int, everywhere: bool) -> tuple[str, ...]:
    """The languages axe checks for one page and visitor: all of them, or one (two for the first
    visitor), turning with the page, so that each page meets all five languages among the four
    visitors and each visitor meets every language across the pages."""
    if everywhere:
        return LANGS
    first = (page_index + visitor_index) % len(LANGS)
    more = [(page_index + len(VISITORS)) % len(LANGS)] if visitor_index == 0 else []
    return tuple(LANGS[i] for i in [first, *more])


def walk_every_page(browser: Any, world: World, visitor: int, axe: Any, everywhere: bool) -> None:
    who, phone = VISITORS[visitor]
    ctx = browser_context(browser, world, who, phone, "en-GB")
    problems: list[str] = []
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        for index, (name, path) in enumerate(pages(world, who).items()):
            page.goto(world.url + path)
            settle(page, name)
            checked = axe_languages(index, visitor, everywhere)
            # The phone is measured in every language; a desktop only where axe looks.
            for lang in LANGS if phone else [x for x in LANGS if x in checked]:
                if lang != "en":
                    page.evaluate(SWITCH, lang)
                    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
                where = f"{name} ({lang})"
                if phone:
                    wide = page.evaluate("() => document.documentElement.scrollWidth")
                    if wide > 390:
                        problems.append(f"{where} scrolls sideways, {wide} px wide: {page.evaluate(PAST_THE_EDGE)}")
                    cut = cut_words(page, "th")
                    if cut:
                        problems.append(f"{where}: table headers cut in the middle of a word: {cut}")
                    split = over_lines(page, '[data-testid="lb-sigma"]')
                    if split:
                        problems.append(f"{where}: a rating's ± and its number on two lines: {split[:3]}")
                if lang in checked:
                    for v in axe.run(page).response["violations"]:
                        nodes = "; ".join(n["target"][0] for n in v["nodes"][:4] if n["target"])
                        problems.append(f"{where}: axe {v['id']} ({v['impact']}): {v['help']} -> {nodes}")
            page.evaluate(SWITCH, "en")
    finally:
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"
    size = "phone" if phone else "desktop"
    assert not problems, f"{len(problems)} problems for the {who} ({size}):\n" + "\n".join(problems)


@pytest.mark.parametrize("visitor", range(len(VISITORS)), ids=IDS)
def test_every_page_in_every_language(browser: Any, world: World, visitor: int) -> None:
    from axe_runner import AxeOnce as Axe

    walk_every_page(browser, world, visitor, Axe(), everywhere=False)


@pytest.mark.slow
@pytest.mark.parametrize("visitor", range(len(VISITORS)), ids=IDS)
def test_every_page_in_every_language_axe_everywhere(browser: Any, world: World, visitor: int) -> None:
    from axe_runner import AxeOnce as Axe

    walk_every_page(browser, world, visitor, Axe(), everywhere=True)


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_long_names_stay_inside_the_summary_and_the_seats(browser: Any, world: World, phone: bool, shot: Any) -> None:
    ctx = browser_context(browser, world, "guest", phone, "en-GB")
    try:
        page = ctx.new_page()
        problems: list[str] = []
        for name, boxes in (("table-finished", ['[data-testid="summary"] .dialog']),
                            ("table-playing", ['[data-testid="seat-0"]', '[data-testid="seat-1"]'])):
            page.goto(world.url + pages(world, "guest")[name])
            settle(page, name)
            for lang in LANGS:
                if lang != "en":
                    page.evaluate(SWITCH, lang)
                    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
                for selector in boxes:
                    box = page.locator(selector)
                    assert GUEST_NAME in box.inner_text() or ACCOUNT_PREFIX in box.inner_text()
                    problems += [f"{name} {selector} ({lang}): {p}" for p in box.evaluate(OUTSIDE_THE_BOX)]
                    problems += [f"{name} {selector} ({lang}): cut without its whole name: {p}"
                                 for p in box.evaluate(CUT_NAMES)]
                if name == "table-finished":
                    # The dialog's buttons are in sight without scrolling, on the phone too.
                    for button in ("summary-close", "summary-rematch"):
                        target = page.locator(f'[data-testid="{button}"]')
                        if target.is_visible():
                            r = target.bounding_box()
                            assert r and r["y"] + r["height"] <= page.viewport_size["height"], (button, lang, r)
                if lang in ("de", "cs"):
                    shot(page, f"long-names-{name}-{lang}-{'phone' if phone else 'desktop'}")
            page.evaluate(SWITCH, "en")
        assert not problems, "\n".join(problems)
    finally:
        ctx.close()
