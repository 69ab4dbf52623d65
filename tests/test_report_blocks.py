"""mcplint.reporters.blocks writes the report's summary without rich when it can: wherever the
plain writer writes at all, its text must be the text rich writes."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from mcplint.reporters import blocks

# Words of the characters the plain writer takes; now and then one it must leave to rich.
letters = st.sampled_from(list("abcXYZ019-[](),.:") + ["\u2014", "\u2026", "\u23ce"])
plain_words = st.text(letters, min_size=1, max_size=14)
words = st.one_of(plain_words, plain_words, plain_words, plain_words, plain_words,
                  st.builds(lambda w, c: w + c, plain_words, st.sampled_from(["\u00e9", "\u4e2d", "\u0301"])))
spaces = st.sampled_from([" ", " ", " ", "  "])
texts = st.builds(lambda ws, gaps: "".join(w + g for w, g in zip(ws, gaps)).rstrip(),
                  st.lists(words, min_size=1, max_size=12), st.lists(spaces, min_size=12, max_size=12))
styles = st.sampled_from([None, "bold", "dim", "bold red"])
line = st.builds(lambda parts, style: ("line", parts, style), st.lists(st.tuples(texts, styles), min_size=1, max_size=4),
                 styles)
wrap = st.builds(lambda text, style: ("wrap", text, style or "dim"), texts, styles)


@st.composite
def table(draw):
    columns = draw(st.lists(st.tuples(words, st.sampled_from(["left", "right"]), st.booleans()), min_size=1, max_size=4))
    rows = draw(st.lists(st.lists(st.tuples(st.one_of(words, texts), styles), min_size=len(columns),
                                  max_size=len(columns)), min_size=1, max_size=6))
    return ("table", columns, rows)


documents = st.lists(st.one_of(line, wrap, table(), st.just(("blank",))), min_size=1, max_size=6)


@settings(max_examples=600, deadline=None)
@given(documents, st.integers(8, 90))
def test_the_plain_writer_writes_what_rich_writes(found, width):
    plain = blocks.render_plain(found, width)
    if plain is not None:
        assert plain == blocks.render_rich(found, False, width)


def test_the_plain_writer_takes_a_report_summary():
    """Otherwise the test above could pass with a writer that always gives up."""
    summary = [("line", [("Found ", None), ("2 problems", "bold"), (" (1 error, 1 warning) in 1 manifest.", None)], None),
               ("blank",),
               ("table", [("rule", "left", False), ("count", "right", False)], [[("MCP101", None), ("12", None)]]),
               ("wrap", "[1] not assessable from a manifest \u2014 run `mcplint audit` or lint a transcript", "dim")]
    assert blocks.render_plain(summary, 40) == blocks.render_rich(summary, False, 40) == (
        "Found 2 problems (1 error, 1 warning) in 1 manifest.\n\n"
        "rule     count\n"
        "──────────────\n"
        "MCP101      12\n"
        "[1] not assessable from a manifest \u2014 run\n"
        "`mcplint audit` or lint a transcript\n")
