"""Languages in the browser: the browser's language by default, the switch, the choice remembered,
and the how-to-play page with every tile in all five languages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

I18N = Path(__file__).resolve().parents[2] / "src/halali/web/i18n"
PREY = {"bear": 2, "fox": 2, "lumberjack": 1, "hunter": 4, "duck": 0, "pheasant": 0, "tree": 0}


def strings(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text())


def test_german_browser_gets_the_german_page(server: Any, open_page: Any, shot: Any) -> None:
    de = strings("de")
    page = open_page("/", locale="de-DE")
    page.locator("h1", has_text=de["lobby.heading"]).wait_for()
    assert page.locator("html").get_attribute("lang") == "de"
    assert (page.locator('[data-testid="create-table"]').text_content() or "").strip() == "Tisch eröffnen"
    assert page.locator('[data-testid="quick-computer"]').inner_text() == "Gegen den Computer"
    assert page.locator('[data-testid="link-howto"]').inner_text() == "Spielregeln"
    assert page.locator('[data-testid="lang-select"]').input_value() == "de"
    shot(page, "lobby-german")

    # The table page in German, and a server notice translated from its key.
    table = server.create_table({"match": "match"})
    page.goto(f"{server.url}/table/{table}")
    page.locator('[data-testid="btn-join"]').click()
    notice = page.locator('[data-testid="chat-log"] li[data-key="chat.joined"]')
    notice.wait_for()
    assert notice.inner_text().endswith("nimmt Platz 1.")
    assert page.locator('[data-testid="status"]').inner_text() == de["status.waiting"]
    assert page.locator('[data-testid="match-info"]').inner_text() == de["match.two_games"]
    page.locator('[data-testid="chat-input"]').fill("/help")
    page.locator('[data-testid="chat-input"]').press("Enter")
    help_line = page.locator('[data-testid="chat-log"] li.private')
    help_line.wait_for()
    assert help_line.inner_text().startswith("Befehle:")
    shot(page, "table-german")


def test_language_switch_is_remembered(server: Any, open_page: Any) -> None:
    page = open_page("/", locale="en-US")
    page.locator("h1", has_text=strings("en")["lobby.heading"]).wait_for()
    page.select_option('[data-testid="lang-select"]', "cs")
    page.locator("h1", has_text=strings("cs")["lobby.heading"]).wait_for()
    page.reload()
    page.locator("h1", has_text=strings("cs")["lobby.heading"]).wait_for()
    assert page.locator("html").get_attribute("lang") == "cs"


@pytest.mark.parametrize("lang", ["de", "en", "fr", "it", "cs"])
def test_how_to_play_in_every_language(server: Any, open_page: Any, shot: Any, lang: str) -> None:
    s = strings(lang)
    page = open_page("/how-to-play", locale=lang)
    page.locator("h1", has_text=s["howto.title"]).wait_for()
    for kind in ("bear", "fox", "lumberjack", "hunter", "duck", "pheasant", "tree"):
        card = page.locator(f'[data-testid="card-{kind}"]')
        text = card.inner_text()
        assert s[f"tile.{kind}"] in text
        assert s[f"hint.moves.{kind}"] in text and s[f"hint.captures.{kind}"] in text
        prey = card.locator(".prey svg.tile-icon").count()
        assert prey == PREY[kind]
        assert card.locator("svg.tile-icon").count() - prey == (4 if kind == "hunter" else 1)
    assert s["howto.turn.capture"] in page.locator('[data-testid="howto"]').inner_text()
    if lang in ("de", "en"):
        page.set_viewport_size({"width": 1100, "height": 1400})
        shot(page, f"how-to-play-{lang}")


def test_a_word_by_a_number_takes_the_language_s_plural(server: Any, open_page: Any) -> None:
    page = open_page("/")
    page.locator('[data-testid="lang-select"]').wait_for()
    said = page.evaluate("""async () => {
        const i18n = await import('/static/js/i18n.js');
        const out = {};
        for (const lang of ['en', 'cs']) {
            await i18n.loadLanguage(lang);
            out[lang] = [1, 3, 5].map((points) => i18n.t('luck.luckier', { player: 'X', points }));
        }
        return out;
    }""")
    assert said["en"] == ["X was luckier by about 1 point", "X was luckier by about 3 points",
                          "X was luckier by about 5 points"]
    assert [s.rsplit(" ", 1)[1] for s in said["cs"]] == ["bod", "body", "bodů"]
