"""Telegram's HTML parse mode, checked as strictly as the real server does.

Only a handful of tags are allowed, every tag must be closed in order, and a
bare ``<`` or ``&`` that is not an entity fails the whole message with
"can't parse entities".
"""

from __future__ import annotations

import html
import re

ALLOWED_TAGS = {
    "b",
    "strong",
    "i",
    "em",
    "u",
    "ins",
    "s",
    "strike",
    "del",
    "span",
    "tg-spoiler",
    "a",
    "tg-emoji",
    "tg-time",
    "code",
    "pre",
    "blockquote",
}

_TAG = re.compile(r"<(/?)([a-z-]+)((?:\s+[a-z-]+=\"[^\"<>]*\")*)\s*>")
_ENTITY = re.compile(r"&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);")
_HREF = re.compile(r'href="([^"]*)"')
_UNIX = re.compile(r'unix="(\d+)"')


class HtmlError(ValueError):
    pass


def plain_text(text: str) -> str:
    """The visible text of an HTML message; raises HtmlError where Telegram would refuse it."""
    out: list[str] = []
    open_tags: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "<":
            match = _TAG.match(text, i)
            if match is None:
                raise HtmlError(f"unsupported start tag at byte offset {i}")
            closing, name, attrs = match.groups()
            if name not in ALLOWED_TAGS:
                raise HtmlError(f'unsupported start tag "{name}" at byte offset {i}')
            if closing:
                if not open_tags or open_tags.pop() != name:
                    raise HtmlError(f'unexpected end tag "{name}" at byte offset {i}')
            else:
                open_tags.append(name)
                if name == "a" and not _HREF.search(attrs):
                    raise HtmlError(f"a link without href at byte offset {i}")
                if name == "tg-time" and not _UNIX.search(attrs):
                    raise HtmlError(f"a time without unix at byte offset {i}")
            i = match.end()
        elif char == "&":
            match = _ENTITY.match(text, i)
            if match is None:
                raise HtmlError(f"unsupported entity at byte offset {i}")
            out.append(html.unescape(match.group(0)))
            i = match.end()
        elif char == ">":
            raise HtmlError(f"a bare '>' at byte offset {i}")
        else:
            out.append(char)
            i += 1
    if open_tags:
        raise HtmlError(f'can\'t find end tag corresponding to start tag "{open_tags[-1]}"')
    return "".join(out)


def times(text: str) -> list[int]:
    """Every date-time entity's Unix time in an HTML message."""
    return [int(u) for u in _UNIX.findall(text)]


def links(text: str) -> list[str]:
    """Every href in an HTML message."""
    return _HREF.findall(text)
