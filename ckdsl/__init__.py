"""ckdsl: a rules engine for Catan: Cities & Knights in which the rules are data."""

__version__ = "0.2.0"


def _refuse_a_stale_native_build() -> None:
    """A mypyc build (tools/build_mypyc.py) runs its compiled modules whatever their
    sources say now: refuse it once a source has changed, rather than run old code."""
    import os

    here = os.path.dirname(__file__)
    stamp = os.path.join(here, "_native.json")
    if not os.path.exists(stamp):
        return  # pure Python, the default
    import json

    with open(stamp, encoding="utf-8") as file:
        recorded = json.load(file)
    sources: dict[str, str] = recorded["sources"]
    stats: dict[str, list[int]] = recorded.get("stats", {})
    root = os.path.dirname(here)
    changed = []
    for source, digest in sources.items():
        path = os.path.join(root, source)
        try:
            found = os.stat(path)
            if stats.get(source) == [found.st_size, found.st_mtime_ns]:
                continue  # as built: its size and time are those recorded then
            import hashlib  # only for a source touched since the build

            with open(path, "rb") as file:
                same = hashlib.sha256(file.read()).hexdigest() == digest
        except OSError:
            same = False
        if not same:
            changed.append(source)
    if changed:
        raise ImportError(
            "ckdsl's compiled modules are older than their sources ("
            + ", ".join(changed)
            + "): rebuild them (python tools/build_mypyc.py) or remove them "
            "(python tools/build_mypyc.py --pure)"
        )


_refuse_a_stale_native_build()
