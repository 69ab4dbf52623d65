"""Which tools an audit may call, decided before any call is made.

The rules (non-negotiable; the README repeats them):

- A tool named in ``--allow-calls`` may be called: the user has taken responsibility.
- Any other tool may be called only when ``mcplint.audit.call_gate.call_refusal``
  finds nothing: it claims ``readOnlyHint: true`` *and* ``openWorldHint: false``, its
  name starts with a read verb, and nothing in its name, description, titles or input
  schema implies a side effect or is ambiguous. The gate fails closed. Annotations are
  untrusted hints; auditors that trusted them alone have deleted files.
- With ``--call-read-only`` (the user's consent), the valid-argument call may also go to a
  read-only tool whose ``openWorldHint`` is true or absent, through every other check of
  the gate. Such a tool receives no input-validation probes and is never the target of the
  rate-limit burst: without the flag, and for those probes, the rule above is unchanged.
- Two tools with the same name are one target for ``tools/call``: if either is
  unsafe, the name is (unless allowed).

Safe tools receive the input-validation probes (arguments that violate their schema);
with ``--call-read-only`` they are also called with valid arguments. Allowed tools
receive both. Counts are bounded so an audit of a server with thousands of tools
stays short.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from mcplint.audit.call_gate import call_refusal

MAX_VALIDATION_TOOLS = 10  # tools that receive the input-validation probes
MAX_CALLED_TOOLS = 25  # tools called with valid arguments


@dataclass(frozen=True)
class Decision:
    name: str
    tool: Mapping
    callable: bool
    reason: str  # why it may or may not be called
    open_world: bool = False  # cleared only for the valid-argument call, because of --call-read-only


@dataclass
class CallPlan:
    decisions: list[Decision] = field(default_factory=list)
    validate: list[Decision] = field(default_factory=list)  # input-validation probe targets
    call: list[Decision] = field(default_factory=list)  # valid-argument call targets
    unknown_allowed: list[str] = field(default_factory=list)  # --allow-calls names no tool has

    def skipped(self) -> dict[str, str]:
        return {d.name: d.reason for d in self.decisions if not d.callable}


def plan_calls(tools: Iterable[Any], allow_calls: Iterable[str] = (), call_read_only: bool = False) -> CallPlan:
    allowed = set(allow_calls)
    by_name: dict[str, list[Mapping]] = {}
    for tool in tools:
        if isinstance(tool, Mapping) and isinstance(tool.get("name"), str):
            by_name.setdefault(tool["name"], []).append(tool)
    plan = CallPlan(unknown_allowed=sorted(allowed - set(by_name)))
    for name, same in by_name.items():
        if name in allowed:
            decision = Decision(name, same[0], True, "named in --allow-calls")
        else:
            # With --call-read-only an open world is consented to: what refuses then is the reason.
            open_world = call_read_only and bool(_refusals(same)) and not _refusals(same, open_world_ok=True)
            reasons = _refusals(same, open_world_ok=call_read_only)
            if len(same) > 1 and reasons:
                reasons = [f"another tool has the same name and {reasons[0]}"]
            decision = Decision(name, same[0], not reasons, reasons[0] if reasons else
                                "annotated read-only and closed-world, named with a read verb, and nothing about it implies a side effect")
            if open_world:
                decision = Decision(name, same[0], True, "annotated read-only (it may reach outside systems: called "
                                    "because --call-read-only was given), named with a read verb, and nothing about "
                                    "it implies a side effect", open_world=True)
        plan.decisions.append(decision)
    callable_ = [d for d in plan.decisions if d.callable]
    explicit = [d for d in callable_ if d.name in allowed]
    annotated = [d for d in callable_ if d.name not in allowed]
    plan.validate = (explicit + [d for d in annotated if not d.open_world])[:MAX_VALIDATION_TOOLS]
    by_annotation = annotated if call_read_only else []
    plan.call = (explicit + by_annotation)[: max(MAX_CALLED_TOOLS, len(explicit))]
    return plan


def _refusals(same: list[Mapping], open_world_ok: bool = False) -> list[str]:
    return [r for r in (call_refusal(t, open_world_ok) for t in same) if r is not None]
