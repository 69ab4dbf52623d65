"""How far a schema's ``$ref``s can make one value's check go (see mcplint.schema_safety).

jsonschema follows every ``$ref`` anew, so ``{"allOf": [{"$ref": "#/$defs/d1"}, {"$ref":
"#/$defs/d1"}]}`` in a chain of 40 definitions makes one value visit 2**40 subschemas.
``expansion`` counts, once per schema and in time linear in its size, how many subschemas one
value can meet at one place, and says why a schema over the limit cannot be applied.
"""

from __future__ import annotations

import json
from typing import Any

from mcplint.schema_safety import EXPANDS, MAX_VISITS, Uncheckable

# How the keywords jsonschema applies reach their subschemas. A value meets, at its own place,
# every subschema of the keywords applied in place (allOf, $ref, not, ...) and, one place down,
# those of the keywords for its members: each member meets one of the schemas of `properties`
# (or `prefixItems`), so they count as the largest of them, not their sum.
_ONE = frozenset(("not", "if", "then", "else", "additionalProperties", "additionalItems", "contains",
                  "propertyNames", "unevaluatedProperties", "unevaluatedItems", "items"))
_EACH_OF_LIST = frozenset(("allOf", "anyOf", "oneOf"))
_EACH_OF_MAP = frozenset(("patternProperties", "dependentSchemas", "dependencies"))  # (a key can match many)
_ONE_OF_MAP = frozenset(("properties",))
_ONE_OF_LIST = frozenset(("prefixItems", "items"))  # (items as a list: draft-04 to 2019-09)
_MAX_VERTICES = 1_000_000


def expansion(validator, limit: int = MAX_VISITS) -> Uncheckable | None:
    """Why values cannot be checked against ``validator``'s schema in bounded time, or None.

    jsonschema does not remember a ``$ref`` it has followed: ``{"allOf": [{"$ref": "#/$defs/d1"},
    {"$ref": "#/$defs/d1"}]}`` checks the value against ``d1`` twice, and a chain of such
    definitions doubles at each one. This counts, over the graph of subschemas and the
    ``$ref``s between them (each subschema once, so linear in the schema's size), how many
    subschemas one place of a value can be checked against: 1 for a subschema plus, for each
    keyword it applies, its subschemas' counts (their largest for the members of `properties`
    and `prefixItems`, which go to different places). A ``$ref`` counts as its target; a cycle
    counts 1 where it closes (a recursive schema recurses as deep as the value does; one whose
    $refs repeat at each level of the value is stopped by ``errors``' limit on steps).
    A count over ``limit`` plus the schema's own size (which no schema without ``$ref``s
    exceeds) is EXPANDS, about the ``$ref`` where the count grows past it."""
    try:  # (most schemas have no $ref: then no count can be over their own size)
        text = json.dumps(validator.schema)
        if not any(f'"{key}"' in text for key in ("$ref", "$dynamicRef", "$recursiveRef")):
            return None
    except (TypeError, ValueError, RecursionError):
        pass
    try:
        graph = _Graph(validator)
        if not graph.terms:
            return None
        threshold = limit + len(graph.terms)
        weights, over = graph.weights(threshold)
    except _TooLarge:
        return Uncheckable(EXPANDS, "$ref", "", f"it has over {_MAX_VERTICES:,} subschemas to follow")
    except Exception:  # (jsonschema's own internals changed): values are still bounded by ``errors``' steps
        return None
    if over is None:
        return None
    ref = graph.repeated_ref(over, weights)
    return Uncheckable(EXPANDS, "$ref", ref or "",
                       f"one value could be checked against over {threshold:,} subschemas, as its "
                       "$refs repeat one another")


class _TooLarge(Exception):
    pass


