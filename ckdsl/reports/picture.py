"""SVG to PNG with whatever converter the machine has: ``rsvg-convert`` (librsvg), the
``cairosvg`` package, or a headless Chromium. None of them is a dependency of ckdsl: the
SVG is the picture, a PNG is a convenience for where SVG cannot go."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
_TIMEOUT = 60  # seconds a converter may take before it is given up on


class NoConverter(Exception):
    """No SVG-to-PNG converter is installed (or each one failed)."""


def svg_to_png(svg: str, path: Path) -> None:
    """Write ``svg`` rendered as PNG to ``path``; raises NoConverter saying what to
    install, OSError if ``path`` cannot be written."""
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="ckdsl-png-") as folder:
        source = Path(folder) / "picture.svg"
        source.write_text(svg, encoding="utf-8")
        rendered = Path(folder) / "picture.png"
        for name, command in _converters(source, rendered, svg):
            try:
                subprocess.run(
                    command, check=True, capture_output=True, timeout=_TIMEOUT, cwd=folder
                )
            except (OSError, subprocess.SubprocessError) as exc:
                failures.append(f"{name}: {type(exc).__name__}")
                continue
            if rendered.exists() and rendered.stat().st_size:
                path.write_bytes(rendered.read_bytes())
                return
            failures.append(f"{name}: wrote nothing")
        if _cairosvg(svg, rendered):
            path.write_bytes(rendered.read_bytes())
            return
    tried = f" (tried: {'; '.join(failures)})" if failures else ""
    raise NoConverter(
        "no SVG-to-PNG converter worked: install rsvg-convert (Debian: librsvg2-bin), "
        f"the cairosvg package or Chromium, or write --svg instead{tried}"
    )


def _converters(source: Path, rendered: Path, svg: str) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    rsvg = shutil.which("rsvg-convert")
    if rsvg:
        out.append(("rsvg-convert", [rsvg, "-o", str(rendered), str(source)]))
    width, height = _size(svg)
    for name in _BROWSERS:
        browser = shutil.which(name)
        if browser:
            out.append(
                (
                    name,
                    [
                        browser,
                        "--headless",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--hide-scrollbars",
                        f"--screenshot={rendered}",
                        f"--window-size={width},{height}",
                        source.as_uri(),
                    ],
                )
            )
            break
    return out


def _cairosvg(svg: str, rendered: Path) -> bool:
    try:
        import cairosvg  # type: ignore[import-not-found]
    except ImportError:
        return False
    try:
        cairosvg.svg2png(bytestring=svg.encode("utf-8"), write_to=str(rendered))
    except Exception:  # a converter's own failure: say none worked, not a traceback
        return False
    return rendered.exists()


def _size(svg: str) -> tuple[int, int]:
    """The picture's width and height in pixels, from its root element."""
    found = re.search(r'<svg[^>]*\swidth="(\d+)"[^>]*\sheight="(\d+)"', svg)
    return (int(found[1]), int(found[2])) if found else (1200, 1000)
