"""What a start loads, kept on disk: the second start reads what the first checked and compiled.

Loading a rule set reads its YAML files, validates them against the schemas, parses and
checks every effect and compiles the programs: most of a command's start. ``store`` keeps
the result in the user's cache folder (``paths.cache_dir``: ``$XDG_CACHE_HOME/ckdsl``, else
``~/.cache/ckdsl``) and ``load`` serves it again while nothing it was made from has
changed: each entry holds the sha256 of every file and folder listing it was read from
(its ``stamps``: the rule files of a rule set, the variants of its ``extends`` chain, a map
or a locale file) and of ckdsl itself (``code_digest``: every source file of the package,
the schemas, the grammar, the Python version and the libraries that read the files). An
edited rule file, an edited parent of a variant, a file added to a rule folder or a
changed ckdsl makes the next load miss, rebuild and rewrite the entry.

Only what loaded without errors is stored (the callers store after their checks passed).
An entry that cannot be read (truncated, corrupt, written by another version) is a miss,
never an error; entries are written whole (a temporary file, then ``os.replace``), so a
reader never sees half of one. Without a writable cache folder, or with
``CKDSL_NO_CACHE`` set, nothing is read or written. The folder keeps at most
``KEEP`` entries of each kind: the least recently used go first.

An entry is read as code is run, so it is trusted no further than it must be: only in a
folder of the user's own that nobody else may write in (``paths.cache_dir``), only a
regular file of at most ``MAX_ENTRY`` bytes, read without blocking (a FIFO or a device
put there is a miss, not a hang), and only once the sha256 of all it holds, written
beside it, matches: a damaged value (which, unpickled, can crash the interpreter) is a
miss and is written again.

Entries are pickles. What the DSL compiler made cannot be pickled by name (closures, and
functions compiled from the Python text it wrote): such a function is stored as its
marshalled code (hence the Python version in the key), its globals when they are its own,
its closure's values and its attributes (``_Pickler``), and made again from them.
"""

from __future__ import annotations

import atexit
import builtins
import contextlib
import functools
import gc
import hashlib
import hmac
import importlib
import io
import marshal
import os
import pickle
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from types import CellType, CodeType, FunctionType, MappingProxyType, ModuleType
from typing import Any

from ckdsl.files import write_whole
from ckdsl.native import active as compiled_build_active
from ckdsl.paths import SCHEMA_KINDS, cache_dir, grammars_dir, package_dir, schema_file
from ckdsl.stamps import RACY_NS, Stamp, all_current, content_digest
from ckdsl.userfiles import UnsafeFile, read_user_bytes

FORMAT = b"ckdsl-cache 2\n"
"""The first bytes of an entry: entries of another format are misses. Then the sha256 of
the rest (64 hex digits and a newline), then the rest: the header and the value."""

MAX_ENTRY = 64_000_000
"""The largest entry read, in bytes (a rule set's is under 1 MB)."""

KEEP = 32
"""Entries of one kind the folder keeps (tests and tools load many short-lived variants)."""

LIBRARIES = ("yaml", "jsonschema", "lark", "babel")
"""The libraries whose answers the entries hold (by their installed files): reading and
checking the files, parsing the effects, the languages' plural rules."""

COUNTS: Counter[tuple[str, str]] = Counter()
"""What ``load`` and ``store`` did in this process: (kind, "hit" | "miss" | "store") -> times."""


def load(kind: str, key: str) -> tuple[Any, tuple[Stamp, ...]] | None:
    """The value stored for ``key``, with fresh stamps of the files it was made from, or
    None: nothing stored, a file changed, ckdsl changed, the entry is unreadable, or there
    is no cache folder."""
    file = _entry(kind, key)
    if file is None:
        return None
    try:
        found = _read(file, kind, key)
    except Exception:  # a broken entry is a miss, rewritten by the next store
        found = None
    COUNTS[kind, "miss" if found is None else "hit"] += 1
    if found is not None:
        with contextlib.suppress(OSError):
            os.utime(file)  # recently used: pruned last
    return found


