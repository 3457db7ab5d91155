"""Loading and validating the YAML content files, with file, line and field in every error.

Content (decks, brick sizes, boards) is data the user may edit, so a typo must be reported as
one line that names where it is, never as a traceback from deep inside the code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml
from yaml.constructor import SafeConstructor

T = TypeVar("T")


class UserError(Exception):
    """Bad input from the user: reported as one line, exit code 2."""


class ContentError(UserError):
    """A content file is wrong at a known place."""

    def __init__(self, file: str | Path, line: int | None, field: str, message: str) -> None:
        self.file = str(file)
        self.line = line
        self.field = field
        self.message = message
        where = f"{self.file}:{line}" if line is not None else self.file
        super().__init__(f"{where}: {field}: {message}" if field else f"{where}: {message}")


def data_folder(checkout_name: str, installed_name: str, module: Path | None = None) -> Path:
    """A data folder: the checkout's own (`content/`, `templates/` beside `pyproject.toml`) when
    run from source, else the copy pip installed inside the package (`tower_print/_content`,
    `_templates`; see pyproject.toml). Found by path, not by importlib.resources: the folders
    hold data, not modules, and would come back as namespace packages with no single path.
    `module`: this file's path (tests point it elsewhere)."""
    here = (module or Path(__file__)).resolve().parent
    checkout = here.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / checkout_name).is_dir():
        return checkout / checkout_name
    return here / installed_name


def content_root() -> Path:
    """The `content/` folder (see `data_folder`)."""
    return data_folder("content", "_content")


def templates_root() -> Path:
    """The `templates/` folder (see `data_folder`)."""
    return data_folder("templates", "_templates")


@dataclass(frozen=True)
class Node:
    """A YAML value with the place it came from, so validators can point at it."""

    value: Any
    file: str
    line: int
    field: str

    def error(self, message: str) -> ContentError:
        return ContentError(self.file, self.line, self.field, message)

    def __getitem__(self, key: str) -> Node:
        mapping = self.as_mapping()
        if key not in mapping:
            raise self.error(f"missing field '{key}'")
        return mapping[key]

    def get(self, key: str) -> Node | None:
        return self.as_mapping().get(key)

    def as_mapping(self) -> dict[str, Node]:
        if not isinstance(self.value, dict):
            raise self.error(f"expected a mapping, got {type_name(self.value)}")
        return self.value

    def items(self) -> Iterator[Node]:
        if not isinstance(self.value, list):
            raise self.error(f"expected a list, got {type_name(self.value)}")
        return iter(self.value)

    def only_keys(self, *allowed: str) -> None:
        for key, node in self.as_mapping().items():
            if key not in allowed:
                raise node.error(f"unknown field (expected one of: {', '.join(allowed)})")

    def plain(self) -> Any:
        """The value with all position information stripped."""
        if isinstance(self.value, dict):
            return {k: v.plain() for k, v in self.value.items()}
        if isinstance(self.value, list):
            return [v.plain() for v in self.value]
        return self.value

    def str(self) -> str:
        return self._typed(str, "a string")

    def int(self, low: int | None = None, high: int | None = None) -> int:
        value = self._typed(int, "a whole number")
        if isinstance(value, bool):
            raise self.error("expected a whole number, got a boolean")
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.error(f"{value} is out of range {low}..{high}")
        return value

    def number(self, low: float | None = None, high: float | None = None) -> float:
        if isinstance(self.value, bool) or not isinstance(self.value, (int, float)):
            raise self.error(f"expected a number, got {type_name(self.value)}")
        value = float(self.value)
        if (low is not None and value < low) or (high is not None and value > high):
            raise self.error(f"{value} is out of range {low}..{high}")
        return value

    def choice(self, options: tuple[str, ...]) -> str:
        value = self.str()
        if value not in options:
            raise self.error(f"'{value}' is not one of: {', '.join(options)}")
        return value

    def parsed(self, parse: Callable[[str], T]) -> T:
        """Apply a text parser; its UserError becomes an error at this node's place."""
        text = self.str()
        try:
            return parse(text)
        except ContentError:
            raise
        except UserError as exc:
            raise self.error(str(exc)) from None

    def _typed(self, kind: type, description: str) -> Any:
        if not isinstance(self.value, kind):
            raise self.error(f"expected {description}, got {type_name(self.value)}")
        return self.value


def type_name(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "a mapping", list: "a list", str: "a string", bool: "a boolean"}.get(
        type(value), type(value).__name__
    )


def _wrap(node: yaml.Node, file: str, field: str, scalars: SafeConstructor) -> Node:
    """`node` and all below it as `Node`s; each scalar's value as PyYAML's safe loader makes it
    (`scalars`, the tag already resolved by the composer)."""
    line = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        mapping: dict[str, Node] = {}
        for key_node, value_node in node.value:
            key = key_node.value
            path = f"{field}.{key}" if field else key
            if key in mapping:
                raise ContentError(file, key_node.start_mark.line + 1, path, "duplicate field")
            mapping[key] = _wrap(value_node, file, path, scalars)
        return Node(mapping, file, line, field or "(top)")
    if isinstance(node, yaml.SequenceNode):
        items = [_wrap(child, file, f"{field}[{i}]", scalars)
                 for i, child in enumerate(node.value)]
        return Node(items, file, line, field or "(top)")
    return Node(scalars.construct_object(node), file, line, field or "(top)")


def load_yaml(path: Path, fast: bool = False) -> Node:
    """Read a YAML file into a tree of `Node`s that remember file, line and field (`fast`:
    see `load_yaml_text`)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ContentError(path, None, "", "no such file") from None
    except OSError as exc:
        raise ContentError(path, None, "", exc.strerror or str(exc)) from None
    return load_yaml_text(text, path, fast)


def load_yaml_text(text: str, path: str | Path, fast: bool = False) -> Node:
    """Like `load_yaml` for text already in hand (`path` is named in errors). `fast` parses with
    libyaml when PyYAML has it: same nodes and lines, several times quicker on generated text."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader) if fast else yaml.SafeLoader
    try:
        root = yaml.compose(text, Loader=loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = mark.line + 1 if mark is not None else None
        raise ContentError(path, line, "(syntax)", str(exc.problem)) from None
    if root is None:
        raise ContentError(path, 1, "(top)", "the file is empty")
    return _wrap(root, str(path), "", SafeConstructor())
