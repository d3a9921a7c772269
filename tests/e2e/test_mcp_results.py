"""What an MCP tool result carries, on a real app (Mousepad) through the official SDK's client
(issue 39, item 3): its content once.

Each result carried its text in `content` and the whole result again as JSON in
`structuredContent`, 3-11x the text (Mousepad: `state` 312 bytes of text, 968 of JSON). Hosts
pass the model one or both: Claude Code passes the JSON and drops the text, so the compact
`state` never reached the model; others pass both, paying twice.
"""

from __future__ import annotations

import re
import subprocess
import time

import pytest

from tests.e2e.helpers.apps import wait_for
from tests.e2e.helpers.mcp_client import run_client
from tests.fixtures.toolkit_apps import mousepad_command

pytestmark = pytest.mark.desktop
OVERHEAD = 160  # bytes of a result's JSON around its text: {"content": [{"type": "text", "text": ...}], ...}


def wire(result) -> int:
    return len(result.model_dump_json(by_alias=True, exclude_none=True).encode())


def doc_shown(desktop, doc) -> str:
    """Mousepad's title once it marks the document changed ("*/path/once.txt - Mousepad")."""
    deadline = time.monotonic() + 10
    while True:
        titles = subprocess.run(["wmctrl", "-l"], env=desktop.env, capture_output=True, text=True).stdout
        changed = next((line for line in titles.splitlines() if f"*{doc}" in line), None)
        if changed is not None:
            return changed
        assert time.monotonic() < deadline, titles
        time.sleep(0.1)


def text_of(result) -> str:
    return "".join(c.text for c in result.content if c.type == "text")


def calls(title: str):
    async def script(session):
        await session.call_tool("focus", {"window": title})
        state = await session.call_tool("state", {})
        edit = int(re.search(r"^\s*\[(\d+)\] \[Edit\]", text_of(state), re.M).group(1))
        click = await session.call_tool("click", {"id": edit})
        typed = await session.call_tool("input", {"id": edit, "text": "once", "return_state": True})
        stale = await session.call_tool("click", {"id": 99999})
        return state, click, typed, stale

    return script


def test_each_result_carries_its_content_once(winctl, desktop, launch, tmp_path):
    """`state`, `click` and `input` with `return_state` send their text and nothing else; an
    error's text names its code and hint (and `isError` is set)."""
    doc = tmp_path / "once.txt"
    doc.write_text("")
    app = launch(mousepad_command(doc), title="once.txt")
    wait_for(winctl, ("Menu", "File"), ("Edit", None), app=app)
    state, click, typed, stale = run_client(desktop, tmp_path, calls("once.txt"), args=("mcp", "--tools", "all"))
    assert "once" in doc_shown(desktop, doc)  # the text reached the app: it marks its title as changed
    for result in (state, click, typed):
        assert not result.is_error, text_of(result)
        assert result.structured_content is None, result
        assert wire(result) <= len(text_of(result).encode()) + OVERHEAD, (wire(result), text_of(result))
    assert "[Edit]" in text_of(state) and text_of(click).startswith("click [")
    assert '(value: "" -> "once")' in text_of(typed) and "unchanged)" in text_of(typed), text_of(typed)
    assert stale.is_error and stale.structured_content is None
    assert text_of(stale).startswith("error (not_found): "), text_of(stale)
    assert "\nhint: " in text_of(stale), text_of(stale)


def test_structured_serves_the_json_for_programs(winctl, desktop, launch, tmp_path):
    """`winctl mcp --structured`: the JSON a program reads (the `--json` result) beside the same
    text, and an error's code and hint as fields."""
    doc = tmp_path / "json.txt"
    doc.write_text("")
    app = launch(mousepad_command(doc), title="json.txt")
    wait_for(winctl, ("Menu", "File"), ("Edit", None), app=app)
    state, click, typed, stale = run_client(
        desktop, tmp_path, calls("json.txt"), args=("mcp", "--tools", "all", "--structured")
    )
    assert any(t["type"] == "Edit" for t in state.structured_content["result"]["targets"])
    assert click.structured_content["ok"] is True and typed.structured_content["result"]["changes"]
    assert "[Edit]" in text_of(state)
    assert stale.structured_content["error"]["code"] == "not_found" and stale.structured_content["error"]["hint"]
