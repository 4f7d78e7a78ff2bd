"""The YAML loader: positions, duplicate keys, YAML 1.2 scalars, and every kind of bad input.

Each bad input must give one clear diagnostic at a pinned line and column, never an
exception.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ckdsl.rules import yamlload
from ckdsl.rules.yamlload import load_yaml, parse_yaml


def one_error(text: str) -> str:
    _doc, problems = parse_yaml(text, "t.yaml")
    assert len(problems) == 1, problems
    return problems[0].format()


def test_positions_of_keys_and_values() -> None:
    doc, problems = parse_yaml("a: 1\nb:\n  - x\n  - {c: d}\n", "t.yaml")
    assert not problems and doc is not None
    assert doc.data == {"a": 1, "b": ["x", {"c": "d"}]}
    pos = doc.positions
    assert (pos.key(("a",)).line, pos.key(("a",)).col) == (1, 1)
    assert (pos.value(("a",)).line, pos.value(("a",)).col) == (1, 4)
    assert (pos.value(("b", 1, "c")).line, pos.value(("b", 1, "c")).col) == (4, 9)
    assert (pos.key(("b", 1, "c")).line, pos.key(("b", 1, "c")).col) == (4, 6)


def test_columns_count_characters_not_bytes() -> None:
    doc, _ = parse_yaml("ćđž: 'цигла'\nb: 1\nшш: x\n", "t.yaml")
    assert doc is not None
    assert doc.positions.value(("шш",)).col == 5


def test_yaml_1_2_scalars() -> None:
    doc, _ = parse_yaml(
        "a: no\nb: yes\nc: true\nd: 07\ne: 1.5\nf: ~\ng: '3'\nh: on\ni: 0x1F\n", "t.yaml"
    )
    assert doc is not None
    assert doc.data == {
        "a": "no",
        "b": "yes",
        "c": True,
        "d": 7,
        "e": 1.5,
        "f": None,
        "g": "3",
        "h": "on",
        "i": 31,
    }


def test_duplicate_key_is_reported_and_first_value_kept() -> None:
    doc, problems = parse_yaml("a: 1\nb: 2\na: 3\n", "t.yaml")
    assert doc is not None and doc.data == {"a": 1, "b": 2}
    assert [p.format() for p in problems] == [
        "t.yaml:3:1: duplicate key 'a': it is already defined at line 1, column 1 [$.a]"
    ]
    assert doc.positions.value(("a",)).line == 1


def test_aliases_expand_with_positions_of_the_anchor() -> None:
    doc, problems = parse_yaml("a: &x {b: 1}\nc: *x\n", "t.yaml")
    assert not problems and doc is not None
    assert doc.data == {"a": {"b": 1}, "c": {"b": 1}}
    assert doc.data["a"] is not doc.data["c"]
    assert doc.positions.value(("c",)).line == 2
    assert doc.positions.value(("c", "b")).line == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "a: [1, 2\nb: 3\n",
            "t.yaml:2:2: not valid YAML: did not find expected ',' or ']', "
            "while parsing a flow sequence that started at line 1",
        ),
        (
            "a:\n\tb: 1\n",
            "t.yaml:2:1: not valid YAML: found character that cannot start any token, "
            "while scanning for the next token (YAML indents with spaces, not tabs)",
        ),
        (
            "a: b: c\n",
            "t.yaml:1:5: not valid YAML: mapping values are not allowed in this context "
            "(a text containing ': ' must be quoted)",
        ),
        ("# nothing\n\n", "t.yaml:1:1: the file is empty: it holds no YAML data"),
        ("", "t.yaml:1:1: the file is empty: it holds no YAML data"),
        (
            "a: 1\n---\nb: 2\n",
            "t.yaml:2:1: a second YAML document starts here; a file holds exactly one "
            "(remove the '---' line)",
        ),
        (
            "a: !!python/object:os.system x\n",
            "t.yaml:1:4: unsupported YAML tag 'tag:yaml.org,2002:python/object:os.system': "
            "only plain texts, numbers, true/false, lists and mappings are allowed",
        ),
        ("a: *nowhere\n", "t.yaml:1:4: unknown alias '*nowhere': no anchor '&nowhere'"),
        (
            "? [a, b]\n: 1\n",
            "t.yaml:1:3: a mapping key must be a plain text, not a list or a mapping",
        ),
        ("a: !!int x\n", "t.yaml:1:4: 'x' is not a valid int"),
    ],
)
def test_bad_yaml_gives_one_positioned_error(text: str, expected: str) -> None:
    assert one_error(text) == expected


def test_merge_keys_are_refused() -> None:
    _doc, problems = parse_yaml("a: &x {b: 1}\nc:\n  <<: *x\n", "t.yaml")
    assert [p.format() for p in problems] == [
        "t.yaml:3:3: merge keys ('<<') are not supported: write the keys out, "
        "or use an alias for the whole value [$.c]"
    ]


def test_yaml_bomb_is_stopped() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 10):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    message = one_error("\n".join(lines) + "\n")
    assert message.startswith("t.yaml:6:10: the document expands to more than 200,000 values")


def test_deep_nesting_is_stopped_without_recursion_error() -> None:
    text = "a: " + "[" * 5000 + "]" * 5000 + "\n"
    message = one_error(text)  # where depends on PyYAML: 6.0.4 stops deep flows itself
    assert message.startswith("t.yaml:1:")
    assert message.endswith(": the data is nested too deeply (more than 64 levels)")


def test_deep_block_nesting_is_stopped() -> None:
    text = "".join("  " * i + f"k{i}:\n" for i in range(100)) + "  " * 100 + "v\n"
    assert one_error(text).startswith("t.yaml:65:129: the data is nested too deeply")


def test_missing_file(tmp_path: Path) -> None:
    doc, problems = load_yaml(tmp_path / "nope.yaml")
    assert doc is None
    assert problems[0].message == "no such file"


def test_folder_instead_of_file(tmp_path: Path) -> None:
    _, problems = load_yaml(tmp_path)
    assert problems[0].message == "is a folder, not a file"


def test_unreadable_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "secret.yaml"
    path.write_text("a: 1\n")

    def deny(*args: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("ckdsl.userfiles.os.open", deny)  # root reads any file: fake it
    _, problems = load_yaml(path)
    assert problems[0].message == "cannot read the file: permission denied"


def test_binary_file(tmp_path: Path) -> None:
    path = tmp_path / "image.yaml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    _, problems = load_yaml(path)
    assert problems[0].format() == (
        f"{path}:3:1: this is a binary file, not YAML text (it contains a NUL byte)"
    )


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes("a: 1\nb: caf\xe9\n".encode("latin-1"))
    _, problems = load_yaml(path)
    assert problems[0].format() == (
        f"{path}:2:7: the file is not UTF-8 text: byte 0xe9 cannot be decoded "
        "(save the file as UTF-8)"
    )


def test_huge_file_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    with open(path, "wb") as f:
        f.truncate(50 * 1024 * 1024)
    _, problems = load_yaml(path)
    assert problems[0].message == (
        f"the file is too large (52,428,800 bytes); the limit is {yamlload.MAX_BYTES:,} bytes"
    )


def test_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes("\ufeffa: 1\n".encode())
    doc, problems = load_yaml(path)
    assert not problems and doc is not None and doc.data == {"a": 1}


def test_a_text_value_carries_how_it_is_written() -> None:
    """A DSL error inside an effect points into the file from what the loader recorded
    (the value's style and a block's indentation), without reading the file again: this
    file does not even exist."""
    from ckdsl.dsl.source import locate

    text = "a: |\n\n    gain 1 grain\n    gian 2 ore\nb: 'x y'\nc: x y\n"
    doc, problems = parse_yaml(text, "nowhere/never.yaml")
    assert not problems and doc is not None
    block, quoted, plain = (doc.positions.value((k,)) for k in "abc")
    assert (block.style, block.indent, quoted.style, plain.style) == ("|", 4, "'", "")
    at = locate(block, 3, 1)  # `gian`: line 3 of the effect (its first line is blank)
    assert (at.file, at.line, at.col) == ("nowhere/never.yaml", 4, 5)
    assert (locate(quoted, 1, 3).line, locate(quoted, 1, 3).col) == (5, 7)
    assert (locate(plain, 1, 3).line, locate(plain, 1, 3).col) == (6, 6)


def test_a_file_read_again_is_its_text_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file read again with the same text is not parsed again; a copy of its reading is
    given, which the reader may change; another text is parsed; only the last files read
    are kept."""
    parsed: list[str] = []
    parse = yamlload.parse_yaml

    def counted(text: str, file: str) -> object:
        parsed.append(text)
        return parse(text, file)

    monkeypatch.setattr(yamlload, "parse_yaml", counted)
    monkeypatch.setattr(yamlload, "_RECENT", {})
    path = tmp_path / "a.yaml"
    path.write_text("a: [1, 2]\n", encoding="utf-8")
    first, _ = load_yaml(path)
    assert first is not None and isinstance(first.data, dict)
    first.data["a"].append(3)  # the reader's own copy
    again, _ = load_yaml(path)
    assert again is not None and again.data == {"a": [1, 2]} and len(parsed) == 1
    assert again.positions.value(("a", 1)).col == 8
    path.write_text("a: [1, 2, 5]\n", encoding="utf-8")
    changed, _ = load_yaml(path)
    assert changed is not None and changed.data == {"a": [1, 2, 5]} and len(parsed) == 2
    monkeypatch.setattr(yamlload, "RECENT_FILES", 2)
    for name in ("b", "c", "d"):
        (tmp_path / f"{name}.yaml").write_text("b: 1\n", encoding="utf-8")
        load_yaml(tmp_path / f"{name}.yaml")
    assert list(yamlload._RECENT) == [str(tmp_path / "c.yaml"), str(tmp_path / "d.yaml")]
