"""Benchmark: the task runner against a naive agent loop, on the same scripted tasks, in one run.

    .venv/bin/python benchmarks/agent.py [--repeats 2]

The app is Mousepad on the virtual desktop; the outcome is the file it saves. The model is
the local scripted server (tests/fixtures/llm_server.py) behind the real OpenAI SDK, so
both sides pay real HTTP and real request building; the scripted model is perfect for both.

- runner: `TaskRunner(Desktop())` — a template task plans with no model; a model task costs
  one planning call, then the tree locates and code verifies.
- naive: per step, screenshot → the model locates (it answers the point, taken here from the
  tree as a perfect vision model would) → act at that point → screenshot → the model verifies.

Tokens are estimated the same way for both: text characters / 4, and each image as
width × height / 750 (Anthropic's documented estimate), from the requests actually sent.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.conftest import environment  # noqa: E402
from tests.fixtures.llm_server import API_KEY, LLMServer  # noqa: E402
from tests.fixtures.toolkit_apps import isolated_env, mousepad_command  # noqa: E402

from winactions.agent import RunOptions, TaskRunner  # noqa: E402
from winactions.api import Desktop  # noqa: E402
from winactions.backends.linux.virtual_desktop import VirtualDesktop  # noqa: E402
from winactions.llm.client import LLMClient  # noqa: E402
from winactions.llm.config import LLMFlags  # noqa: E402

SIX_STEPS = [
    {"action": "input_text", "target_type": "Edit", "params": {"text": "line one"}},
    {"action": "press_key", "params": {"keys": "ctrl+End Enter"}},
    {"action": "input_text", "params": {"text": "line two"}},
    {"action": "press_key", "params": {"keys": "ctrl+End Enter"}},
    {"action": "input_text", "params": {"text": "line three"}},
    {"action": "press_key", "params": {"keys": "ctrl+s"}},
]
TASKS = {
    "template (2 steps)": ('write "bench text" in mousepad and save', None, "bench text"),
    "model (6 steps)": ("put three lines in the document, then keep it", SIX_STEPS, "line one\nline two\nline three"),
}


def tokens(server: LLMServer) -> int:
    total = 0
    for request in server.requests:
        total += len(request.prompt) // 4
        for message in request.body.get("messages", []):
            for block in message.get("content") if isinstance(message.get("content"), list) else []:
                if block.get("type") in ("image", "image_url"):
                    total += _image_tokens(block)
    return total


def _image_tokens(block: dict[str, Any]) -> int:
    import base64
    import io

    from PIL import Image

    data = block["image_url"]["url"].split(",", 1)[1] if block.get("type") == "image_url" else block["source"]["data"]
    with Image.open(io.BytesIO(base64.b64decode(data))) as image:
        return image.width * image.height // 750


def naive(desktop: Desktop, client: LLMClient, server: LLMServer, steps: list[dict[str, Any]]) -> None:
    """Every step: the model locates from a screenshot, the step acts, the model verifies."""
    from PIL import Image

    for step in steps:
        shot = Image.open(desktop.screenshot().path)
        point = None
        if step.get("target_type"):
            edit = next(t for t in desktop.state().targets if t.type == step["target_type"])
            assert edit.rect is not None
            point = edit.rect.center
        server.reply(json.dumps({"point": point}))
        client.complete_json(f'Task step: {step}. Where do I act? Answer {{"point": [x, y]}}', [shot])
        if step["action"] == "input_text":
            if point is not None:
                desktop.call("click-at", x=point[0], y=point[1])
                desktop.keys("ctrl+a")
            desktop.type_text(step["params"]["text"])
        else:
            desktop.keys(step["params"]["keys"])
        time.sleep(0.3)
        after = Image.open(desktop.screenshot().path)
        server.reply(json.dumps({"verified": True}))
        client.complete_json('Did the step succeed? Answer {"verified": true|false}', [shot, after])


def one(
    desk: VirtualDesktop, folder: Path, task: str, steps: list[dict[str, Any]] | None, expected: str, way: str
) -> dict[str, Any]:
    folder.mkdir(parents=True)
    doc = folder / "doc.txt"
    doc.write_text("")
    env = {**desk.env, **isolated_env(folder / "home"), "XDG_RUNTIME_DIR": str(folder / "rt")}
    (folder / "rt").mkdir(mode=0o700)
    with environment(env), LLMServer() as server, Desktop("bench") as desktop:
        launched = desktop.call("launch", command=mousepad_command(doc), title="doc.txt")
        group = int(launched.detail.split()[-1])
        try:
            while not any(t.type == "Edit" for t in desktop.state().targets):
                time.sleep(0.2)
            flags = LLMFlags(provider="openai", base_url=server.openai_url, api_key=API_KEY, model="scripted")
            started = time.perf_counter()
            if way == "runner":
                if steps is not None:
                    # a model's plan says what done means, or the run is only unverified
                    server.reply(json.dumps({"steps": steps, "success": {"file": str(doc), "file_equals": expected}}))
                result = TaskRunner(desktop, RunOptions(llm=flags, pixels=False)).run(task)
                ok_run = result.ok
            else:
                client = LLMClient(flags.resolve())
                naive(
                    desktop,
                    client,
                    server,
                    steps
                    or [
                        {"action": "input_text", "target_type": "Edit", "params": {"text": expected}},
                        {"action": "press_key", "params": {"keys": "ctrl+s"}},
                    ],
                )
                ok_run = True
            deadline = time.monotonic() + 5
            while doc.read_text() != expected and time.monotonic() < deadline:
                time.sleep(0.1)
            seconds = time.perf_counter() - started
            return {
                "ok": ok_run and doc.read_text() == expected,
                "calls": len(server.requests),
                "tokens": tokens(server),
                "seconds": seconds,
            }
        finally:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(group, sig)
                    time.sleep(0.3)
                except ProcessLookupError:
                    break


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=2)
    repeats = parser.parse_args().repeats
    rows: dict[tuple[str, str], list[dict[str, Any]]] = {}
    with VirtualDesktop() as desk, tempfile.TemporaryDirectory() as tmp:
        n = 0
        for _ in range(repeats):
            for name, (task, steps, expected) in TASKS.items():
                for way in ("runner", "naive"):  # interleaved: the machine's speed drifts
                    n += 1
                    rows.setdefault((name, way), []).append(one(desk, Path(tmp) / str(n), task, steps, expected, way))
    print("| task | loop | success | model calls | tokens | wall time (s, median) |")
    print("|---|---|---|---|---|---|")
    for (name, way), runs in rows.items():
        seconds = sorted(r["seconds"] for r in runs)[len(runs) // 2]
        print(
            f"| {name} | {way} | {sum(r['ok'] for r in runs)}/{len(runs)} | {runs[0]['calls']} | "
            f"{runs[0]['tokens']} | {seconds:.2f} |"
        )


if __name__ == "__main__":
    main()
