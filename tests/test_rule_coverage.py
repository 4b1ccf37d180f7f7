"""Every rule of the rule books is cited by a test: docs/RULES.md (ids ``R4.3``),
docs/RULES-CLASSIC.md (ids ``C2.3``), docs/RULES-ROYALIST.md (ids ``Y4.5``) and
docs/RULES-TRACTOR.md (ids ``T7.3``).

A test cites a rule in its function's name, the dot written as an underscore
(``test_C2_3_…``, any case), or in its docstring or a comment inside it or right above it,
as the id itself. A module docstring, a section comment or a string in the test's body
cites nothing: the citation belongs to one test."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
RULE_BOOKS = (
    ROOT / "docs" / "RULES.md", ROOT / "docs" / "RULES-CLASSIC.md", ROOT / "docs" / "RULES-ROYALIST.md",
    ROOT / "docs" / "RULES-TRACTOR.md",
)
BOOK_LETTERS = {"RULES.md": "R", "RULES-CLASSIC.md": "C", "RULES-ROYALIST.md": "Y", "RULES-TRACTOR.md": "T"}

RULE_DEFINITION = re.compile(r"^(?:- |\| |### )([RCYT]\d+\.\d+) *\|? *(.*)$", re.MULTILINE)
"""A rule is defined where its id opens a list item (``- R2.4 A pass …``), a table row
(``| R3.1 | single | …``) or a heading of worked examples (``### Y10.2 Play``)."""

ANY_ID = re.compile(r"(?<![A-Za-z0-9])([RCYT]\d+)[._](\d+)(?![0-9])", re.IGNORECASE)
"""An id as a book or a test writes it: ``C2.3`` in text, ``C2_3`` or ``c2_3`` in a name."""


@dataclass(frozen=True)
class Rule:
    id: str
    book: str
    text: str


@dataclass(frozen=True)
class Citation:
    id: str
    test: str  # tests/FILE.py::NAME


@cache
def rules() -> dict[str, Rule]:
    """Every rule of both books by id, with the start of its text."""
    found: dict[str, Rule] = {}
    for book in RULE_BOOKS:
        for match in RULE_DEFINITION.finditer(book.read_text(encoding="utf-8")):
            rule_id, text = match[1], match[2]
            assert rule_id not in found, f"{rule_id} is defined twice"
            found[rule_id] = Rule(rule_id, book.name, text[:70])
    return found


def normalized(match: re.Match[str]) -> str:
    return f"{match[1].upper()}.{match[2]}"


def comment_lines(source: str) -> dict[int, str]:
    """Each comment of a module by its line number."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {token.start[0]: token.string for token in tokens if token.type == tokenize.COMMENT}


def texts_of_tests(path: Path) -> dict[str, str]:
    """For each test function of a module (methods of test classes included): its name,
    docstring and comments, from the comment block right above it to its last line."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    comments = comment_lines(source)
    texts: dict[str, str] = {}
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not node.name.startswith("test"):
            continue
        first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
        while first > 1 and lines[first - 2].lstrip().startswith("#"):
            first -= 1
        own = [text for line, text in comments.items() if first <= line <= (node.end_lineno or node.lineno)]
        texts[f"tests/{path.name}::{node.name}"] = "\n".join([node.name, ast.get_docstring(node) or "", *own])
    return texts


@cache
def citations() -> tuple[Citation, ...]:
    """Every rule id that a test under tests/ cites (this module's tests cite none)."""
    found: list[Citation] = []
    for path in sorted(TESTS.rglob("test_*.py")):
        if path.resolve() == Path(__file__).resolve():
            continue
        for test, text in texts_of_tests(path).items():
            found.extend(Citation(normalized(match), test) for match in ANY_ID.finditer(text))
    return tuple(found)


def test_every_rule_book_is_read() -> None:
    """Every id a book mentions is a rule defined in one of them, so no definition
    slipped past the reader; each book defines the ids of its own letter."""
    defined = rules()
    for book in RULE_BOOKS:
        mentioned = {normalized(match) for match in ANY_ID.finditer(book.read_text(encoding="utf-8"))}
        assert mentioned <= set(defined), f"{book.name} mentions undefined ids {sorted(mentioned - set(defined))}"
    assert {rule.book for rule in defined.values()} == set(BOOK_LETTERS)
    assert all(rule.id.startswith(BOOK_LETTERS[rule.book]) for rule in defined.values())


def test_every_rule_is_cited_by_a_test() -> None:
    cited = {citation.id for citation in citations()}
    missing = [rule for rule in rules().values() if rule.id not in cited]
    assert not missing, f"{len(missing)} rule(s) cited by no test:\n" + "\n".join(
        f"  {rule.id} ({rule.book}): {rule.text}" for rule in missing
    )


def test_every_id_a_test_cites_is_a_rule() -> None:
    unknown = sorted({f"{citation.id} in {citation.test}" for citation in citations() if citation.id not in rules()})
    assert not unknown, "tests cite ids no rule book defines:\n  " + "\n  ".join(unknown)
