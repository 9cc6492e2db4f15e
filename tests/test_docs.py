"""The README and the pages it leads to: the settings page documents every setting,
the README stays short and names make targets that exist, every page is reached from
the README, and every local link leads to a file, and a heading, that exist."""

from __future__ import annotations

import re
from pathlib import Path

from bot.app.config import Settings

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
SETTINGS = (DOCS / "settings.md").read_text(encoding="utf-8")
PAGES = (README, ROOT / "deploy" / "README.md", *sorted(DOCS.glob("*.md")))
FENCED = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"\]\(([^)\s]+)\)")


def text_of(page: Path) -> str:
    """The page without its fenced blocks, where brackets are code, not links."""
    return FENCED.sub("", page.read_text(encoding="utf-8"))


def local_links(page: Path) -> list[tuple[Path, str]]:
    """Each link to this repository as (the file it leads to, the anchor or "")."""
    found = []
    for target in LINK.findall(text_of(page)):
        if ":" in target:  # https://…, mailto:…
            continue
        path, _, anchor = target.partition("#")
        found.append(((page.parent / path).resolve() if path else page, anchor))
    return found


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the page's headings: lower case, punctuation dropped,
    spaces as hyphens, and a repeated heading numbered."""
    seen: dict[str, int] = {}
    names = set()
    for heading in re.findall(r"^#+ (.+)$", text_of(page), re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        names.add(slug if count == 0 else f"{slug}-{count}")
    return names


def test_every_setting_is_in_the_settings_table() -> None:
    rows = set(re.findall(r"^\| `([A-Z_]+)` \|", SETTINGS, re.MULTILINE))
    assert rows == {name.upper() for name in Settings.model_fields}


def test_every_setting_in_env_example_is_on_the_settings_page() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    names = set(re.findall(r"^# ([A-Z_]+)=", example, re.MULTILINE))
    assert names and all(f"`{name}`" in SETTINGS for name in names)


def test_env_example_copied_as_it_is_sets_nothing() -> None:
    """A copy of it as .env (or as a service's environment file, which sets even an
    empty value and so hides the value the unit gives) changes no setting."""
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert re.findall(r"^\s*[A-Za-z_]+\s*=.*$", example, re.MULTILINE) == []
    assert {f"`{name.upper()}`" for name in Settings.model_fields} == {
        f"`{name}`" for name in re.findall(r"^# ([A-Z_]+)=", example, re.MULTILINE)
    }


def test_the_readme_is_short() -> None:
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 150


def test_the_make_targets_the_pages_name_exist() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, re.MULTILINE))
    readme = README.read_text(encoding="utf-8")
    assert "make run    # start the bot" in readme and "make test   # lint" in readme
    named: set[str] = set()
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        named.update(re.findall(r"`make ([a-z][\w-]*)", text))
        for block in FENCED.findall(text):
            named.update(re.findall(r"^make ([a-z][\w-]*)", block, re.MULTILINE))
    assert {"run", "test"} <= named
    assert sorted(named - targets) == []


def test_local_links_lead_to_files_that_exist() -> None:
    targets = [target for target, _anchor in local_links(README)]
    assert DOCS / "rules.md" in targets and ROOT / "deploy" / "README.md" in targets
    missing = [(page.name, t) for page in PAGES for t, _a in local_links(page) if not t.exists()]
    assert missing == []


def test_links_to_a_section_name_a_heading_of_their_page() -> None:
    broken = [
        (page.name, f"{target.name}#{anchor}")
        for page in PAGES
        for target, anchor in local_links(page)
        if anchor and target.suffix == ".md" and anchor not in anchors(target)
    ]
    assert broken == []


def test_every_page_in_docs_is_reached_from_the_readme() -> None:
    reached, todo = {README}, [README]
    while todo:
        for target, _anchor in local_links(todo.pop()):
            if target.suffix == ".md" and target.exists() and target not in reached:
                reached.add(target)
                todo.append(target)
    assert sorted(p.name for p in DOCS.glob("*.md") if p.resolve() not in reached) == []


def test_the_rules_page_links_only_its_own_sections() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(#([^)]+)\)", rules)
    headings = {
        re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-")
        for h in re.findall(r"^## (.+)$", rules, re.MULTILINE)
    }
    assert links and set(links) <= headings
