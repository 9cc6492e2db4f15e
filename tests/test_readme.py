"""The README documents every setting and links pages that exist."""

from __future__ import annotations

import re
from pathlib import Path

from bot.config import Settings

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_setting_is_in_the_readmes_table() -> None:
    rows = set(re.findall(r"^\| `([A-Z_]+)` \|", README, re.MULTILINE))
    assert rows == {name.upper() for name in Settings.model_fields}


def test_every_setting_in_env_example_is_in_the_readme() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    names = set(re.findall(r"^# ([A-Z_]+)=", example, re.MULTILINE))
    assert names and all(f"`{name}`" in README for name in names)


def test_env_example_copied_as_it_is_sets_nothing() -> None:
    """A copy of it as .env (or as a service's environment file, which sets even an
    empty value and so hides the value the unit gives) changes no setting."""
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert re.findall(r"^\s*[A-Za-z_]+\s*=.*$", example, re.MULTILINE) == []
    assert {f"`{name.upper()}`" for name in Settings.model_fields} == {
        f"`{name}`" for name in re.findall(r"^# ([A-Z_]+)=", example, re.MULTILINE)
    }


def test_local_links_lead_to_files_that_exist() -> None:
    targets = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", README)
    assert "docs/rules.md" in targets and "deploy/README.md" in targets
    assert [t for t in targets if not (ROOT / t).exists()] == []


def test_the_rules_page_links_only_its_own_sections() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    anchors = re.findall(r"\]\(#([^)]+)\)", rules)
    headings = {
        re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-")
        for h in re.findall(r"^## (.+)$", rules, re.MULTILINE)
    }
    assert anchors and set(anchors) <= headings
