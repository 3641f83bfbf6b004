"""Named components, each kind in one registry: the vocabulary every door reads.

A tokenizer, stemmer, stopword list, synonym source, tagger, measure,
multi-reference mode or rounding rule has one canonical name, registered once
in the module that implements it, with a :class:`Passport`: its summary,
aliases, version, the fingerprint of the data it reads and the capabilities
the doors and planners read.  The Python API, the ``rouge2`` command-line
flags, the YAML schema and the Java ``rouge.properties`` import all resolve
names through the same :class:`Registry`, so they accept the same names,
reject the same mistakes with the same message, and record the same identity
(:meth:`Registry.identity`) in the reproducibility signature.

Two kinds of entries:

* a *name* (``smart``) with optional aliases (``true`` for ``smart``); its
  ``obj`` is the component;
* a *family* of parametrised names (``snowball:<language>``): a ``match``
  function takes a raw name to its canonical full name (None: not this
  family; :class:`~rouge2.errors.UserError`: a bad parameter), and ``obj``
  is the factory ``obj(canonical, **options) -> component``.

Names are matched case-insensitively, after stripping spaces; the canonical
spelling is the one registered.

A registry imports the modules that fill it (``modules=``, ``packages=``)
the first time a name is looked up or listed, and third-party components
from the entry-point group ``group=`` the first time a name is missed or the
names are listed (docs/plugins.md).  A broken plugin is skipped with one
warning line naming it.
"""

from __future__ import annotations

import contextvars
import difflib
import importlib
import importlib.metadata as metadata
import logging
import pkgutil
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any, Generic, TypeVar, cast

from rouge2.errors import UserError

T = TypeVar("T")

#: the logger of plugin warnings (one line each; shown on stderr when logging
#: is not configured)
PLUGIN_LOG = logging.getLogger("rouge2.plugins")

#: the origin of rouge2's own components
BUILTIN = "rouge2"

_NO_CAPABILITIES: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, eq=False)
class Passport(Generic[T]):
    """Everything about one registered component (a name or a family)."""

    kind: str                                       # the registry's kind ("tokenizer", "measure")
    name: str                                       # canonical name, or a family's form ("snowball:<language>")
    obj: Any                                        # a name: the component; a family: factory(canonical, **options)
    summary: str = ""                               # one line, for --help, did-you-mean and docs
    aliases: tuple[str, ...] = ()
    version: str = "1"                              # bump when the component's numbers change
    fingerprint: Callable[[str], Any] | None = None  # canonical name -> identity of the data it reads
    # declared facts the doors and planners read
    capabilities: Mapping[str, Any] = field(default_factory=lambda: _NO_CAPABILITIES)
    origin: str = BUILTIN                           # "rouge2", or "<distribution> <version>" (plugin)
    match: Callable[[str], str | None] | None = None  # families: raw name -> canonical, None if not ours
    examples: tuple[str, ...] = ()                  # families: spellings for did-you-mean and docs

    @property
    def is_family(self) -> bool:
        return self.match is not None

    @property
    def form(self) -> str:
        """A family's form (its ``name``), as the old ``Family.form``."""
        return self.name

    @property
    def value(self) -> Any:
        """The component (``obj``), as the old ``Entry.value``."""
        return self.obj


#: the old name of a registry entry
Entry = Passport


def passport(name: str, obj: Any, summary: str = "", *, kind: str = "", aliases: Iterable[str] = (),
             version: str = "1", fingerprint: Callable[[str], Any] | None = None,
             capabilities: Mapping[str, Any] | None = None, origin: str = BUILTIN,
             match: Callable[[str], str | None] | None = None, examples: Iterable[str] = ()) -> Passport[T]:
    """A :class:`Passport`, e.g. the value of a plugin's entry point.

    ``kind`` may be left empty: the registry that takes the passport fills it in.
    """
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"a component name must be non-empty text, got {name!r}")
    caps = MappingProxyType(dict(capabilities)) if capabilities else _NO_CAPABILITIES
    return Passport(kind, name, obj, summary, tuple(aliases), str(version), fingerprint, caps,
                    origin, match, tuple(examples))


