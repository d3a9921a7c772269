"""`--infer llm` and `--vision llm` on the real GTK fixture, with the real SDKs talking HTTP to a
local server that speaks the OpenAI and Anthropic APIs (only the model's answers are scripted)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import start_app, stop_app
from tests.fixtures.applog import AppLog
from tests.fixtures.launch import gtk_fixture_command
from tests.fixtures.llm_server import API_KEY, LLMServer

pytestmark = pytest.mark.desktop
TITLE = "Model Tiers Fixture"
CANVAS_BUTTONS = {"play": (24, 24, 40), "stop": (84, 24, 40)}  # as painted by the fixture


@pytest.fixture(scope="module")
def server():
    with LLMServer() as s:
        yield s


@pytest.fixture
def app(desktop, tmp_path, winctl):
    log = tmp_path / "events.jsonl"
    proc = start_app(desktop, gtk_fixture_command(str(log), rows=30, title=TITLE), TITLE)
    winctl("focus", TITLE)
    yield AppLog(str(log))
    stop_app(proc)


def model_flags(server, provider="openai", model="gpt-4o-mini"):
    url = server.openai_url if provider == "openai" else server.anthropic_url
    return ["--vision-base-url", url, "--vision-api-key", API_KEY, "--llm-provider", provider, "--vision-model", model]


def by(state, type_, name=None):
    return [t for t in state["targets"] if t["type"] == type_ and (name is None or t["name"] == name)]


def tree_index(server_request, element_line):
    """The number the model saw for an element, read back from the prompt it was sent."""
    for line in server_request.prompt.splitlines():
        if element_line in line:
            return int(line.split("]", 1)[0].lstrip("["))
    raise AssertionError(f"{element_line!r} not in the prompt")


def test_infer_llm_keeps_only_what_follows_from_its_anchors(winctl, app, server):
    plain = winctl("--json", "state", "--verbose").json["result"]
    table = by(plain, "Table", "Files")[0]
    left, top, right, bottom = table["rect"]
    # the prompt numbers elements by position; the first call learns the numbers, the second answers
    server.reply("[]")
    winctl("--json", *model_flags(server), "--infer", "llm", "state")
    sent = server.requests[-1]
    assert sent.images == 0 and "rect=[" in sent.prompt, "text only: the tree with its rects"
    k = tree_index(sent, '[Table] "Files"')
    reply = [
        {
            "type": "PanelGrip",
            "name": "files pane edge",
            "rect": [left, bottom - 3, right, bottom + 3],
            "confidence": 0.85,
            "derived_from": f"grip_y = [{k}].rect.bottom",
        },
        {
            "type": "Splitter",
            "name": "the pane divider again",
            "rect": [right - 3, top, right + 3, bottom],
            "confidence": 0.9,
            "derived_from": f"[{k}].rect.right",
        },
        {
            "type": "Splitter",
            "name": "invented",
            "rect": [left + 200, 5, left + 206, 40],
            "confidence": 0.9,
            "derived_from": f"[{k}].rect.left + 200",
        },
        {
            "type": "RowBorder",
            "name": "unsure",
            "rect": [left, top + 40, right, top + 46],
            "confidence": 0.4,
            "derived_from": f"[{k}]",
        },
        {"type": "PanelGrip", "name": "no source", "rect": [left - 3, top, left + 3, bottom], "confidence": 0.9},
    ]
    server.reply("Here is what I found:\n```json\n" + json.dumps(reply) + "\n```")
    state = winctl("--json", *model_flags(server), "--infer", "llm", "state", "--verbose").json["result"]
    grips = by(state, "PanelGrip")
    assert [g["name"] for g in grips] == ["files pane edge"]
    assert grips[0]["rect"] == [left, bottom - 3, right, bottom + 3]
    assert grips[0]["source"] == "inferred" and grips[0]["derived_from"] == f"llm: grip_y = [{table['id']}].rect.bottom"
    assert len(by(state, "Splitter")) == 1, "the rules' splitter is not repeated"
    warnings = "\n".join(state["warnings"])
    assert "does not follow from" in warnings and "confidence 0.40 < 0.7" in warnings and "no derived_from" in warnings
    assert by(state, "ColumnBorder"), "the rules still run beside the model"
    report = next(t for t in state["tiers"] if t.startswith("infer-llm"))
    assert report.startswith("infer-llm: +1 inferred, 1 already known, 3 rejected") and "tokens in" in report


def test_the_confidence_threshold_is_tunable_and_a_bad_value_is_refused(winctl, app, server, monkeypatch):
    table = by(winctl("--json", "state", "--verbose").json["result"], "Table", "Files")[0]
    left, _top, right, bottom = table["rect"]
    server.reply("[]")
    winctl("--json", *model_flags(server), "--infer", "llm", "state")
    k = tree_index(server.requests[-1], '[Table] "Files"')
    grip = json.dumps(
        [
            {
                "type": "PanelGrip",
                "name": "files pane edge",
                "rect": [left, bottom - 3, right, bottom + 3],
                "confidence": 0.85,
                "derived_from": f"grip_y = [{k}].rect.bottom",
            }
        ]
    )

    def inferred(*flags):
        server.reply(grip)
        return winctl("--json", *model_flags(server), *flags, "--infer", "llm", "state").json["result"]

    strict = inferred("--infer-min-confidence", "0.9")
    assert not by(strict, "PanelGrip") and "confidence 0.85 < 0.9" in "\n".join(strict["warnings"])
    monkeypatch.setenv("WINCTL_INFER_MIN_CONFIDENCE", "0.8")
    assert by(inferred(), "PanelGrip"), "0.85 passes a threshold of 0.8 set in the environment"
    assert not by(inferred("--infer-min-confidence", "0.9"), "PanelGrip"), "the flag wins over the environment"

    monkeypatch.setenv("WINCTL_INFER_MIN_CONFIDENCE", "high")
    bad = winctl("--json", "--infer", "llm", "state", expect=2).json["error"]
    assert bad["code"] == "invalid_input" and "WINCTL_INFER_MIN_CONFIDENCE='high' is not a number" in bad["message"]
    assert "[Table]" in winctl("state").out, "a state without the model tier does not need the threshold"
    out_of_range = winctl("--vision-iou", "1.5", "--vision", "local", "state", expect=2)
    assert "--vision-iou" in out_of_range.err and "hint:" in out_of_range.err


def test_infer_llm_merges_without_duplicating_the_rules(winctl, app, server):
    state = winctl("--json", "--infer", "state", "--verbose").json["result"]
    border = by(state, "ColumnBorder", "ID | Name")[0]
    server.reply("[]")
    winctl("--json", *model_flags(server), "--infer", "llm", "state")
    k = tree_index(server.requests[-1], '[HeaderItem] "ID"')
    server.reply(
        json.dumps(
            [
                {
                    "type": "ColumnBorder",
                    "name": "ID/Name",
                    "rect": border["rect"],
                    "confidence": 0.9,
                    "derived_from": f"[{k}].rect.right",
                }
            ]
        )
    )
    again = winctl("--json", *model_flags(server), "--infer", "llm", "state", "--verbose").json["result"]
    assert len(by(again, "ColumnBorder")) == len(by(state, "ColumnBorder"))


def test_a_garbage_reply_leaves_the_state_with_a_warning(winctl, app, server):
    server.reply("I'm sorry, I can't help with that.")
    run = winctl(*model_flags(server), "--infer", "llm", "state")
    assert "ColumnBorder" in run.out, "rules and tree still print"
    assert "warning: infer-llm failed: the model (gpt-4o-mini) replied without usable JSON" in run.out


def test_a_missing_key_is_a_warning_that_says_how_to_set_one(winctl, app, monkeypatch):
    for var in ("WINCTL_VISION_API_KEY", "WINCTL_VISION_BASE_URL", "ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    run = winctl("--infer", "llm", "state")
    assert "[Table]" in run.out
    assert "warning: infer-llm failed: no API key for the language model" in run.out
    assert "WINCTL_VISION_API_KEY" in run.out


def canvas_truth(state):
    canvas = (
        by(state, "Canvas")[0] if by(state, "Canvas") else next(t for t in state["targets"] if t["name"] == "Canvas")
    )
    cx, cy = canvas["rect"][0], canvas["rect"][1]
    return {name: [cx + x, cy + y, cx + x + s, cy + y + s] for name, (x, y, s) in CANVAS_BUTTONS.items()}


@pytest.mark.parametrize(("provider", "model"), [("anthropic", "claude-sonnet-4-6"), ("openai", "glm-4v-flash")])
def test_vision_llm_boxes_map_back_to_the_screen_and_a_click_fires(winctl, app, server, provider, model):
    state = winctl("--json", "state", "--verbose").json["result"]
    truth = canvas_truth(state)
    window = state["window"]["rect"]
    ox, oy = window["left"], window["top"]
    width, height = window["right"] - ox, window["bottom"] - oy
    x1, y1, x2, y2 = truth["play"]
    if model.startswith("glm"):  # GLM answers on a 0-1000 grid
        box = [(x1 - ox) * 1000 / width, (y1 - oy) * 1000 / height, (x2 - ox) * 1000 / width, (y2 - oy) * 1000 / height]
    else:
        box = [x1 - ox, y1 - oy, x2 - ox, y2 - oy]
    apply = by(state, "Button", "Apply")[0]["rect"]
    server.reply(
        json.dumps(
            [
                {"type": "Button", "name": "play", "box": box, "confidence": 0.9},
                {
                    "type": "Button",
                    "name": "Apply",
                    "box": [apply[0] - ox, apply[1] - oy, apply[2] - ox, apply[3] - oy],
                },
                {"type": "Button", "box": "nonsense"},
            ]
        )
    )
    seen = winctl("--json", *model_flags(server, provider, model), "--vision", "llm", "state", "--verbose").json[
        "result"
    ]
    assert server.requests[-1].images == 1
    play = by(seen, "Button", "play")
    assert len(play) == 1 and play[0]["source"] == "vision"
    assert all(abs(a - e) <= 1 for a, e in zip(play[0]["rect"], truth["play"]))
    assert len(by(seen, "Button", "Apply")) == 1, "what the tree has is not added twice"
    assert any("vision-llm: +1 of 2 seen" in t and "1 unusable" in t for t in seen["tiers"])
    since = len(app.events())
    winctl("click", str(play[0]["id"]))
    app.wait_for("canvas_button", since=since, hit="play")


def test_tiers_that_find_nothing_say_so(winctl, app, server):
    server.reply("[]")
    state = winctl("--json", *model_flags(server), "--infer", "llm", "--vision", "llm", "state").json["result"]
    tiers = state["tiers"]
    assert any(t.startswith("infer-llm: +0 inferred") for t in tiers), tiers
    assert any(t.startswith("vision-llm: +0 of 0 seen") for t in tiers), tiers
    assert not state.get("warnings"), "finding nothing is a result, not a failure"
    text = winctl(*model_flags(server), "--infer", "llm", "state").out
    assert "tier: infer-llm: +0 inferred" in text
