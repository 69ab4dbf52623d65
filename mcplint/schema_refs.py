"""$ref resolution for the schema rules, never over the network: a ref is LOCAL (it resolves
inside the schema, or names a known metaschema), MISSING, NETWORK or EXTERNAL; the walk that
finds refs, anchors and embedded resources is mcplint.schemas'."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urljoin

from mcplint.document.pointer import Pointer
from mcplint.schema_dialects import dialect_for_uri

if TYPE_CHECKING:
    from mcplint.schemas import Facts, Ref


LOCAL, MISSING, NETWORK, EXTERNAL = "local", "missing", "network", "external"


def resolve(root: Any, f: Facts, ref: Ref) -> str:
    """LOCAL when ``ref`` resolves inside ``root`` (or names a known metaschema), MISSING when
    it points into the schema but at nothing, NETWORK for an http(s) URI elsewhere, EXTERNAL
    for any other document (a relative file, another scheme)."""
    uri, hashed, fragment = ref.ref.partition("#")
    resource = ref.resource
    if uri:
        target = urljoin(ref.base, uri) if ref.base else uri
        if target in f.resources:
            resource = f.resources[target]
        elif uri in f.resources:
            resource = f.resources[uri]
        elif dialect_for_uri(target) or dialect_for_uri(target + "#"):
            return LOCAL
        elif target.startswith(("http://", "https://")):
            return NETWORK
        else:
            return EXTERNAL
    if not fragment:
        return LOCAL
    if not fragment.startswith("/"):
        return LOCAL if unquote(fragment) in f.anchors else MISSING
    node = value_at(root, resource)
    try:
        tokens = Pointer.parse(unquote(fragment))
    except ValueError:
        return MISSING
    return MISSING if _follow(node, tokens) is _NOTHING else LOCAL


_NOTHING = object()


def _follow(node: Any, tokens) -> Any:
    for token in tokens:
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return _NOTHING
    return node


def value_at(root: Any, path: tuple) -> Any:
    for token in path:
        root = root[token]
    return root


def local_target(root: Any, ref: str) -> Any:
    """The subschema a same-document ``#/...`` ref points at, or None."""
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return None
    try:
        found = _follow(root, Pointer.parse(unquote(ref)))
    except ValueError:
        return None
    return None if found is _NOTHING else found
