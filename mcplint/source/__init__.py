"""Source anchoring: where in a server's source tree each listed definition is written.

    from mcplint.source import SourceIndex, Anchor, Unplaced
    index = SourceIndex.build([Path("src")], root=Path("."))
    index.locate("tools", "get_forecast", ("description",), "Get the forecast ...")
    index.static_listing()   # §5: the listing read statically from Python sources

Python is read with `ast`, JavaScript/TypeScript with a tokenizer of its own, any other language
by the string literal holding the exact text. Nothing is imported or executed from the tree.
"""

from mcplint.source.index import SourceIndex
from mcplint.source.model import Anchor, Unplaced

__all__ = ["SourceIndex", "Anchor", "Unplaced"]