# The origin given to components registered while a plugin loads (a plugin
# module registering itself on import).
_LOADING_ORIGIN: contextvars.ContextVar[str | None] = contextvars.ContextVar("_LOADING_ORIGIN", default=None)


class Registry(Generic[T]):
    """The components of one kind.

    ``kind`` is what a name names, for messages ("stemmer", "measure").
    ``modules``/``packages``: the modules that register components here,
    imported the first time the registry is read.  ``group``: the entry-point
    group of third-party components.  ``fold``: how a name is compared
    (default: stripped and lowercased).  ``listed=False`` keeps the registry
    out of :data:`KINDS` (throwaway registries in tests).
    """

    def __init__(self, kind: str, *, modules: Iterable[str] = (), packages: Iterable[str] = (),
                 group: str | None = None, fold: Callable[[str], str] | None = None,
                 listed: bool = True):
        self.kind = kind
        self.entries: dict[str, Passport[T]] = {}
        self.families: list[Passport[T]] = []
        self.group = group
        self._fold = fold or _key
        self._lookup: dict[str, str] = {}
        self._modules = tuple(modules)
        self._packages = tuple(packages)
        self._own_loaded = not (self._modules or self._packages)
        self._plugins_loaded = group is None
        self._loading = False  # this registry's thread is importing its modules or plugins
        self._lock = threading.RLock()
        if listed:
            _register_kind(self)

    def __repr__(self) -> str:
        return f"<Registry {self.kind}: {len(self.entries)} names, {len(self.families)} families>"

    # -- filling -----------------------------------------------------------
    def add_passport(self, p: Passport[T]) -> Passport[T]:
        """Register a passport (its kind and, while a plugin loads, its origin filled in)."""
        if p.kind and p.kind != self.kind:
            raise ValueError(f"a {p.kind} passport cannot be registered as a {self.kind}")
        origin = _LOADING_ORIGIN.get()
        p = replace(p, kind=self.kind, origin=origin if origin and p.origin == BUILTIN else p.origin)
        if p.is_family:
            if any(f.name == p.name for f in self.families):
                raise ValueError(f"{self.kind} family {p.name!r} registered twice")
            self.families.append(p)
            return p
        spellings = (p.name, *p.aliases)
        keys = [self._fold(k) for k in spellings]
        for key, k in zip(spellings, keys):
            if p.name in self.entries or self._lookup.get(k, p.name) != p.name:
                raise ValueError(f"{self.kind} name {key!r} registered twice")
        for k in keys:
            self._lookup[k] = p.name
        self.entries[p.name] = p
        return p

    def add(self, name: str, value: T, summary: str = "", aliases: Iterable[str] = (), **fields: Any) -> T:
        """Register ``name`` (and its aliases) for ``value``; returns ``value``.

        ``fields``: the other passport fields (``version``, ``fingerprint``,
        ``capabilities``, ``origin``)."""
        self.add_passport(passport(name, value, summary, aliases=aliases, **fields))
        return value

    def add_family(self, prefix: str, form: str, parse: Callable[[str], str], value: Callable[[str], T],
                   summary: str = "", prefixes: tuple[str, ...] = (), **fields: Any) -> None:
        """Register the names ``<prefix><param>``: ``parse`` takes the raw
        parameter to its canonical spelling, ``value`` the canonical
        parameter to the component."""
        accepted = tuple(p.lower() for p in (prefix, *prefixes))

        def match(name: str) -> str | None:
            k = name.strip().lower()
            for p in accepted:
                if k.startswith(p) and len(k) > len(p):
                    return prefix + parse(name.strip()[len(p):])
            return None

        def factory(canonical: str, **options: Any) -> T:
            return value(canonical[len(prefix):], **options)

        self.add_passport(passport(form, factory, summary, match=match, **fields))

    def register(self, name: str, summary: str = "", **fields: Any) -> Callable[[Any], Any]:
        """Decorator: register the decorated object under ``name``."""
        def deco(obj: Any) -> Any:
            self.add(name, obj, summary, **fields)
            return obj
        return deco

    def register_family(self, form: str, match: Callable[[str], str | None], summary: str = "",
                        **fields: Any) -> Callable[[Any], Any]:
        """Decorator: register the decorated factory ``f(canonical, **options)``
        for the names ``match`` recognises."""
        def deco(factory: Any) -> Any:
            self.add_passport(passport(form, factory, summary, match=match, **fields))
            return factory
        return deco

    def refuse(self, name: Any, why: str) -> UserError:
        """The one message for a name of this kind with a bad parameter
        (for a family's ``match``)."""
        return UserError(f"unknown {self.kind} {name!r}: {why}; use one of: {self.choices()}")

    # -- reading -----------------------------------------------------------
    def resolve(self, name: Any) -> tuple[str, Passport[T]] | None:
        """``(canonical name, passport)``, or None if ``name`` names nothing here.

        A family's parameter may still be refused (``UserError`` from its ``match``)."""
        if not isinstance(name, str):
            return None
        self._load_own()
        hit = self._resolve(name)
        if hit is None and self._load_plugins():
            hit = self._resolve(name)
        return hit

    def _resolve(self, name: str) -> tuple[str, Passport[T]] | None:
        canonical = self._lookup.get(self._fold(name))
        if canonical is not None:
            return canonical, self.entries[canonical]
        for fam in list(self.families):
            found = self._match(fam, name)
            if found is not None:
                return found, fam
        return None

    def _match(self, fam: Passport[T], name: str) -> str | None:
        assert fam.match is not None
        if fam.origin == BUILTIN:
            return fam.match(name)
        try:
            return fam.match(name)
        except UserError:
            raise
        except Exception as exc:  # a plugin's bug must not break the lookup of other names
            PLUGIN_LOG.warning("rouge2: the %s plugin %r from %s failed on %r: %s", self.kind, fam.name,
                               fam.origin, name, " ".join(f"{type(exc).__name__}: {exc}".split()))
            return None

    def find(self, name: Any) -> str | None:
        """The canonical spelling of ``name``, or None if it names nothing here.

        A family's parameter may still be refused (``UserError`` from its parser)."""
        hit = self.resolve(name)
        return None if hit is None else hit[0]

    def canonical(self, name: Any) -> str:
        """The canonical spelling of ``name``; :class:`UserError` if unknown."""
        return self._resolved(name)[0]

    def _resolved(self, name: Any) -> tuple[str, Passport[T]]:
        hit = self.resolve(name)
        if hit is None:
            raise self.unknown(name)
        return hit

    def passport(self, name: Any) -> Passport[T]:
        """The passport of ``name`` (aliases resolved; a family's for its names)."""
        return self._resolved(name)[1]

    def get(self, name: Any, **options: Any) -> T:
        """The component called ``name``; a family's is built by its factory
        from the canonical name (and ``options``)."""
        canonical, p = self._resolved(name)
        if p.is_family:
            return cast(T, p.obj(canonical, **options))
        if options:
            raise TypeError(f"{self.kind} {canonical!r} takes no options, got {sorted(options)}")
        return cast(T, p.obj)

    def capability(self, name: Any, key: str, default: Any = None) -> Any:
        """The declared capability ``key`` of ``name`` (``default`` if not declared)."""
        return self.passport(name).capabilities.get(key, default)

    def identity(self, name: Any) -> dict[str, Any]:
        """What the signature records of ``name``: canonical name, version,
        origin and the fingerprint of its data (None if it reads none)."""
        canonical, p = self._resolved(name)
        data = p.fingerprint(canonical) if p.fingerprint is not None else None
        return {"name": canonical, "version": p.version, "origin": p.origin, "data": data}

    def __contains__(self, name: Any) -> bool:
        try:
            return self.find(name) is not None
        except UserError:
            return False

    def _listing(self) -> None:
        self._load_own()
        self._load_plugins()

    def passports(self) -> list[Passport[T]]:
        """Every passport, names first, in registration order (for listings)."""
        self._listing()
        return [*self.entries.values(), *self.families]

    def names(self) -> list[str]:
        """Canonical names and family forms, in registration order (for messages and docs)."""
        return [p.name for p in self.passports()]

    def __iter__(self) -> Iterator[Passport[T]]:
        """The passports of the names (not the families: see :attr:`families`)."""
        self._listing()
        return iter(list(self.entries.values()))

    def choices(self) -> str:
        return ", ".join(self.names())

    def unknown(self, name: Any, extra: str = "") -> UserError:
        """The one message for a name this registry does not know."""
        shown = repr(name) if isinstance(name, str) else f"{name!r} ({type(name).__name__})"
        hint = ""
        if isinstance(name, str):
            candidates = dict(self._lookup)
            for fam in self.passports():
                for example in fam.examples:
                    candidates.setdefault(self._fold(example), example)
            hint = suggest(self._fold(name), candidates)
        return UserError(f"unknown {self.kind} {shown}{hint}; use one of: {self.choices()}{extra}")

    # -- loading -----------------------------------------------------------
    def _load_own(self) -> None:
        # Another thread waits on the lock until the modules are in; the
        # loading thread itself (a module reading the registry while it
        # registers) passes through.
        if self._own_loaded:
            return
        with self._lock:
            if self._own_loaded or self._loading:
                return
            self._loading = True
            try:
                for module in (*self._modules, *_package_modules(self._packages)):
                    importlib.import_module(module)
                self._own_loaded = True
            finally:
                self._loading = False

    def _load_plugins(self) -> bool:
        """Load the entry-point group once; True if this call loaded it."""
        if self._plugins_loaded:
            return False
        with self._lock:
            if self._plugins_loaded or self._loading:
                return False
            self._loading = True
            try:
                assert self.group is not None
                for ep in _entry_points(self.group):
                    self._load_plugin(ep)
            finally:
                self._plugins_loaded = True  # a broken plugin is skipped, never retried
                self._loading = False
            return True

    def _load_plugin(self, ep: metadata.EntryPoint) -> None:
        origin = _origin(ep)
        saved = (dict(self.entries), list(self.families), dict(self._lookup))
        token = _LOADING_ORIGIN.set(origin)
        try:
            value = ep.load()
            if isinstance(value, Passport):
                self.add_passport(replace(value, name=value.name or ep.name))
            elif not isinstance(value, ModuleType):
                raise TypeError(f"its entry point gives a {type(value).__name__}, "
                                "not a rouge2.registry.passport(...) or a module that registers itself")
        except Exception as exc:  # a plugin must never break rouge2: one line, skipped
            self.entries, self.families, self._lookup = saved
            reason = " ".join(f"{type(exc).__name__}: {exc}".split())
            PLUGIN_LOG.warning("rouge2: skipped the %s plugin %r from %s (entry point %s = %s): %s",
                               self.kind, ep.name, origin, self.group, ep.value, reason)
        finally:
            _LOADING_ORIGIN.reset(token)

    def forget_plugins(self) -> None:
        """Drop the plugins' components, to load the entry points again (tests)."""
        with self._lock:
            self.entries = {k: p for k, p in self.entries.items() if p.origin == BUILTIN}
            self.families = [p for p in self.families if p.origin == BUILTIN]
            self._lookup = {k: v for k, v in self._lookup.items() if v in self.entries}
            self._plugins_loaded = self.group is None


