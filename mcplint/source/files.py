"""The source tree, walked once: which files there are, their text on demand, and what was skipped.

Nothing here executes code. A file is read at most once; binary files, files over 2 MB and
files that do not decode are left out with the reason, so a lookup can say what it searched.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from mcplint.document.span import LineIndex, Span
from mcplint.regex_cache import regex

MAX_BYTES = 2 * 1024 * 1024
SKIP_DIRS = {
    ".git", ".hg", ".svn", "node_modules", ".venv", "venv", "env", "__pycache__", ".tox", ".nox",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", "site-packages", "dist", "build", ".idea",
    ".vscode", ".cache", ".eggs", "target", "vendor", ".next", ".nuxt", "coverage", ".terraform",
    "bower_components", ".gradle", ".dart_tool", "Pods",
}
PYTHON = {".py", ".pyi"}
SCRIPT = {".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx"}
CODE = PYTHON | SCRIPT | {
    ".go", ".rs", ".java", ".kt", ".kts", ".scala", ".cs", ".fs", ".rb", ".php", ".swift", ".c",
    ".h", ".cc", ".cpp", ".hpp", ".m", ".ex", ".exs", ".erl", ".clj", ".lua", ".dart", ".zig",
    ".nim", ".jl", ".r", ".pl", ".sh", ".groovy", ".vb", ".hs", ".ml", ".elm", ".cr", ".v",
}
DOCS = {".md", ".rst", ".txt"}
DATA = {".json", ".yaml", ".yml", ".toml", ".xml", ".properties", ".ini", ".cfg"} | DOCS
# Generated or third-party text where a tool's words may be copied, never written.
SKIP_NAMES = {"package-lock.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock", "uv.lock",
              "Cargo.lock", "go.sum", "composer.lock", "Gemfile.lock"}
# Test code mocks a server's tools (notion's proxy.test.ts holds a table of them) and defines
# none: it is left out below a source root, though a root that is itself test code is read.
TEST_DIRS = {"tests", "test", "__tests__", "__test__", "testing", "testdata"}
_TEST_NAME = regex(r"^(?:test_.*\.py|.*_test\.(?:py|go)|conftest\.py|.*\.(?:test|spec)\.[cm]?[jt]sx?|.*Tests?\.java"
                   r"|.*_spec\.rb)$")
# Samples and copies: searched, but a definition elsewhere is preferred.
SAMPLE_DIRS = {"examples", "example", "fixtures", "spec", "samples"}


def is_test_path(rel: str) -> bool:
    """Test code, by its folder or its name (`rel` is '/'-separated)."""
    *folders, name = rel.split("/")
    return any(folder in TEST_DIRS for folder in folders) or bool(_TEST_NAME.match(name))


def is_sample_path(rel: str) -> bool:
    return any(folder in SAMPLE_DIRS for folder in rel.split("/")[:-1])


@dataclass
class SourceFile:
    path: Path
    rel: str  # relative to the root, '/'-separated
    suffix: str
    built: bool = False  # in build output searched only as a last resort (see walk's `built`)
    _text: str | None = None
    _lines: LineIndex | None = None
    _line_list: list[str] | None = None

    def text(self) -> str:
        if self._text is None:
            self._text = read_text(self.path)
        return self._text

    def drop(self) -> None:
        """Forget a file that turned out unreadable after all."""
        self._text = ""

    def span(self, start: int, end: int) -> Span:
        """Code-point offsets -> a 1-based span."""
        if self._lines is None:
            self._lines = LineIndex(self.text())
        return self._lines.span(start, end)

    def lines(self) -> list[str]:
        if self._line_list is None:
            self._line_list = self.text().split("\n")
        return self._line_list


class Unreadable(Exception):
    """A file the index leaves out; the message says why."""


def read_text(path: Path) -> str:
    with open(path, "rb") as handle:
        data = handle.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise Unreadable("larger than 2 MB")
    if b"\0" in data[:8192]:
        raise Unreadable("binary")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        encoding = _declared_encoding(data) if path.suffix in PYTHON else None
        if encoding is None:
            raise Unreadable("not UTF-8 text") from None
        try:
            text = data.decode(encoding)
        except (LookupError, UnicodeDecodeError):
            raise Unreadable(f"does not decode as its declared {encoding}") from None
    # Editors do not count a byte-order mark as a column; newlines are counted as '\n' only.
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _declared_encoding(data: bytes) -> str | None:
    import io
    import tokenize

    try:
        return tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except SyntaxError:
        return None


@dataclass
class Tree:
    files: list[SourceFile] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (relative path, why)
    shown_roots: list[str] = field(default_factory=list)
    tests: list[str] = field(default_factory=list)  # test folders and files left out, relative

    def skip(self, file: SourceFile, why: str) -> None:
        self.skipped.append((file.rel, why))
        file.drop()


def relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return Path(os.path.relpath(path, root)).as_posix()


def walk(roots: list[Path], root: Path, built: list[Path] = ()) -> Tree:
    """Every regular file under the roots (each once), minus skipped folders and oversized files.
    `built`: folders the walk would skip (dist/, build/) that hold the file a server's command
    runs; their files come after the others' and are marked `built`."""
    tree = Tree()
    root = Path(os.path.abspath(root))
    seen: set[str] = set()
    for given in [*roots, *built]:
        start = Path(os.path.abspath(given))
        shown = relative(start, root)
        last_resort = given in built and given not in roots
        tree.shown_roots.append(shown if shown != "." else "the repository")
        if last_resort:
            tree.shown_roots[-1] += " (it holds the file the command runs)"
        tests_too = is_test_path(shown + "/") or bool(_TEST_NAME.match(start.name))  # pointed at test code
        stack = [start]
        while stack:
            current = stack.pop()
            try:
                info = os.stat(current, follow_symlinks=False)
            except OSError as error:
                tree.skipped.append((relative(current, root), error.strerror or "unreadable"))
                continue
            if stat.S_ISDIR(info.st_mode):
                if current != start and (current.name in SKIP_DIRS or (current / "pyvenv.cfg").exists()):
                    continue  # dependencies, virtual environments (whatever their name), build output
                if current != start and current.name in TEST_DIRS and not tests_too:
                    tree.tests.append(relative(current, root) + "/")
                    continue
                try:
                    children = sorted(os.scandir(current), key=lambda entry: entry.name)
                except OSError as error:
                    tree.skipped.append((relative(current, root), error.strerror or "unreadable"))
                    continue
                # Reversed so that popping visits them in name order.
                stack.extend(Path(entry.path) for entry in reversed(children))
                continue
            if not stat.S_ISREG(info.st_mode):  # symlinks, FIFOs, devices: never followed or read
                continue
            key = str(current)
            if key in seen:
                continue
            seen.add(key)
            rel = relative(current, root)
            if current.name in SKIP_NAMES or current.name.endswith((".min.js", ".map")):
                continue
            if info.st_size > MAX_BYTES:
                tree.skipped.append((rel, "larger than 2 MB"))
                continue
            suffix = current.suffix.lower()
            if suffix not in CODE and suffix not in DATA:
                continue
            if current != start and _TEST_NAME.match(current.name) and not tests_too:
                tree.tests.append(rel)
                continue
            tree.files.append(SourceFile(current, rel, suffix, last_resort))
    return tree

