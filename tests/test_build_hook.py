"""The install's build hook (``hatch_build.py``) compiles, and where it cannot, says why
and leaves a pure package rather than failing the install."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
pytest.importorskip("hatchling")


def _hook() -> Any:
    spec = importlib.util.spec_from_file_location("hatch_build", REPO / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Tool:
    """tools/build_mypyc.py's interface, without compiling."""

    BUILD_DIR = Path("/somewhere/ckdsl/_compiled")

    def __init__(self, failure: BaseException | None = None, current: bool = False) -> None:
        self.failure, self.current, self.calls = failure, current, []

    def up_to_date(self) -> bool:
        return self.current

    def build(self) -> None:
        self.calls.append("build")
        if self.failure is not None:
            raise self.failure

    def remove(self) -> None:
        self.calls.append("remove")


@pytest.fixture(autouse=True)
def _not_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CKDSL_PURE", raising=False)


def _data() -> dict[str, Any]:
    return {"force_include": {}, "pure_python": True}


def test_a_wheel_carries_the_build_and_is_tagged_for_its_platform() -> None:
    data, tool = _data(), _Tool()
    _hook().compile_for("standard", data, tool)
    assert tool.calls == ["build"]
    assert data == {"force_include": {"/somewhere/ckdsl/_compiled": "ckdsl/_compiled"},
                    "pure_python": False, "infer_tag": True}  # fmt: skip


def test_an_editable_install_finds_the_build_in_the_tree() -> None:
    data, tool = _data(), _Tool()
    _hook().compile_for("editable", data, tool)
    assert tool.calls == ["build"] and data == _data()


FAILURES = [
    SystemExit("error: command 'gcc' failed: No such file or directory"),
    RuntimeError("build_mypyc: the build lacks its library"),
]


@pytest.mark.parametrize("failure", FAILURES)
def test_a_failed_compile_leaves_a_pure_package_and_says_why(
    failure: BaseException, capsys: pytest.CaptureFixture[str]
) -> None:
    data, tool = _data(), _Tool(failure)
    _hook().compile_for("standard", data, tool)
    assert tool.calls == ["build", "remove"] and data == _data()
    said = capsys.readouterr().err
    assert f"ckdsl: not compiled ({failure}); ckdsl runs as pure Python" in said


def test_an_install_again_does_not_compile_what_has_not_changed() -> None:
    data, tool = _data(), _Tool(current=True)
    _hook().compile_for("standard", data, tool)
    assert tool.calls == [] and data["pure_python"] is False  # the wheel carries it still


def test_ckdsl_pure_skips_the_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CKDSL_PURE", "1")
    data, tool = _data(), _Tool()
    _hook().compile_for("standard", data, tool)
    assert tool.calls == [] and data == _data()
