"""The install's build hook: compile ckdsl's hot modules with mypyc (tools/build_mypyc.py)
while installing, so that ``pip install -e .`` (or a wheel) runs the compiled engine.

Where it cannot compile (no C compiler, no Python headers, an interpreter mypyc does not
support), it says why and the install goes on: ckdsl then runs as pure Python, the same
games more slowly (``ckdsl --version`` says which runs). ``CKDSL_PURE=1 pip install ...``
skips the compilation (about a minute on two cores)."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).resolve().parent


class CompiledBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name == "wheel":
            compile_for(version, build_data, _build_tool())


def compile_for(version: str, build_data: dict[str, Any], tool: Any) -> None:
    """Compile with ``tool`` (tools/build_mypyc.py) for a wheel or an editable install,
    unless ``CKDSL_PURE`` is set or the build there is up to date. A wheel carries the
    build; an editable install finds it in the tree. A failure removes what was built
    and leaves the package pure."""
    if os.environ.get("CKDSL_PURE"):
        return
    try:
        if not tool.up_to_date():  # an install again, nothing changed since
            tool.build()
    except (Exception, SystemExit) as exc:  # setuptools reports a failed compile by exiting
        tool.remove()
        print(f"ckdsl: not compiled ({exc}); ckdsl runs as pure Python", file=sys.stderr)
        return
    if version != "editable":
        build_data["force_include"][str(tool.BUILD_DIR)] = "ckdsl/_compiled"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True


def _build_tool() -> Any:
    spec = importlib.util.spec_from_file_location("build_mypyc", ROOT / "tools" / "build_mypyc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
