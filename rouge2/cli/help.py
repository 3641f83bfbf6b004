"""``rouge2 example NAME``, ``rouge2 docs [PAGE]`` and ``rouge2 components [KIND]``.

The first two print what a wheel installs, on demand; ``components`` lists
every registered component (rouge2's own and the plugins') from the
registries, with its aliases, version, origin and summary.

The example configs and the documentation are installed with the package
(``rouge2.configs``, ``rouge2.docs``), so they are there however rouge2 was
installed.  ``rouge2 example quickstart > run.yaml`` prints a config whose
input paths point at the installed sample data, so it runs from any folder.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from pathlib import Path

from rouge2.errors import UserError
from rouge2.registry import KINDS, Passport, Registry, find_kind, suggest

_REPO = Path(__file__).resolve().parents[2]


def _folder(package: str, repo_folder: str) -> Path:
    """The installed data folder of ``package`` (the source tree's before installation)."""
    try:
        spec = importlib.util.find_spec(package)
    except ModuleNotFoundError:
        spec = None
    for location in (spec.submodule_search_locations or []) if spec else []:
        if Path(location).is_dir():
            return Path(location)
    return _REPO / repo_folder


def docs_folder() -> Path:
    return _folder("rouge2.docs", "docs")


def configs_folder() -> Path:
    return _folder("rouge2.configs", "configs")


def resources_folder() -> Path:
    return _folder("rouge2.resources", "resources")


def doc_pages() -> dict[str, Path]:
    return {p.stem: p for p in sorted(docs_folder().glob("*.md"))}


def example_names() -> dict[str, Path]:
    return {p.stem: p for p in sorted(configs_folder().glob("*.yaml"))}


def example_text(name: str) -> str:
    """The example config ``name``, its paths made absolute (installed sample data)."""
    examples = example_names()
    path = examples.get(name[:-5] if name.endswith(".yaml") else name)
    if path is None:
        raise UserError(f"unknown example {name!r}{suggest(name, list(examples))}; "
                        f"examples: {', '.join(examples)}")
    text = path.read_text(encoding="utf-8")
    samples = resources_folder().as_posix()
    text = text.replace("../resources/", samples + "/")
    text = re.sub(r"(?m)^(\s*dir:\s*)\.\./out/(\S+)", r"\1rouge2-results/\2", text)
    for data in configs_folder().glob("*.txt"):  # files next to the configs (dictionaries)
        text = re.sub(rf"(?m)(:\s*){re.escape(data.name)}\s*$", rf"\g<1>{data.as_posix()}", text)
    return text


def example_main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help") or len(argv) > 1:
        names = example_names()
        print("usage: rouge2 example NAME > run.yaml\n\nPrint a bundled example config (its input "
              "paths point at the installed sample data), then run it with 'rouge2 run run.yaml'."
              "\n\nexamples:")
        for n, p in names.items():
            first = next((line[2:].strip() for line in p.read_text(encoding="utf-8").splitlines()
                          if line.startswith("# ")), "")
            print(f"  {n:<22} {first}")
        return 0 if argv and argv[0] in ("-h", "--help") else (2 if argv else 0)
    sys.stdout.write(example_text(argv[0]))
    return 0


def docs_main(argv: list[str]) -> int:
    pages = doc_pages()
    if not argv or argv[0] in ("-h", "--help"):
        print(f"usage: rouge2 docs PAGE\n\nThe documentation, installed in {docs_folder()}:\n")
        for name, path in pages.items():
            title = next((line.lstrip("# ").strip() for line in path.read_text(encoding="utf-8")
                          .splitlines() if line.startswith("#")), "")
            print(f"  {name:<16} {title}")
        return 0
    name = argv[0][:-3] if argv[0].endswith(".md") else argv[0]
    if name.startswith("docs/"):
        name = name[len("docs/"):]
    page = pages.get(name)
    if page is None:
        raise UserError(f"no docs page {argv[0]!r}{suggest(name, list(pages))}; pages: {', '.join(pages)}")
    sys.stdout.write(page.read_text(encoding="utf-8"))
    return 0


def _component_row(p: Passport) -> dict:
    return {"name": p.name, "aliases": list(p.aliases), "examples": list(p.examples), "version": p.version,
            "origin": p.origin, "summary": p.summary, "family": p.is_family}


def _print_kind(registry: Registry) -> None:
    plugins = f"; plugins: entry points {registry.group}" if registry.group else ""
    print(f"{registry.kind}{plugins}")
    rows = registry.passports()
    width = max((len(p.name) for p in rows), default=0)
    for p in rows:
        also = [*p.aliases, *(e for e in p.examples if e != p.name)]
        extra = f" (also: {', '.join(also)})" if also else ""
        origin = "" if p.origin == "rouge2" else f" [{p.origin}]"
        print(f"  {p.name:<{width}}  v{p.version:<3} {p.summary}{extra}{origin}")


def components_main(argv: list[str]) -> int:
    """``rouge2 components [KIND] [--json]``: the registered components."""
    parser = argparse.ArgumentParser(
        prog="rouge2 components",
        description="List the components rouge2 knows by name (its own and the plugins'): measures, "
                    "tokenizers, stemmers, stopword lists, synonym sources, taggers, ... with their "
                    "aliases, versions, origins and summaries (rouge2 docs plugins).")
    parser.add_argument("kind", nargs="?", help=f"one kind only: {', '.join(sorted(KINDS))}")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    registries = [find_kind(args.kind)] if args.kind else [KINDS[k] for k in sorted(KINDS)]
    if args.json:
        out = {r.kind: [_component_row(p) for p in r.passports()] for r in registries}
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    for i, registry in enumerate(registries):
        if i:
            print()
        _print_kind(registry)
    return 0