def store(kind: str, key: str, stamps: Iterable[Stamp], value: object) -> None:
    """Keep ``value`` for ``key``, made from the files of ``stamps`` (taken before they
    were read). Nothing is stored if a file changed since, if the value cannot be
    pickled, or if the folder cannot be written; nothing fails."""
    file = _entry(kind, key)
    if file is None:
        return
    stamps = tuple(stamps)
    sources = tuple((s.path, content_digest(Path(s.path))) for s in stamps)
    if any(digest is None for _, digest in sources) or not all_current(stamps):
        return  # changed while it was read: what was read is not what the digests say
    try:
        buffer = io.BytesIO()
        pickle.dump((kind, key, code_digest(), sources), buffer, protocol=pickle.HIGHEST_PROTOCOL)
        start = buffer.tell()
        _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
        body = buffer.getvalue()
        pickle.loads(body[start:])  # what cannot be read back (a native class) is not kept
    except Exception:  # what cannot be pickled, or unpickled, is not cached
        return
    data = FORMAT + hashlib.sha256(body).hexdigest().encode() + b"\n" + body
    if len(data) > MAX_ENTRY:
        return
    try:
        write_whole(file, data)  # a reader sees the old entry or the new one
    except OSError:
        return
    COUNTS[kind, "store"] += 1
    _prune(file.parent, kind)


def store_at_exit(kind: str, key: str, value: object) -> None:
    """Keep ``value``, as it is when the process ends, for ``key`` then rather than now:
    for a table that grows one entry at a time (the documents found valid, the effects
    parsed), one write at the end instead of a write of the whole table for each entry (a
    sweep, or the test suite, adds hundreds). A process that is killed keeps none of it:
    it is a cache."""
    if not _AT_EXIT_REGISTERED:
        atexit.register(store_pending)
        _AT_EXIT_REGISTERED.append(True)
    _AT_EXIT[kind, key] = value


_AT_EXIT: dict[tuple[str, str], object] = {}
_AT_EXIT_REGISTERED: list[bool] = []


def store_pending() -> None:
    """Store now what ``store_at_exit`` was given (run when the process ends)."""
    pending = list(_AT_EXIT.items())
    _AT_EXIT.clear()
    for (kind, key), value in pending:
        store(kind, key, (), value)


def _entry(kind: str, key: str) -> Path | None:
    folder = cache_dir()
    if folder is None:
        return None
    name = hashlib.sha256(f"{kind}\0{key}\0{code_digest()}".encode()).hexdigest()[:40]
    return folder / f"{kind}-{name}.pickle"


def _read(file: Path, kind: str, key: str) -> tuple[Any, tuple[Stamp, ...]] | None:
    body = _verified(file)
    if body is None:
        return None
    buffer = io.BytesIO(body)
    header = pickle.load(buffer)
    if header[:3] != (kind, key, code_digest()):
        return None
    stamps = []
    for path, digest in header[3]:
        stamps.append(Stamp.of(path))  # before reading, as a loader does
        if content_digest(Path(path)) != digest:
            return None
    enabled = gc.isenabled()
    gc.disable()  # many small objects, none of them garbage: collecting only costs time
    try:
        value = pickle.load(buffer)
    finally:
        if enabled:
            gc.enable()
    return value, tuple(stamps)


def _verified(file: Path) -> bytes | None:
    """What the entry ``file`` holds after its format and checksum, if it is a regular
    file of at most ``MAX_ENTRY`` bytes and the checksum matches; None otherwise."""
    try:
        data = read_user_bytes(file, MAX_ENTRY)  # (a FIFO or a device: refused unread)
    except UnsafeFile:
        return None
    start = len(FORMAT) + 65
    if not data.startswith(FORMAT) or data[start - 1 : start] != b"\n":
        return None
    body = data[start:]
    digest = hashlib.sha256(body).hexdigest().encode()
    return body if hmac.compare_digest(digest, data[len(FORMAT) : start - 1]) else None


