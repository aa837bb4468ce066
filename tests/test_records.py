"""optlint.records: every record class in optlint compares, hashes, orders and prints as the
dataclass it stands for would, and a frozen record is frozen to mypy."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pkgutil
import subprocess
import sys
import textwrap
import typing
from pathlib import Path

import pytest

import optlint
from optlint.records import record


def _optlint_dataclasses() -> list[type]:
    """Every dataclass defined in an importable optlint module."""
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(optlint.__path__, "optlint."):
        if info.name == "optlint.__main__":  # runs the program
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional extra (the language server's pygls) is not installed
            continue
        for value in vars(module).values():
            if (isinstance(value, type) and dataclasses.is_dataclass(value)
                    and value.__module__ == module.__name__):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


CLASSES = _optlint_dataclasses()


def _from_records(cls: type, name: str) -> bool:
    method = cls.__dict__.get(name)
    return getattr(method, "__module__", None) == "optlint.records"


def _twin(cls: type) -> type:
    """The plain dataclass `cls` stands for: its fields, with the flags its methods show."""
    eq = _from_records(cls, "__eq__")
    frozen = eq and cls.__hash__ is not None
    specs = [(item.name, item.type, dataclasses.field(
        default=item.default, default_factory=item.default_factory, init=item.init,
        repr=item.repr, hash=item.hash, compare=item.compare, kw_only=item.kw_only))
        for item in dataclasses.fields(cls)]
    twin = dataclasses.make_dataclass(cls.__name__, specs, eq=eq, frozen=frozen,
                                      order=_from_records(cls, "__lt__"))
    twin.__qualname__ = cls.__qualname__
    return twin


def _instance(cls: type, values: dict[str, object]) -> object:
    """An instance holding `values`, made without `__init__` (a `__post_init__` may check them):
    what is compared is the methods a record does not take from dataclass."""
    made = object.__new__(cls)
    for name, value in values.items():
        object.__setattr__(made, name, value)
    return made


def _compiled_init(cls: type) -> object:
    """`cls.__init__` once compiled: a record compiles it on its first call (here one with too
    many arguments, which the compiled `__init__` then refuses)."""
    with pytest.raises(TypeError):
        cls(*range(len(dataclasses.fields(cls)) + 1))
    return cls.__init__


def _parameters(init: object) -> list[tuple[str, object, object]]:
    return [(parameter.name, parameter.kind, repr(parameter.default))
            for parameter in inspect.signature(init).parameters.values()]  # type: ignore[arg-type]


def test_every_optlint_dataclass_is_a_record() -> None:
    # A plain dataclass compiles its methods at import (optlint.records says why it matters).
    assert len(CLASSES) > 100
    plain = [f"{cls.__module__}.{cls.__qualname__}" for cls in CLASSES
             if not _from_records(cls, "__repr__")]
    assert plain == [], "declare these with `@record` (optlint.records), not `@dataclass`"


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_a_record_behaves_as_its_dataclass(cls: type) -> None:
    twin = _twin(cls)
    names = [item.name for item in dataclasses.fields(cls)]
    base = {name: index for index, name in enumerate(names)}
    changed = [{**base, name: base[name] + 100} for name in names]
    record_a, twin_a = _instance(cls, base), _instance(twin, base)
    assert repr(record_a) == repr(twin_a)
    assert (cls.__hash__ is None) == (twin.__hash__ is None)
    if cls.__hash__ is not None and _from_records(cls, "__eq__"):
        assert hash(record_a) == hash(twin_a)
    for values in [base, *changed]:
        record_b, twin_b = _instance(cls, values), _instance(twin, values)
        assert (record_a == record_b) == (twin_a == twin_b)
        assert (record_a != record_b) == (twin_a != twin_b)
        if _from_records(cls, "__lt__"):
            for compare in ("__lt__", "__le__", "__gt__", "__ge__"):
                assert (getattr(record_a, compare)(record_b)
                        == getattr(twin_a, compare)(twin_b))
    assert record_a != twin_a  # another class: never equal, as a dataclass's
    assert _parameters(_compiled_init(cls)) == _parameters(twin.__init__)


def test_a_records_init_does_what_its_dataclasss_does() -> None:
    made: list[str] = []

    def listed() -> list[str]:
        made.append("list")
        return []

    def fields_of(cls: type) -> dict[str, object]:
        """The body of a class with every kind of field a record takes."""
        def __post_init__(self: object) -> None:
            made.append(f"post {vars(self)}")
        return {"__annotations__": {name: "object" for name in "abcdefg"},
                "b": 2, "c": dataclasses.field(default_factory=listed),
                "d": dataclasses.field(default=4, init=False),
                "e": dataclasses.field(default_factory=listed, init=False),
                "f": dataclasses.field(init=False), "g": dataclasses.field(default=None),
                "__post_init__": __post_init__}

    plain = dataclasses.dataclass(type("Plain", (), fields_of(object)))
    ours = record(frozen=False)(type("Plain", (), fields_of(object)))
    calls: list[tuple[tuple[object, ...], dict[str, object]]] = [
        ((1,), {}), ((1, 5), {}), ((1,), {"c": [9]}), ((), {"a": 1, "g": 3}), ((1, 2, 3, 4), {})]
    for args, kwargs in calls:
        made.clear()
        expected = vars(plain(*args, **kwargs)), list(made)
        made.clear()
        assert (vars(ours(*args, **kwargs)), made) == expected
    for args, kwargs in [((), {}), ((1, 2, 3, 4, 5), {}), ((1,), {"a": 2}), ((1,), {"f": 1})]:
        with pytest.raises(TypeError):
            plain(*args, **kwargs)
        with pytest.raises(TypeError):
            ours(*args, **kwargs)
    assert _parameters(ours.__init__) == _parameters(plain.__init__)


def test_a_record_refuses_fields_its_init_does_not_write() -> None:
    for annotation in (typing.ClassVar[int], dataclasses.InitVar[int]):
        with pytest.raises(TypeError, match="a record has no ClassVar"):
            record(type("Odd", (), {"__annotations__": {"value": annotation}, "value": 1}))
    with pytest.raises(TypeError, match="a record has no ClassVar"):
        record(type("Odd", (), {"__annotations__": {"value": int},
                                "value": dataclasses.field(kw_only=True)}))


def test_what_a_class_defines_itself_is_kept_and_eq_false_is_identity() -> None:
    @record
    class Shown:
        value: int

        def __repr__(self) -> str:
            return "shown"

    @record(eq=False)
    class Identity:
        value: int

    assert repr(Shown(1)) == "shown"
    assert Shown(1) == Shown(1) and hash(Shown(1)) == hash(Shown(1))
    one, other = Identity(1), Identity(1)
    assert one == one and one != other
    assert "__eq__" not in Identity.__dict__ and Identity.__hash__ is object.__hash__


def test_a_mutable_record_is_unhashable_and_a_cycle_prints() -> None:
    @record(frozen=False)
    class Node:
        child: object = None

    node = Node()
    node.child = node
    assert Node.__hash__ is None
    assert repr(node) == "test_a_mutable_record_is_unhashable_and_a_cycle_prints.<locals>." \
                         "Node(child=...)"


def test_mypy_rejects_assigning_to_a_frozen_records_field(tmp_path: Path) -> None:
    source = tmp_path / "uses_records.py"
    source.write_text(textwrap.dedent("""
        from optlint.records import record

        @record
        class Frozen:
            value: int

        @record(frozen=False)
        class Mutable:
            value: int

        Frozen(1).value = 2
        Mutable(1).value = 2
    """))
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-incremental",
         str(source)], capture_output=True, text=True,
        cwd=Path(optlint.__file__).parent.parent, check=False)
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and "uses_records.py:12:" in errors[0], result.stdout


def _body() -> dict[str, object]:
    """A class body with every kind of field a record takes, annotated as optlint's modules are
    (strings, `from __future__ import annotations`)."""
    return {"__annotations__": {"a": "int", "b": "int", "c": "list[int]", "d": "int",
                                "e": "list[int]", "f": "int | None"},
            "b": 2, "c": dataclasses.field(default_factory=list),
            "d": dataclasses.field(default=4, init=False),
            "e": dataclasses.field(default_factory=list, init=False, repr=False),
            "f": dataclasses.field(default=None, compare=False, metadata={"m": 1}),
            "__doc__": "A body."}


def _made(cls: type) -> tuple[object, ...]:
    """What collecting the fields leaves on a class."""
    return (tuple((item.name, item.type, item.default, item.default_factory, item.init,
                   item.repr, item.hash, item.compare, dict(item.metadata), item.kw_only,
                   item._field_type)  # type: ignore[attr-defined]
                  for item in cls.__dataclass_fields__.values()),  # type: ignore[attr-defined]
            {name: cls.__dict__.get(name, "absent") for name in "abcdef"},
            cls.__dict__.get("__match_args__"), cls.__doc__,
            repr(cls.__dataclass_params__))  # type: ignore[attr-defined]


def test_a_records_fields_are_those_dataclass_collects() -> None:
    # optlint.records collects them itself (dataclass's reading of each annotation is slow).
    plain = dataclasses.dataclass(type("Body", (), _body()), init=False, eq=False, repr=False)
    ours = record(type("Body", (), _body()))
    assert _made(ours) == _made(plain)
    child_body = {"__annotations__": {"g": "str", "b": "int"}, "g": "x", "b": 7,
                  "__doc__": "A child."}
    plain_child = dataclasses.dataclass(type("Child", (plain,), dict(child_body)),
                                        init=False, eq=False, repr=False)
    ours_child = record(type("Child", (ours,), dict(child_body)))
    assert _made(ours_child) == _made(plain_child)
    assert [item.name for item in dataclasses.fields(ours_child)] == list("abcdefg")
    assert ours_child(1, 3).b == 3 and ours_child(1).b == 7
    for body, error in [({"__annotations__": {"a": "list[int]"}, "a": []}, ValueError),
                        ({"__annotations__": {}, "a": dataclasses.field()}, TypeError)]:
        with pytest.raises(error):
            dataclasses.dataclass(type("Odd", (), dict(body)))
        with pytest.raises(error):
            record(type("Odd", (), dict(body)))
    with pytest.raises(TypeError, match="a record has no ClassVar"):
        record(type("Odd", (), {"__annotations__": {"value": "typing.ClassVar[int]"},
                                "value": 1}))


def test_replaced_is_dataclasses_replace() -> None:
    from optlint.records import replaced

    @record
    class Plain:
        a: int
        b: tuple[int, ...] = ()

    @record(frozen=False)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            self.a = abs(self.a)

    @record
    class Made:
        a: int
        b: list[int] = dataclasses.field(default_factory=list, init=False)

    cached = Plain(1)
    object.__setattr__(cached, "_cache", "of the old fields")
    made = Made(1)
    made.b.append(5)
    for item, changes in [(Plain(1, (2,)), {"a": 3}), (Plain(1), {}), (cached, {"b": (4,)}),
                          (Checked(1), {"a": -2}), (made, {"a": 2})]:
        got, expected = replaced(item, **changes), dataclasses.replace(item, **changes)
        assert type(got) is type(expected) and vars(got) == vars(expected)
        assert got is not item
    with pytest.raises(TypeError):
        replaced(Plain(1), c=2)
