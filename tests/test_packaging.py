"""The wheel lists its packages by hand (pyproject.toml, [tool.setuptools] packages): a new
subpackage left out of that list installs nowhere but in an editable checkout, which is how
repository mode once went missing from the pre-commit hook's environment."""

from __future__ import annotations

import tomllib

from conftest import ROOT


def test_every_subpackage_is_in_the_wheel():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "mcplint").rglob("__init__.py")}
    assert found, "no mcplint package found"
    assert found - listed == set(), f"add to [tool.setuptools] packages: {sorted(found - listed)}"