def _prune(folder: Path, kind: str) -> None:
    """Remove the least recently used entries of ``kind`` beyond ``KEEP``."""
    try:
        entries = [(e.stat().st_mtime_ns, e.path) for e in os.scandir(folder)
                   if e.name.startswith(f"{kind}-") and e.name.endswith(".pickle")]  # fmt: skip
        for _, path in sorted(entries)[: max(len(entries) - KEEP, 0)]:
            os.unlink(path)
    except OSError:
        pass


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """The sha256 of what, besides the files an entry names, made it: ckdsl's own source
    (every ``.py`` file of the package, and the modules of a compiled build by their size
    and time), the schemas and the grammar, the Python version (the marshalled code), and
    the installed files of the libraries that read the files.

    Reading and hashing every source file costs each start milliseconds, so the digest is
    kept in the cache folder too, under the files' stat (path, size, time, inode): read
    from there while none of them changed. It is kept only when every file is older than
    ``stamps.RACY_NS`` (a file edited twice within one tick of its clock keeps its time)."""
    runs = "compiled" if compiled_build_active() else "pure"  # which runs (ckdsl.native)
    head = f"{sys.version}\0{sys.implementation.cache_tag}\0{marshal.version}\0{runs}"
    files, native = _code_files()
    libraries = "".join(f"\0{library}\0{_installed(library)}" for library in LIBRARIES)
    listing, newest = _listing(files + native)
    key = hashlib.sha256(f"{head}\0{listing}\0{libraries}".encode(_UTF8, _RAW)).hexdigest()
    memo = _memo_file()
    if memo is not None:
        with contextlib.suppress(UnsafeFile, UnicodeDecodeError, ValueError):
            known_key, known = read_user_bytes(memo, 200).decode("utf-8").split()
            if known_key == key and len(known) == 64:
                return known
    digest = _code_digest(head, files, native, libraries)
    settled = newest < time.time_ns() - RACY_NS
    if memo is not None and settled and _listing(files + native)[0] == listing:
        with contextlib.suppress(OSError):  # (the listing again: nothing changed meanwhile)
            write_whole(memo, f"{key} {digest}\n".encode())
    return digest


_UTF8, _RAW = "utf-8", "surrogateescape"


def _code_files() -> tuple[list[str], list[str]]:
    """The files the code digest reads (the schemas, the grammars, the package's source),
    and the modules of a compiled build (the package's ``_compiled`` folder), stamped by
    size and time."""
    files = [str(schema_file(kind)) for kind in SCHEMA_KINDS]
    files += sorted(str(grammar) for grammar in grammars_dir().glob("*.lark"))
    native = []  # a compiled build's modules: what runs instead
    for folder, subfolders, names in os.walk(package_dir()):
        subfolders[:] = sorted(d for d in subfolders if d not in ("__pycache__", "_data"))
        files += [os.path.join(folder, name) for name in sorted(names) if name.endswith(".py")]
        native += [os.path.join(folder, name) for name in sorted(names)
                   if name.endswith((".so", ".pyd")) or name == "build.json"]  # fmt: skip
    return files, native


def _code_digest(head: str, files: list[str], native: list[str], libraries: str) -> str:
    digest = hashlib.sha256()
    digest.update(head.encode())
    for file in native:
        with contextlib.suppress(OSError):
            st = os.stat(file)
            stamp = f"\0{file}\0{st.st_size}\0{st.st_mtime_ns}"
            digest.update(stamp.encode(_UTF8, _RAW))
    for file in files:
        try:
            with open(file, "rb") as source:
                data = source.read()
        except OSError:
            data = b"\0missing"
        digest.update(f"\0{file}\0{len(data)}\0".encode(_UTF8, _RAW))
        digest.update(data)
    digest.update(libraries.encode())
    return digest.hexdigest()


def _listing(files: list[str]) -> tuple[str, int]:
    """The stat of each file (path, size, time, inode, device; a missing one as missing),
    and the newest time among them."""
    lines = []
    newest = 0
    for file in files:
        try:
            st = os.stat(file)
        except OSError:
            lines.append(f"{file}\0missing")
            continue
        lines.append(f"{file}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\0{st.st_dev}")
        newest = max(newest, st.st_mtime_ns)
    return "\n".join(lines), newest


