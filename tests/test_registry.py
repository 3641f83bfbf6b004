"""The passport registry: names, families, capabilities, identity, lazy loading, plugins."""

from __future__ import annotations

import logging
import re
import sys
import textwrap
from pathlib import Path

import pytest

from rouge2 import registry as registry_mod
from rouge2.errors import UserError
from rouge2.registry import KINDS, Passport, Registry, find_kind, passport


def _registry(**kw) -> Registry:
    return Registry("widget", listed=False, **kw)


def _match_size(name: str) -> str | None:
    m = re.fullmatch(r"\s*size-?(\d+)\s*", name.lower())
    if m is None:
        return None
    if int(m.group(1)) == 0:
        raise UserError("the size must be at least 1")
    return f"size-{int(m.group(1))}"


def test_names_aliases_and_case():
    reg = _registry()
    assert reg.add("plain", 1, "a plain widget", aliases=("basic",)) == 1
    assert reg.canonical(" PLAIN ") == reg.canonical("Basic") == "plain"
    assert reg.get("basic") == 1
    assert "plain" in reg and "fancy" not in reg and 3 not in reg
    p = reg.passport("basic")
    assert (p.kind, p.name, p.obj, p.summary, p.aliases, p.version, p.origin) == \
        ("widget", "plain", 1, "a plain widget", ("basic",), "1", "rouge2")
    assert p.value == 1 and registry_mod.Entry is Passport


def test_a_name_is_registered_once():
    reg = _registry()
    reg.add("plain", 1)
    with pytest.raises(ValueError, match="registered twice"):
        reg.add("plain", 2)
    with pytest.raises(ValueError, match="registered twice"):
        reg.add("other", 2, aliases=("PLAIN",))
    with pytest.raises(ValueError, match="cannot be registered"):
        reg.add_passport(passport("x", 1, kind="gadget"))


def test_decorators_register_and_return_the_object():
    reg = _registry()

    @reg.register("twice", summary="doubles", version="3", capabilities={"fast": True})
    def twice(x):
        return 2 * x

    @reg.register_family("size-<n>", match=_match_size, summary="sized", examples=("size-1",))
    def sized(canonical, scale=1):
        return int(canonical.split("-")[1]) * scale

    assert twice(2) == 4 and reg.get("TWICE") is twice
    assert reg.capability("twice", "fast") is True and reg.capability("twice", "slow", 0) == 0
    assert reg.canonical("Size07") == "size-7"
    assert reg.get("size-7") == 7 and reg.get("size7", scale=3) == 21
    assert reg.passport("size-3").name == "size-<n>" and reg.passport("size-3").is_family
    assert reg.names() == ["twice", "size-<n>"] and reg.choices() == "twice, size-<n>"
    assert [p.name for p in reg] == ["twice"] and [f.form for f in reg.families] == ["size-<n>"]
    with pytest.raises(TypeError):
        reg.get("twice", scale=2)


def test_family_parameters_are_refused_by_their_match():
    reg = _registry()
    reg.register_family("size-<n>", match=_match_size)(lambda c: c)
    with pytest.raises(UserError, match="the size must be at least 1"):
        reg.canonical("size-0")
    assert "size-0" not in reg
    msg = str(reg.refuse("size-0", "the size must be at least 1"))
    assert msg == "unknown widget 'size-0': the size must be at least 1; use one of: size-<n>"


def test_the_old_family_api_still_works():
    reg = _registry()
    reg.add("none", None, "nothing")
    reg.add_family("snow:", "snow:<lang>", lambda p: p.strip().lower(), lambda lang: f"stemmer {lang}",
                   "a stemmer", prefixes=("snow-",))
    assert reg.canonical("Snow-English") == "snow:english"
    assert reg.get("snow:German") == "stemmer german"
    assert reg.find("snow:") is None and reg.find("nothing") is None
    assert reg.names() == ["none", "snow:<lang>"]


def test_unknown_names_one_line_with_did_you_mean():
    reg = _registry()
    reg.add("smart", 1, aliases=("true",))
    reg.register_family("size-<n>", match=_match_size, examples=("size-4",))(lambda c: c)
    msg = str(reg.unknown("smrt"))
    assert msg == "unknown widget 'smrt' (did you mean 'smart'?); use one of: smart, size-<n>"
    assert "did you mean 'size-4'" in str(reg.unknown("sise-4"))
    assert str(reg.unknown(3)).startswith("unknown widget 3 (int); use one of")
    with pytest.raises(UserError):
        reg.canonical("smrt")


def test_identity_calls_the_fingerprint_only_when_asked():
    calls = []

    def fingerprint(name):
        calls.append(name)
        return f"sha256:{name}"

    reg = _registry()
    reg.add("data", 1, version="2", fingerprint=fingerprint)
    reg.add("pure", 2)
    assert calls == []
    assert reg.identity("DATA") == {"name": "data", "version": "2", "origin": "rouge2", "data": "sha256:data"}
    assert reg.identity("pure") == {"name": "pure", "version": "1", "origin": "rouge2", "data": None}
    assert calls == ["data"]


def test_fold_lets_a_registry_compare_names_its_own_way():
    reg = _registry(fold=lambda s: s.strip().lower().replace("_", "-"))
    reg.add("rouge-x", 1)
    assert reg.canonical("ROUGE_X") == "rouge-x"


