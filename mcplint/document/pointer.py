"""RFC 6901 JSON pointers as tuples of reference tokens."""

from __future__ import annotations

from typing import Union

Token = Union[str, int]


_new = tuple.__new__


class Pointer(tuple):
    """An immutable JSON pointer; ``Pointer() / "tools" / 0`` is ``/tools/0``."""

    __slots__ = ()

    def __new__(cls, tokens=()) -> "Pointer":
        return super().__new__(cls, tokens)

    def __truediv__(self, token: Token) -> "Pointer":
        return _new(Pointer, (*self, token))  # hot path: skip the Python-level __new__

    @property
    def parent(self) -> "Pointer":
        return _new(Pointer, self[:-1])

    @classmethod
    def parse(cls, text: str) -> "Pointer":
        if text in ("", "#"):
            return cls()
        if text.startswith("#"):
            text = text[1:]
        if not text.startswith("/"):
            raise ValueError(f"JSON pointer must start with '/': {text!r}")
        return cls(
            part.replace("~1", "/").replace("~0", "~") for part in text[1:].split("/")
        )

    def __str__(self) -> str:
        if not self:
            return ""
        text = "/" + "/".join(map(str, self))
        if "~" in text or text.count("/") != len(self):  # only then does a token need escaping
            text = "".join("/" + str(t).replace("~", "~0").replace("/", "~1") for t in self)
        return text

    def __repr__(self) -> str:
        return f"Pointer({str(self)!r})"

    def startswith(self, other: "Pointer") -> bool:
        return _prefix(self, other)


def _prefix(ptr: tuple, prefix: tuple) -> bool:
    """True when ``prefix`` is an ancestor-or-self of ``ptr`` (tokens compared as text)."""
    if len(prefix) > len(ptr):
        return False
    return all(str(a) == str(b) for a, b in zip(ptr, prefix))
