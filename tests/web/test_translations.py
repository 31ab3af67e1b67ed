"""The page's translations are complete: every language has every string with the same
placeholders, and every key the page uses or the server sends (docs/protocol.md, the rule keys of
games/forest/explain.py and of the hare hunt) has a translation. Plain file checks, no browser needed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src/halali/web"
LANGS = ("de", "en", "fr", "it", "cs")
PLACEHOLDER = re.compile(r"\{(\w+)(?::[^{}]*)?\}")  # {name}, or {name:one=…|other=…} (a word by the number)
PLURAL = re.compile(r"\{\w+:([^{}]*)\}")
CATEGORIES = {"zero", "one", "two", "few", "many", "other"}


def load(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))


ENGLISH = load("en")


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_has_every_string(lang: str) -> None:
    strings = load(lang)
    assert set(strings) == set(ENGLISH), (set(ENGLISH) ^ set(strings))
    for key, text in strings.items():
        assert isinstance(text, str) and text.strip(), key
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(ENGLISH[key])), (lang, key)
        for forms in PLURAL.findall(text):  # every word by the number has its "other" form
            named = dict(f.split("=", 1) for f in forms.split("|"))
            assert "other" in named and set(named) <= CATEGORIES, (lang, key, forms)


@pytest.mark.parametrize("lang", [x for x in LANGS if x != "en"])
def test_translations_are_not_english_copies(lang: str) -> None:
    strings = load(lang)
    same = [k for k, v in strings.items() if v == ENGLISH[k] and len(v) > 12 and "{" not in v and "Halali!" not in v]
    assert not same, same


# The Czech texts speak to the player informally, as the German and Italian do (docs/web.md): no formal
# pronoun, and no verb in the second person plural ("hoďte", "jste"), the form that addresses one
# person formally. Czech words that end in -te without being such a verb are listed.
CZECH_FORMAL = re.compile(r"\b(?:[Vv]y|[Vv]ás|[Vv]áš|[Vv]aš\w*|[Vv]ám\w*)\b")
CZECH_NOT_A_VERB = {"roste"}


def test_the_czech_texts_address_the_player_informally() -> None:
    words = {key: PLACEHOLDER.sub("", text) for key, text in load("cs").items()}
    formal = {key: text for key, text in words.items()
              if CZECH_FORMAL.search(text) or set(re.findall(r"\b\w+te\b", text)) - CZECH_NOT_A_VERB}
    assert not formal, formal


def test_server_keys_are_translated() -> None:
    protocol = (ROOT / "docs/protocol.md").read_text(encoding="utf-8")
    keys = set(re.findall(r"`((?:chat|error)\.[a-z_]+)`", protocol))
    assert {"chat.joined", "chat.help", "error.illegal", "error.not_your_turn"} <= keys
    missing = sorted(k for k in keys if k not in ENGLISH)
    assert not missing, missing


def test_keys_in_the_server_code_are_translated() -> None:
    keys: set[str] = set()
    for source in (ROOT / "src/halali/server").glob("*.py"):
        keys |= set(re.findall(r'"((?:chat|error)\.[a-z_]+)"', source.read_text(encoding="utf-8")))
    assert "chat.joined" in keys
    missing = sorted(k for k in keys if k not in ENGLISH)
    assert not missing, missing


def test_rule_keys_of_the_engine_are_translated() -> None:
    explain = (ROOT / "src/halali/games/forest/explain.py").read_text(encoding="utf-8")
    keys = set(re.findall(r'"(rule\.[a-z_]+)"', explain))
    assert "rule.rifle" in keys
    # The green lock is worded by what the opponent did; the page picks the variant from `how`.
    needed = {k for k in keys if k != "rule.green_lock"} | {"rule.green_lock.revealed", "rule.green_lock.moved"}
    missing = sorted(k for k in needed if k not in ENGLISH)
    assert not missing, missing


def test_rule_keys_of_the_hare_hunt_are_translated_with_the_params_the_engine_passes() -> None:
    from halali.games.hare.legality import RULE_KEYS
    from halali.games.hare.phases import PHASES

    # A refusal for the wrong phase is worded by that phase; the page picks the variant from `phase`.
    needed = {key: set(params) for key, params in RULE_KEYS.items() if key != "rule.hare.phase"}
    needed |= {f"rule.hare.phase.{phase}": set() for phase in PHASES if phase != "over"}
    assert {k for k in ENGLISH if k.startswith("rule.hare.")} == set(needed)
    for lang in LANGS:
        strings = load(lang)
        missing = sorted(k for k in needed if k not in strings)
        assert not missing, (lang, missing)
        for key, params in needed.items():
            assert set(PLACEHOLDER.findall(strings[key])) <= params, (lang, key)


def test_keys_used_by_the_page_exist() -> None:
    from halali.server.app import Pages

    pages = Pages(WEB)  # the pages as served: each page's template with the shared top bar
    used: set[str] = set()
    for html in WEB.glob("*.html"):
        text = bytes(pages.response(html.name).body).decode("utf-8")
        used |= set(re.findall(r'data-i18n(?:-[a-z]+)?="([\w.]+)"', text))
    for js in (WEB / "js").glob("*.js"):
        used |= set(re.findall(r'\bt\("([\w.]+)"', js.read_text(encoding="utf-8")))
    assert len(used) > 60
    missing = sorted(k for k in used if k not in ENGLISH)
    assert not missing, missing