def _memo_file() -> Path | None:
    """Where the code digest of this copy of ckdsl run by this Python is kept (None: no
    cache folder)."""
    folder = cache_dir()
    if folder is None:
        return None
    which = f"{package_dir()}\0{sys.executable}\0{sys.prefix}"
    where = hashlib.sha256(which.encode(_UTF8, _RAW)).hexdigest()[:16]
    return folder / f"code-{where}.digest"


def _installed(library: str) -> str:
    """Which copy of ``library`` is installed (its module file's path, time and size),
    found without importing it."""
    from importlib.util import find_spec

    try:
        spec = find_spec(library)
        origin = spec.origin if spec is not None else None
        if origin is None:
            return "none"
        st = os.stat(origin)
    except (ImportError, ValueError, OSError):
        return "none"
    return f"{origin}\0{st.st_mtime_ns}\0{st.st_size}"


# --- pickling what the compiler made ---------------------------------------------------


class _Pickler(pickle.Pickler):
    """Pickles functions that have no importable name by value (see the module's doc),
    read-only mappings, code objects and modules (by name)."""

    def reducer_override(self, obj: Any) -> Any:
        kind = type(obj)
        if kind is FunctionType:
            return _reduce_function(obj)
        if kind is MappingProxyType:
            return _mapping_proxy, (dict(obj),)
        if kind is CodeType:
            return _code, (marshal.dumps(obj),)
        if kind is ModuleType:
            return importlib.import_module, (obj.__name__,)
        return NotImplemented


def _reduce_function(fn: FunctionType) -> Any:
    module = sys.modules.get(fn.__module__) if isinstance(fn.__module__, str) else None
    if module is not None:
        named: Any = module
        for part in fn.__qualname__.split("."):
            named = getattr(named, part, None)
        if named is fn:
            return NotImplemented  # importable: pickled by name
    own = module is not None and fn.__globals__ is module.__dict__
    namespace = None if own else {k: v for k, v in fn.__globals__.items() if k != "__builtins__"}
    cells = []
    for cell in fn.__closure__ or ():
        try:
            cells.append((True, cell.cell_contents))
        except ValueError:  # a cell not yet filled
            cells.append((False, None))
    made = (fn.__code__, fn.__module__ if own else None, fn.__name__, len(cells))
    state = (namespace, tuple(cells), fn.__defaults__, fn.__kwdefaults__, fn.__dict__,
             fn.__qualname__)  # fmt: skip
    # The state (what may lead back to the function itself) is set once it exists.
    return _function, made, state, None, None, _fill_function


def _function(code: CodeType, module: str | None, name: str, cells: int) -> FunctionType:
    """A function of ``code`` whose globals, closure and attributes ``_fill_function`` sets."""
    namespace = (
        importlib.import_module(module).__dict__
        if module is not None
        else {"__builtins__": builtins.__dict__}
    )
    closure = tuple(CellType() for _ in range(cells)) if cells else None
    return FunctionType(code, namespace, name, None, closure)


def _fill_function(fn: FunctionType, state: tuple[Any, ...]) -> FunctionType:
    namespace, cells, defaults, kwdefaults, attributes, qualname = state
    if namespace is not None:
        fn.__globals__.update(namespace)
    for cell, (full, value) in zip(fn.__closure__ or (), cells, strict=True):
        if full:
            cell.cell_contents = value
    fn.__defaults__ = defaults
    fn.__kwdefaults__ = kwdefaults
    fn.__dict__.update(attributes)
    fn.__qualname__ = qualname
    return fn


def _mapping_proxy(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(mapping)


def _code(data: bytes) -> CodeType:
    code = marshal.loads(data)
    if not isinstance(code, CodeType):  # pragma: no cover - we wrote a code object
        raise TypeError(type(code).__name__)
    return code
