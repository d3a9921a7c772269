"""MCP that clients trust, checked over the whole table without a desktop: every tool has a
title and hints derived from its command, flat schemas with ids and names apart, descriptions
in MCP's words, `--exclude-tools`, and the cancel flag that long work reads."""

from __future__ import annotations

import json
import re
import threading

import pytest

from winactions import progress
from winactions.agent.stopping import stop_reason
from winactions.commands.base import GlobalOptions, Kind, load_commands
from winactions.errors import Cancelled, InvalidInput
from winactions.mcp import profiles
from winactions.mcp.annotations import SPEC_DEFAULTS, hints
from winactions.mcp.http import read_token
from winactions.mcp.schemas import bind_elements, untitled
from winactions.mcp.server import tool_list, translated_tool

TABLE = load_commands()
TOOLS = {t.name: t for t in tool_list()}
BY_TOOL = {c.tool_name: c for c in TABLE.values()}


def said(tool, hint: str) -> bool:
    """A hint as a client reads it: sent, else the spec's default."""
    value = getattr(tool.annotations, hint)
    return SPEC_DEFAULTS[hint] if value is None else value


def test_every_tool_has_a_title_and_hints_from_its_command():
    for name, tool in TOOLS.items():
        cmd = BY_TOOL[name]
        assert tool.title and tool.title[0].isupper() and len(tool.title) <= 24, name
        wanted = hints(cmd)
        assert said(tool, "read_only_hint") == wanted["read_only_hint"] == (cmd.kind is Kind.READ), name
        assert said(tool, "open_world_hint") == wanted["open_world_hint"], name
        if not wanted["read_only_hint"]:
            assert said(tool, "destructive_hint") == wanted["destructive_hint"], name
            assert said(tool, "idempotent_hint") == wanted["idempotent_hint"], name


def test_the_hints_say_what_each_kind_of_tool_does():
    """Before: no tool had a title and only `close` was marked destructive."""
    for name in ("click", "dblclick", "keys", "type", "input", "press", "run", "replay", "close", "batch"):
        assert said(TOOLS[name], "destructive_hint"), name
    for name in ("scroll", "focus", "launch", "mouse_move", "locate_cache"):
        assert not said(TOOLS[name], "destructive_hint") and not said(TOOLS[name], "read_only_hint"), name
    for name in ("state", "find", "get_text", "windows", "screenshot", "wait"):
        assert said(TOOLS[name], "read_only_hint") and not said(TOOLS[name], "open_world_hint"), name
    for name in ("launch", "run", "replay", "open_terminal"):
        assert said(TOOLS[name], "open_world_hint"), name
    assert not said(TOOLS["click"], "open_world_hint") and said(TOOLS["input"], "idempotent_hint")


def test_no_schema_has_references_or_unions():
    """Before: 15 tools used anyOf and 8 $ref."""
    translated = [translated_tool(t) for p in profiles.TRANSLATED for t in profiles.translated_tools(p)]
    for tool in [*TOOLS.values(), *translated]:
        text = json.dumps(tool.input_schema)
        for word in ("$ref", "$defs", "anyOf", "oneOf", "allOf"):
            assert word not in text, (tool.name, word)


def test_an_element_is_an_integer_id_or_a_string_name():
    click = TOOLS["click"].input_schema
    assert click["properties"]["id"] == {"type": "integer"}
    assert click["properties"]["name"]["type"] == "string" and "required" not in click
    shot = TOOLS["screenshot"].input_schema["properties"]
    assert shot["element"] == {"type": "integer"} and shot["element_name"]["type"] == "string"
    assert TOOLS["wait"].input_schema["properties"]["visible"]["type"] == "integer"
    schema = untitled(TABLE["click"].params.model_json_schema())
    assert bind_elements(schema, {"id": 7}) == {"id": 7}
    assert bind_elements(schema, {"name": "7"}) == {"id": "name:7"}  # the element named "7", never the id
    assert bind_elements(schema, {"name": "text:Save"}) == {"id": "text:Save"}
    for wrong in ({"id": "7"}, {"id": True}, {"id": 7, "name": "Save"}, {"name": 7}):
        with pytest.raises(InvalidInput, match="nothing was done"):
            bind_elements(schema, dict(wrong))


def test_descriptions_are_in_mcp_words():
    """Before: 16 descriptions spoke the command line (--flags, `winctl state --scope`)."""
    fields = {n for t in TOOLS.values() for n in t.input_schema["properties"]} | set(GlobalOptions.model_fields)
    for tool in TOOLS.values():
        text = (tool.description or "") + json.dumps(tool.input_schema)
        assert "winctl " not in text, tool.name
        flags = [f for f in re.findall(r"(?<![\w-])--([a-z][a-z0-9-]*)", text) if f.replace("-", "_") in fields]
        assert not flags, (tool.name, flags)
    assert "select_text" in TOOLS["select_text"].description or "occurrence" in TOOLS["select_text"].description


def test_exclude_tools_names_tools_and_refuses_unknown_ones():
    served = profiles.resolve("core")
    assert profiles.excluded("get_text, type", served) == {"get_text", "type"}
    assert profiles.excluded("get text", served) == {"get_text"}
    assert profiles.excluded("", served) == frozenset()
    with pytest.raises(InvalidInput, match="no tool named clik"):
        profiles.excluded("clik", served)


def test_a_pause_ends_early_when_the_call_is_cancelled():
    cancel = threading.Event()
    with progress.watching(None, cancel=cancel.is_set):
        progress.pause(0.01)
        assert not progress.cancelled()
        threading.Timer(0.1, cancel.set).start()
        with pytest.raises(Cancelled, match="cancelled"):
            progress.pause(60)
        assert progress.cancelled()
    assert not progress.cancelled()  # nobody watching: nothing cancels


def test_a_run_stops_before_its_next_step_when_cancelled():
    assert stop_reason(None, None, 3, 2) is None
    with progress.watching(None, cancel=lambda: True):
        reason = stop_reason(None, None, 3, 2)
    assert reason is not None and "before step 3" in reason and "2 step(s) done" in reason


def test_a_token_file_must_hold_a_real_token(tmp_path):
    short = tmp_path / "short"
    short.write_text("abc\n")
    with pytest.raises(InvalidInput, match="too short"):
        read_token(str(short))
    with pytest.raises(InvalidInput, match="cannot read"):
        read_token(str(tmp_path / "missing"))
    good = tmp_path / "good"
    good.write_text("0123456789abcdefXYZ\n")
    assert read_token(str(good)) == ("0123456789abcdefXYZ", False)
    made, fresh = read_token(None)
    assert fresh and len(made) >= 32