class _Graph:
    """The subschemas reachable from a validator's schema, each with its terms: for each
    keyword, the subschemas (vertex numbers) whose largest count it adds (an empty term, a
    $ref that does not resolve, adds 1)."""

    def __init__(self, validator) -> None:
        import referencing
        import referencing.jsonschema

        self.spec = referencing.jsonschema.specification_with(
            validator.ID_OF(validator.META_SCHEMA) or "urn:unknown-dialect", default=referencing.Specification.OPAQUE)
        self.index: dict[tuple, int] = {}
        self.terms: list[list[list[int]]] = []
        self.refs: list[str | None] = []
        self.keep: list = []  # the nodes and resolvers whose id() are keys
        self.bases: dict[int, str] = {}  # id(resolver) -> its base URI
        self.lookups: dict[tuple, Any] = {}
        self.anchors: dict[Any, list[int]] = {}  # $dynamicAnchor name (True: $recursiveAnchor) -> vertices
        self.dynamic: list[tuple[list[int], Any]] = []  # (term, anchor) of $dynamicRef/$recursiveRef
        self.todo: list[tuple[int, dict, Any]] = []
        self._vertex(validator.schema, validator._resolver, True)
        while self.todo:
            self._expand(*self.todo.pop())
        for term, anchor in self.dynamic:  # any resource in the dynamic scope declaring the anchor
            term.extend(self.anchors.get(anchor, ()))

    def _vertex(self, node: Any, resolver, enter: bool) -> int | None:
        """The vertex of ``node`` (a dict) reached with ``resolver``; ``enter``: update the base URI
        for an ``$id`` in it, as jsonschema's descend does (not for a $ref's target)."""
        if not isinstance(node, dict):
            return None
        if enter and ("$id" in node or "id" in node):
            try:
                resolver = resolver.in_subresource(self.spec.create_resource(node))
            except Exception:  # an $id jsonschema would also fail on
                pass
        base = self.bases.get(id(resolver))
        if base is None:
            base = self.bases[id(resolver)] = str(getattr(resolver, "_base_uri", ""))
            self.keep.append(resolver)
        key = (id(node), base)
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.terms)
            if found >= _MAX_VERTICES:
                raise _TooLarge
            self.terms.append([])
            self.refs.append(None)
            self.keep.append(node)
            self.todo.append((found, node, resolver))
        return found

    def _expand(self, vertex: int, node: dict, resolver) -> None:
        terms = self.terms[vertex]

        def sub(child: Any) -> list[int]:
            found = self._vertex(child, resolver, True)
            return [] if found is None else [found]

        for keyword, value in node.items():
            if keyword in ("$ref", "$dynamicRef", "$recursiveRef"):
                if not isinstance(value, str):
                    continue
                term = self._target(value, resolver)
                terms.append(term)
                if keyword == "$ref" or self.refs[vertex] is None:
                    self.refs[vertex] = value
                if keyword == "$dynamicRef" and "#" in value:
                    self.dynamic.append((term, value.split("#", 1)[1]))
                elif keyword == "$recursiveRef":
                    self.dynamic.append((term, True))
            elif keyword == "$dynamicAnchor" and isinstance(value, str):
                self.anchors.setdefault(value, []).append(vertex)
            elif keyword == "$recursiveAnchor" and value is True:
                self.anchors.setdefault(True, []).append(vertex)
            elif isinstance(value, dict) and (keyword in _ONE_OF_MAP or keyword in _EACH_OF_MAP):
                found = [v for child in value.values() for v in sub(child)]
                if keyword in _ONE_OF_MAP:
                    terms.append(found)
                else:
                    terms.extend([v] for v in found)
            elif isinstance(value, list) and (keyword in _EACH_OF_LIST or keyword in _ONE_OF_LIST):
                found = [v for child in value for v in sub(child)]
                if keyword in _ONE_OF_LIST:
                    terms.append(found)
                else:
                    terms.extend([v] for v in found)
            elif keyword in _ONE and isinstance(value, dict):
                terms.append(sub(value))

    def _target(self, ref: str, resolver) -> list[int]:
        key = (self.bases[id(resolver)], ref)
        if key not in self.lookups:
            try:
                resolved = resolver.lookup(ref)
                self.lookups[key] = self._vertex(resolved.contents, resolved.resolver, False)
            except Exception:  # not resolvable: checking a value stops there (Uncheckable or no verdict)
                self.lookups[key] = None
        found = self.lookups[key]
        return [] if found is None else [found]

    def weights(self, threshold: int) -> tuple[list[int], int | None]:
        """Each vertex's count (computed depth first from the root; a vertex on the current path
        counts 1), and the first vertex whose count is over ``threshold`` (None if none is)."""
        count = len(self.terms)
        weights = [0] * count
        state = [0] * count  # 0: not seen, 1: on the path, 2: counted
        stack = [(0, iter([v for term in self.terms[0] for v in term]))]
        state[0] = 1
        while stack:
            vertex, children = stack[-1]
            for child in children:
                if state[child] == 0:
                    state[child] = 1
                    stack.append((child, iter([v for term in self.terms[child] for v in term])))
                    break
            else:
                stack.pop()
                total = 1
                for term in self.terms[vertex]:
                    total += max((weights[v] if state[v] == 2 else 1 for v in term), default=1)
                state[vertex] = 2
                weights[vertex] = total
                if total > threshold:
                    return weights, vertex
        return weights, None

    def repeated_ref(self, vertex: int, weights: list[int]) -> str | None:
        """The $ref nearest ``vertex`` along its heaviest subschemas: where the count grows."""
        for _ in range(len(self.terms)):
            if self.refs[vertex] is not None:
                return self.refs[vertex]
            children = [v for term in self.terms[vertex] for v in term]
            if not children:
                return None
            vertex = max(children, key=lambda v: weights[v])
        return None