def _key(name: str) -> str:
    return name.strip().lower()


def suggest(word: str, candidates: Iterable[str] | Mapping[str, str]) -> str:
    """`` (did you mean 'x'?)`` for the closest candidate, or ``""``.

    ``candidates``: spellings, or a mapping from a folded spelling to the one shown."""
    keys = list(candidates)
    close = difflib.get_close_matches(_key(word), keys, n=1, cutoff=0.6)
    if not close:
        return ""
    target = candidates[close[0]] if isinstance(candidates, Mapping) else close[0]
    return f" (did you mean '{target}'?)"


def _package_modules(packages: Iterable[str]) -> list[str]:
    out = []
    for name in packages:
        package = importlib.import_module(name)
        out += [f"{name}.{m.name}" for m in pkgutil.iter_modules(package.__path__) if not m.ispkg]
    return out


# --------------------------------------------------------------------------- plugins

_ENTRY_POINTS: dict[str, list[metadata.EntryPoint]] | None = None


def _entry_points(group: str) -> list[metadata.EntryPoint]:
    """The entry points of ``group``, from one scan of the installed distributions."""
    global _ENTRY_POINTS
    if _ENTRY_POINTS is None:
        found: dict[str, list[metadata.EntryPoint]] = {}
        seen: set[str] = set()
        try:
            for dist in metadata.distributions():
                name = (dist.metadata["Name"] or "").lower().replace("_", "-")
                if name in seen:  # the first on sys.path wins, as importlib.metadata.entry_points
                    continue
                seen.add(name)
                for ep in dist.entry_points:
                    if ep.group.startswith("rouge2."):
                        found.setdefault(ep.group, []).append(ep)
        except Exception as exc:  # a broken installed distribution must not break rouge2
            PLUGIN_LOG.warning("rouge2: could not list plugins: %s", " ".join(str(exc).split()))
        _ENTRY_POINTS = found
    return sorted(_ENTRY_POINTS.get(group, ()), key=lambda ep: ep.name)


