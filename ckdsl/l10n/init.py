"""``ckdsl l10n init LANG``: a new language's locale file, every entry still to translate.

The template is ``en.yaml`` line by line, so its comments (what each section is, what
each ``{placeholder}`` stands for) stay beside the entries they explain: each text
becomes ``""`` (not yet translated: English is shown, marked, until it is filled in) with
the English written after it as a comment; a message with plural forms gets one empty
form per plural category of the new language (from CLDR, by Babel), not English's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from ckdsl.l10n import plural
from ckdsl.l10n.catalog import REFERENCE, locale_path
from ckdsl.l10n.glossary import SECTION as GLOSSARY
from ckdsl.l10n.sources import HEADER, SECTION
from ckdsl.userfiles import read_user_bytes

# `  key: value` (a value that is not a block scalar or a flow mapping)
_ENTRY = re.compile(r"^(?P<indent>\s*)(?P<key>[A-Za-z0-9_]+):\s+(?P<value>.+?)\s*$")
_BLOCK = re.compile(r"^(?P<indent>\s*)(?P<key>[A-Za-z0-9_]+):\s+[|>][-+]?\s*$")
# Sections whose entries are texts to translate; other lines are kept as they are.
_TEXT_SECTIONS = ("names", "cards", "messages", "counted")


def template(language: str, english: Path | None = None) -> str:
    """The locale file of ``language`` to start translating from; UnsafeFile if the
    English file is not a regular file (a FIFO: refused, never waited on),
    UnicodeDecodeError if it is not UTF-8."""
    source = english or locale_path(REFERENCE)
    lines = read_user_bytes(source).decode("utf-8").splitlines()
    forms = plural.categories(language)
    modeline = lines[:1] if lines and lines[0].startswith("# yaml-language-server") else []
    lines = lines[len(modeline) :]
    out = [
        *modeline,
        f"# {language}: a new translation, made by `ckdsl l10n init {language}` from en.yaml.",
        '# Fill in each "" (the English is the comment after it); an entry left "" shows',
        "# the English, marked ⟨en⟩, and `ckdsl l10n check` lists it as missing. Then",
        f"# `ckdsl l10n update {language}` records which English each translation was made from.",
        f"# Plural forms of {language} (CLDR): {', '.join(forms)}.",
    ]
    out += untranslated(lines, language)
    out += ["", *HEADER, f"{SECTION}: {{}}"]  # nothing translated: no fingerprint yet
    return "\n".join(out) + "\n"


def untranslated(lines: Sequence[str], language: str, section: str = "") -> list[str]:
    """``lines`` of en.yaml (the whole file, or one entry of ``section`` and what it
    holds: ``l10n update`` adds an entry English gained) with each text made ``""`` and
    its English in a comment after it; plural forms those of ``language``."""
    forms = plural.categories(language)
    out: list[str] = []
    k = 0
    while k < len(lines):
        line = lines[k]
        k += 1
        if not line.strip() or line.lstrip().startswith("#"):
            out.append(line)
            continue
        if not line.startswith(" "):  # a top-level key
            section = line.split(":", 1)[0]
            if section == "language":
                out.append(f"language: {language}")
            elif section in ("same_as_english", SECTION, GLOSSARY, "max_length"):
                body = []
                while k < len(lines) and (lines[k].startswith(" ") or not lines[k].strip()):
                    body.append(lines[k])
                    k += 1
                if section == "same_as_english":
                    out.append("same_as_english: []")
                elif section == GLOSSARY:
                    out += _glossary(body, language)
                else:  # max_length: English's, for every language
                    out.append("# (max_length: en.yaml's limits hold for every language)")
            else:
                out.append(line)
            continue
        if section not in _TEXT_SECTIONS:
            out.append(line)
            continue
        block = _BLOCK.match(line)
        if block is not None:  # a text over several lines: the English as comments
            indent = len(block["indent"])
            body = []
            while k < len(lines) and (
                not lines[k].strip() or len(lines[k]) - len(lines[k].lstrip()) > indent
            ):
                body.append(lines[k].strip())
                k += 1
            out.append(f'{block["indent"]}{block["key"]}: ""')
            out += [f"{block['indent']}  # en: {text}" for text in body if text]
            continue
        entry = _ENTRY.match(line)
        if entry is None:  # a key that opens a mapping (a card, a section of names)
            out.append(line)
            continue
        value = entry["value"]
        if value.startswith("{"):  # plural forms: the new language's categories
            empty = ", ".join(f'{form}: ""' for form in forms)
            out.append(f"{entry['indent']}{entry['key']}: {{{empty}}}  # en: {value}")
        else:
            out.append(f'{entry["indent"]}{entry["key"]}: ""  # en: {value}')
    return out


def _glossary(english: Sequence[str], language: str) -> list[str]:
    """An empty glossary, English's below it as comments: the words of one language are
    no guide to another's (English's avoided words mean nothing in German), but its
    concepts are the ones to decide on."""
    out = [
        f"{GLOSSARY}: {{}}",
        f"  # English's, for its concepts: write {language}'s words in place of the {{}} above,",
        '  # as `concept: {term: ..., avoid: [...]}` (docs/l10n.md, "Glossary").',
    ]
    out += [
        f"  # {line.strip()}"
        for line in english
        if line.strip() and not line.lstrip().startswith("#")
    ]
    return [*out, ""]