def test_own_modules_are_imported_on_first_read(tmp_path, monkeypatch):
    pkg = tmp_path / "lazywidgets"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "one.py").write_text("from tests_registry_holder import REG\nREG.add('one', 1)\n")
    (pkg / "two.py").write_text("from tests_registry_holder import REG\nREG.add('two', 2)\n")
    holder = type(sys)("tests_registry_holder")
    holder.REG = _registry(packages=("lazywidgets",))
    monkeypatch.setitem(sys.modules, "tests_registry_holder", holder)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert holder.REG.entries == {}
    assert holder.REG.get("two") == 2 and sorted(holder.REG.names()) == ["one", "two"]
    for name in ("lazywidgets", "lazywidgets.one", "lazywidgets.two"):
        monkeypatch.delitem(sys.modules, name)


def test_kinds_lists_every_registry_of_rouge2():
    kinds = dict(KINDS)
    for kind in ("tokenizer", "sentence splitting", "stemmer", "stopword list", "synonym source",
                 "tagger", "multi-reference mode", "rounding"):
        assert kind in kinds, kind
        assert kinds[kind].kind == kind
    assert find_kind("stopword-lists") is kinds["stopword list"]
    assert find_kind("Stemmers") is kinds["stemmer"]
    with pytest.raises(UserError, match="did you mean"):
        find_kind("stemer")


# --------------------------------------------------------------------------- plugins


def fake_distribution(root: Path, name: str, version: str, entry_points: str, modules: dict[str, str]) -> None:
    """A distribution as pip leaves it: modules plus a .dist-info folder, on ``root``."""
    info = root / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points))
    for module, text in modules.items():
        (root / f"{module}.py").write_text(textwrap.dedent(text))


#: the registry the fake plugins register into (module ``widget_registry`` while a test runs)
PLUGGED: Registry = Registry("test widget", group="rouge2.test-widgets", listed=False)


@pytest.fixture
def plugin_path(tmp_path, monkeypatch):
    """A folder on sys.path for fake distributions; plugins forgotten before and after."""
    monkeypatch.syspath_prepend(str(tmp_path))
    holder = type(sys)("widget_registry")
    holder.PLUGGED = PLUGGED
    monkeypatch.setitem(sys.modules, "widget_registry", holder)
    registry_mod.forget_plugins()
    PLUGGED.forget_plugins()
    yield tmp_path
    PLUGGED.forget_plugins()
    registry_mod.forget_plugins()
    for name in [m for m in sys.modules if m.startswith("widgetplug")]:
        del sys.modules[name]


def test_plugins_load_lazily_with_their_origin(plugin_path):
    fake_distribution(plugin_path, "widget-extras", "0.3", """\
        [rouge2.test-widgets]
        shiny = widgetplug_a:SHINY
        selfreg = widgetplug_b
        """, {"widgetplug_a": """\
        from rouge2.registry import passport
        SHINY = passport("shiny", 42, "a shiny widget", version="5", fingerprint=lambda n: "data-" + n)
        """, "widgetplug_b": """\
        from widget_registry import PLUGGED
        PLUGGED.add("selfreg", 7, "registers itself")
        """})
    reg = PLUGGED
    reg.add("builtin", 1) if "builtin" not in reg.entries else None
    assert reg.get("builtin") == 1 and not reg._plugins_loaded  # a hit loads no plugin
    assert reg.get("Shiny") == 42  # a miss loads them
    assert reg.identity("shiny") == {"name": "shiny", "version": "5", "origin": "widget-extras 0.3",
                                     "data": "data-shiny"}
    assert reg.passport("selfreg").origin == "widget-extras 0.3"
    assert reg.passport("builtin").origin == "rouge2"


def test_a_broken_plugin_is_one_line_and_skipped(plugin_path, caplog):
    fake_distribution(plugin_path, "widget-broken", "1.0", """\
        [rouge2.test-widgets]
        boom = widgetplug_boom
        clash = widgetplug_clash:CLASH
        wrong = widgetplug_clash:NOT_A_PASSPORT
        missing = widgetplug_missing
        good = widgetplug_clash:GOOD
        """, {"widgetplug_boom": """\
        from widget_registry import PLUGGED
        PLUGGED.add("half", 1)
        raise RuntimeError("cannot start\\nsecond line")
        """, "widgetplug_clash": """\
        from rouge2.registry import passport
        CLASH = passport("builtin", 2)
        NOT_A_PASSPORT = 3
        GOOD = passport("good", 4)
        """})
    reg = PLUGGED
    reg.add("builtin", 1) if "builtin" not in reg.entries else None
    with caplog.at_level(logging.WARNING, logger="rouge2.plugins"):
        assert reg.get("good") == 4
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 4 and all("\n" not in line for line in lines)
    for name in ("boom", "clash", "wrong", "missing"):
        assert any(f"plugin '{name}' from widget-broken 1.0" in line for line in lines), (name, lines)
    assert "half" not in reg  # a plugin that fails leaves nothing behind
    assert reg.get("builtin") == 1




def test_plugin_families_that_crash_do_not_break_other_names(plugin_path, caplog):
    fake_distribution(plugin_path, "widget-crash", "0.1", """\
        [rouge2.test-widgets]
        crashy = widgetplug_crash:CRASHY
        """, {"widgetplug_crash": """\
        from rouge2.registry import passport
        def match(name):
            raise KeyError(name)
        CRASHY = passport("crashy-<x>", lambda c: c, match=match)
        """})
    reg = PLUGGED
    with caplog.at_level(logging.WARNING, logger="rouge2.plugins"):
        assert "nothing-here" not in reg
    assert any("crashy-<x>" in r.getMessage() for r in caplog.records)
