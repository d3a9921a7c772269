"""The typed Python API is the table's: a method per command named by its CLI word, generated
source that is current, the same methods awaited on `AsyncDesktop`, and the command line's
reading of an element (a number is the id, any other word a name).

`desktop.type(...)` failed (the method was `type_text`) and `launch`, `find`, `dblclick` and
`drag` had none (issue 37.7); these pin that it cannot happen again as commands are added.
The same calls on real apps: tests/e2e/test_api_words.py."""

from __future__ import annotations

import importlib.util
import inspect
import warnings

import pytest
from click.testing import CliRunner

from tests.conftest import ROOT
from winactions import AsyncDesktop, Desktop, api_source
from winactions.cli.app import IdOrName
from winactions.commands.base import load_commands


def generator():
    spec = importlib.util.spec_from_file_location("gen", ROOT / "scripts" / "gen_command_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_command_is_a_method_named_by_its_cli_word():
    for cmd in load_commands().values():
        name = api_source.method_name(cmd)
        assert name == api_source.RENAMED.get(cmd.tool_name, cmd.tool_name)
        method = getattr(Desktop, name, None)
        assert inspect.isfunction(method), f"Desktop has no method {name} for `winctl {cmd.name}`"
        assert inspect.getdoc(method), name
    for word in ("type", "launch", "find", "dblclick", "drag", "state", "get_text", "drag_at", "close_window"):
        assert inspect.isfunction(getattr(Desktop, word)), word


def test_a_methods_signature_and_help_are_its_commands():
    drag = inspect.signature(Desktop.drag)
    assert list(drag.parameters)[:4] == ["self", "id", "x2", "y2"]
    assert drag.parameters["button"].kind is inspect.Parameter.KEYWORD_ONLY
    assert drag.parameters["button"].default == "left"
    assert "Literal['left', 'middle', 'right']" in str(drag.parameters["button"].annotation)
    assert drag.return_annotation == "ActionResult"
    assert load_commands()["drag"].help.splitlines()[0] in inspect.getdoc(Desktop.drag)
    assert "return_state" in drag.parameters and "window" in drag.parameters


def test_the_generated_api_is_current():
    gen = generator()
    for path, make in gen.api_sources():
        assert path.read_text(encoding="utf-8") == make(), f"{path.name} is stale: run `{gen.REGENERATE}`"


def test_async_desktop_awaits_every_method_of_desktop():
    public = {n for n, f in inspect.getmembers(Desktop, inspect.isfunction) if not n.startswith("_")}
    awaited = {n for n, f in inspect.getmembers(AsyncDesktop, inspect.iscoroutinefunction) if not n.startswith("_")}
    assert awaited == public - {"run", "close", "type_text"} | {"aclose"}
    for name in awaited - {"aclose", "call", "commands"}:
        mine, theirs = inspect.signature(getattr(AsyncDesktop, name)), inspect.signature(getattr(Desktop, name))
        assert mine == theirs, name


def test_type_text_is_a_deprecated_alias_of_type(monkeypatch):
    typed = []
    monkeypatch.setattr(Desktop, "type", lambda self, text, return_state=False: typed.append(text))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Desktop.type_text(object.__new__(Desktop), "hi")
    assert typed == ["hi"] and caught[0].category is DeprecationWarning


@pytest.mark.parametrize(
    ("word", "value"), [("7", 7), (" 12 ", 12), ("-3", -3), ("name:7", "name:7"), ("Save", "Save"), ("7a", "7a")]
)
def test_the_command_line_reads_a_number_as_the_id_and_any_other_word_as_a_name(word, value):
    assert IdOrName().convert(word, None, None) == value


def test_an_element_parameter_of_the_cli_takes_ids_and_names():
    from winactions.cli.app import build_cli

    out = CliRunner().invoke(build_cli(), ["screenshot", "--help"])
    assert "--element ID|NAME" in out.output