def _origin(ep: metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    if dist is None:
        return f"plugin {ep.value}"
    return f"{dist.metadata['Name'] or dist.name} {dist.version}"


def forget_plugins() -> None:
    """Scan the installed distributions again the next time a registry
    loads plugins, and drop the plugin components loaded so far (tests)."""
    global _ENTRY_POINTS
    _ENTRY_POINTS = None
    for registry in list(_KINDS.values()):
        registry.forget_plugins()


# --------------------------------------------------------------------------- every kind

_KINDS: dict[str, Registry[Any]] = {}


def _register_kind(registry: Registry[Any]) -> None:
    # The first registry of a kind is the one listed (tests/test_components.py
    # checks that every registry of rouge2 is); a later one of the same kind
    # (a test's throwaway) stays unlisted.
    _KINDS.setdefault(registry.kind, registry)


class _Kinds(Mapping[str, Registry[Any]]):
    """Every registry by kind.  Reading it imports every rouge2 module once,
    so each registry is there whichever modules were imported before."""

    _discovered = False

    def _discover(self) -> None:
        if _Kinds._discovered:
            return
        _Kinds._discovered = True
        root = str(Path(__file__).resolve().parent)  # the rouge2 package, not imported from here
        for info in pkgutil.walk_packages([root], "rouge2."):
            if info.name.rsplit(".", 1)[-1] != "__main__":
                importlib.import_module(info.name)

    def __getitem__(self, kind: str) -> Registry[Any]:
        self._discover()
        return _KINDS[kind]

    def __iter__(self) -> Iterator[str]:
        self._discover()
        return iter(list(_KINDS))

    def __len__(self) -> int:
        self._discover()
        return len(_KINDS)


#: every registry by kind: help texts, ``rouge2 components``, docs checks
KINDS: Mapping[str, Registry[Any]] = _Kinds()


def find_kind(word: str) -> Registry[Any]:
    """The registry of kind ``word`` (``stemmer``, ``stopword-list``,
    ``stopword list``; plural accepted); :class:`UserError` otherwise."""
    def fold(s: str) -> str:
        return s.strip().lower().replace("_", "-").replace(" ", "-")

    kinds = {fold(k): k for k in KINDS}
    w = fold(word)
    for candidate in (w, w[:-1] if w.endswith("s") else w, w[:-2] if w.endswith("es") else w):
        if candidate in kinds:
            return KINDS[kinds[candidate]]
    raise UserError(f"unknown kind of component {word!r}{suggest(w, kinds)}; use one of: "
                    f"{', '.join(sorted(kinds))}")
