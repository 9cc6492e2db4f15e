"""The catalogs are complete and sound, what runs is what they say, and the wheel
carries them.

Babel's own checks judge a translation: its placeholders match the source's
and a plural has as many forms as the language's plural rule.
"""

from __future__ import annotations

import gettext
import io
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.views.i18n import DOMAIN, LOCALE_DIR, available_languages

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = available_languages()
NS = (0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 101, 111)  # every plural form of our languages


def po(lang: str) -> Catalog:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as source:
        return read_po(source, locale=lang)


def template() -> Catalog:
    with (LOCALE_DIR / f"{DOMAIN}.pot").open("rb") as source:
        return read_po(source)


def ids(catalog: Catalog) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_catalog_holds_every_text_of_the_template_and_no_other(lang: str) -> None:
    catalog, wanted = ids(po(lang)), ids(template())
    assert sorted(wanted - catalog)[:5] == [], "run make messages"
    assert sorted(catalog - wanted)[:5] == [], "run make messages"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_a_translation_is_whole_checked_and_not_fuzzy(lang: str) -> None:
    catalog = po(lang)
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert fuzzy[:5] == [], "check these and drop their fuzzy flag"
    empty = [
        m.id
        for m in catalog
        if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string)
    ]
    assert empty[:5] == [], "untranslated"
    broken = [(m.id, [str(e) for e in errors]) for m, errors in catalog.check()]
    assert broken[:3] == []


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_a_plural_has_every_form_of_the_language(lang: str) -> None:
    catalog = po(lang)
    plurals = [m for m in catalog if m.id and m.pluralizable]
    assert plurals
    for message in plurals:
        assert isinstance(message.string, tuple)
        assert len(message.string) == catalog.num_plurals, message.id


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_catalog_says_what_its_source_says(lang: str) -> None:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as mo:
        shipped = gettext.GNUTranslations(mo)
    fresh = io.BytesIO()
    write_mo(fresh, po(lang))
    fresh.seek(0)
    source = gettext.GNUTranslations(fresh)
    stale: list[str] = []
    for message in po(lang):
        if isinstance(message.id, tuple):
            one, many = message.id
            same = all(shipped.ngettext(one, many, n) == source.ngettext(one, many, n) for n in NS)
        elif isinstance(message.id, str) and message.id:  # not the header
            one = message.id
            same = shipped.gettext(one) == source.gettext(one)
        else:
            continue
        if not same:
            stale.append(one)
    assert stale[:5] == [], "run make messages"


@pytest.mark.slow
def test_the_wheel_carries_every_compiled_catalog(tmp_path: Path) -> None:
    """Built as the Dockerfile builds it (setuptools of the lock, with no build isolation),
    from a copy of the tree."""
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    for package in ("engine", "bot", "adapters"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("*.pyc"))
    wheels = tmp_path / "wheels"
    build = f"from setuptools import build_meta; build_meta.build_wheel({str(wheels)!r})"
    subprocess.run(
        [sys.executable, "-c", build], cwd=source, check=True, timeout=300, capture_output=True
    )
    (wheel,) = wheels.glob("domino_bot-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for lang in LANGUAGES:
        assert f"bot/locale/{lang}/LC_MESSAGES/{DOMAIN}.mo" in names
    assert len(LANGUAGES) >= 1
