"""Finding fingerprints that survive reformatting and reordering: a tool is named, not numbered."""

from __future__ import annotations

import hashlib
import json

from mcplint.document.manifest import Manifest
from mcplint.document.pointer import Pointer


def fingerprint(code: str, manifest: Manifest, ptr: Pointer) -> str:
    """Stable across reformatting and moving tools: no line numbers, and the tool is
    named rather than numbered (see ``logical_pointer``)."""
    value = manifest.document.data
    for token in ptr:
        try:
            value = value[int(token) if isinstance(value, list) else token]
        except (KeyError, IndexError, TypeError, ValueError):
            break
    logical = logical_pointer(manifest, ptr)
    if len(ptr) == len(manifest.tools_pointer) + 1 and logical.endswith("]"):
        # A verdict on a whole named tool (a missing member, 'looks destructive'): the name
        # in the logical pointer is its identity. Hashing every field would turn any edit
        # of the tool (say, a better description) into a new finding for a baseline.
        value = None
    payload = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    digest = hashlib.sha256(f"{code}\0{manifest.path}\0{logical}\0{payload}".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:32]


def logical_pointer(manifest: Manifest, ptr: Pointer) -> str:
    """The pointer with the tool's (prompt's, resource's) array index replaced by its name, e.g.
    ``/tools/3/description`` -> ``/tools/[get_user]/description``."""
    depth = len(manifest.tools_pointer)
    name = manifest.tool_name_at(ptr)
    if name is None:
        name = manifest.entry_name_at(ptr)  # the other lists sit at the same depth as tools
    if manifest.shape == "tool" or name is None or len(ptr) <= depth:
        return str(ptr)
    rest = Pointer(ptr[depth + 1:])
    return f"{Pointer(ptr[:depth])}/[{name}]{rest}"
