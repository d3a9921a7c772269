"""Screenshots on disk (issue 15.4): `locate --in`, `match` and `verify-location --in`, on the
real screenshots in tests/fixtures/screens (truth from their trees), with no desktop at all —
every call runs in a subprocess with DISPLAY, WAYLAND_DISPLAY and DBUS_SESSION_BUS_ADDRESS
unset, through the console script's own path (the thin client, which must not start a daemon),
and must leave the runtime directory as it found it (no session, no daemon)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import pytest
from PIL import Image

from tests.fixtures.readme import printed_as_promised, promised_prints, python_block

SCREENS = Path(__file__).parent / "fixtures" / "screens"
GTK = SCREENS / "gtk_fixture.png"
TRUTH = json.loads((SCREENS / "gtk_fixture.json").read_text())
NO_DESKTOP = ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS", "WINCTL_DEVICE")


def truth(type_: str, name: str) -> list[int]:
    return next(t["rect"] for t in TRUTH["targets"] if t["type"] == type_ and t["name"] == name)


def inside(rect: list[int], point: list[int]) -> bool:
    return rect[0] <= point[0] < rect[2] and rect[1] <= point[1] < rect[3]


def box(d: dict) -> list[int]:
    return [d["left"], d["top"], d["right"], d["bottom"]]


@pytest.fixture
def offline(tmp_path):
    """`winctl ARGS` as a separate process on a machine with no desktop."""
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = {k: v for k, v in os.environ.items() if k not in NO_DESKTOP and not k.startswith("WINCTL_")}
    env["XDG_RUNTIME_DIR"] = str(runtime)

    def run(*args: str, expect: int = 0, code: str | None = None) -> subprocess.CompletedProcess[str]:
        argv = [sys.executable, "-c", code] if code else [sys.executable, "-m", "winactions.cli.entry", *args]
        done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=180, cwd=tmp_path)
        assert done.returncode == expect, f"{args} -> {done.returncode}\n{done.stdout}\n{done.stderr}"
        assert "internal error" not in done.stdout + done.stderr
        return done

    run.env = env  # type: ignore[attr-defined]
    yield run
    left = sorted(str(p.relative_to(runtime)) for p in runtime.rglob("*"))
    assert left in ([], ["winactions"]), f"a file-only call wrote {left}: it opened a session or a daemon"


@pytest.fixture(scope="module")
def crops(tmp_path_factory):
    """Reference crops of the GTK screenshot: a button as it is, and as another theme draws it."""
    folder = tmp_path_factory.mktemp("crops")
    image = cv2.imread(str(GTK))
    left, top, right, bottom = truth("Button", "Apply")
    apply = image[top:bottom, left:right]
    cv2.imwrite(str(folder / "apply.png"), apply)
    cv2.imwrite(str(folder / "apply_dark.png"), 255 - apply)  # inverted: no template rung can match it
    bigger = cv2.resize(apply, None, fx=1.1, fy=1.1, interpolation=cv2.INTER_LINEAR)
    cv2.imwrite(str(folder / "apply_110.png"), bigger)
    (folder / "notes.png").write_text("not an image")
    moved = image.copy()  # a later screenshot: Apply moved down-right, Open Dialog's look where it was
    moved[top:bottom, left:right] = image[97:131, 285 : 285 + (right - left)]
    moved[400 : 400 + bottom - top, 700 : 700 + right - left] = apply
    cv2.imwrite(str(folder / "later.png"), moved)
    return folder


def test_match_prints_box_confidence_method_and_scale(offline, crops):
    out = offline("match", str(crops / "apply.png"), str(GTK)).stdout
    assert out.startswith("found: [67,97,190,131] centre (128, 114), confidence 1.00 by template:exact, scale 1")
    scaled = json.loads(offline("--json", "match", str(crops / "apply_110.png"), str(GTK)).stdout)["result"]
    best = scaled["matches"][0]
    assert best["method"] == "template:multiscale" and 0.87 <= best["scale"] <= 0.95  # resized by ~1/1.1
    assert inside(truth("Button", "Apply"), best["center"]) and best["confidence"] >= 0.75


def test_match_misses_and_bad_files_are_clear_errors(offline, crops):
    miss = json.loads(offline("--json", "match", str(crops / "apply_dark.png"), str(GTK), expect=3).stdout)
    assert miss["error"]["code"] == "not_found" and "best plain score" in miss["error"]["message"]
    assert "--threshold" in miss["error"]["hint"]
    cases = {
        (str(crops / "missing.png"), str(GTK)): "the reference " + str(crops / "missing.png") + " does not exist",
        (str(crops / "apply.png"), str(crops / "gone.png")): "the screenshot",
        (str(crops / "notes.png"), str(GTK)): "is not an image that can be read",
        (str(crops), str(GTK)): "is not a file",
        (str(GTK), str(crops / "apply.png")): "(1920x1080) is larger than the screenshot",
    }
    for (ref, shot), message in cases.items():
        error = json.loads(offline("--json", "match", ref, shot, expect=2).stdout)["error"]
        assert error["code"] == "invalid_input" and message in error["message"], error
    bad = offline("match", str(crops / "apply.png"), str(GTK), "--threshold", "2", expect=2)
    assert "threshold" in bad.stderr


def test_locate_in_a_screenshot_by_text_image_and_plain_name(offline, crops):
    def located(*args: str) -> dict:
        return json.loads(offline("--json", "locate", *args, "--in", str(GTK)).stdout)["result"]["located"]

    text = located("text:Apply")
    assert text["method_used"].startswith("ocr") and inside(truth("Button", "Apply"), text["element"]["click_point"])
    assert text["searched"] == {"left": 0, "top": 0, "right": 1920, "bottom": 1080}
    image = located(f"image:{crops / 'apply.png'}")
    assert image["method_used"] == "template:exact" and box(image["element"]["bbox"]) == truth("Button", "Apply")
    assert len(image["element"]["thumbnail"]) == 344  # 256 grey bytes in base64: verify-location's witness
    assert image["element"]["scale"] == 1.0 and text["element"]["scale"] is None
    wider = offline("locate", f"image:{crops / 'apply_110.png'}", "--in", str(GTK)).stdout
    assert "by template:multiscale" in wider and "drawn at 0.9" in wider and "x the reference's size" in wider, wider
    plain = located("Open Dialog", "--region", "200,90,500,60")
    assert [a["strategy"] for a in plain["attempts"]] == ["ocr"]
    assert inside(truth("Button", "Open Dialog"), plain["element"]["click_point"])
    gone = json.loads(offline("--json", "locate", "text:Quarterly revenue", "--in", str(GTK), expect=3).stdout)
    assert "no reliable match" in gone["error"]["message"]
    missing = json.loads(offline("--json", "locate", "text:Apply", "--in", "nope.png", expect=2).stdout)
    assert missing["error"]["message"].startswith("the screenshot nope.png does not exist")
    # a reference that cannot be searched for is bad input, its hint how to mend it, not "lower --reliable"
    no_ref = json.loads(offline("--json", "locate", "image:./none.png", "--in", str(GTK), expect=2).stdout)["error"]
    assert no_ref["code"] == "invalid_input" and no_ref["hint"] == "check the path"
    assert no_ref["message"].endswith("(template: reference image none.png does not exist)"), no_ref
    unreadable = json.loads(
        offline("--json", "locate", f"image:{crops / 'notes.png'}", "--in", str(GTK), expect=2).stdout
    )["error"]
    assert "is not an image OpenCV can read" in unreadable["message"] and unreadable["hint"] == "save it as PNG"
    unnamed = json.loads(offline("--json", "locate", "image:none.png", "--in", str(GTK), expect=3).stdout)["error"]
    assert "no file none.png in " in unnamed["message"] and "--reliable" not in unnamed["hint"], unnamed
    assert "--reliable" not in gone["error"]["hint"]  # nothing was found below the bar: lowering it finds nothing


def test_verify_location_on_saved_screenshots(offline, crops):
    found = json.loads(offline("--json", "locate", f"image:{crops / 'apply.png'}", "--in", str(GTK)).stdout)
    element = found["result"]["located"]["element"]
    at = "{left},{top},{w},{h}".format(
        w=element["bbox"]["right"] - element["bbox"]["left"],
        h=element["bbox"]["bottom"] - element["bbox"]["top"],
        **element["bbox"],
    )
    target = f"image:{crops / 'apply.png'}"

    def verify(shot: Path, *extra: str) -> dict:
        out = offline("--json", "verify-location", target, "--at", at, *extra, "--in", str(shot)).stdout
        return json.loads(out)["result"]["verification"]

    same = verify(GTK, "--thumbnail", element["thumbnail"])
    assert same["still_there"] and same["checked"] == "pixels" and same["difference"] < 1
    later = verify(crops / "later.png", "--thumbnail", element["thumbnail"])
    assert not later["still_there"] and later["checked"] == "located"
    assert "changed" in later["reason"] and "moved: now at [700,400,823,434]" in later["reason"]
    assert box(later["now"]) == [700, 400, 823, 434]
    again = verify(GTK)  # no thumbnail: looked for again, found at the same place
    assert again["still_there"] and again["checked"] == "located" and "found there again" in again["reason"]
    text = offline("verify-location", target, "--at", at, "--in", str(crops / "later.png")).stdout
    assert text.startswith("still there: no — ") and "moved" in text
    off = verify(GTK, "--at", "5000,10,20,20")  # the later --at wins: a box off the screenshot
    assert not off["still_there"] and "off every screen" in off["reason"]
    bad = json.loads(
        offline(
            "--json", "verify-location", target, "--at", at, "--thumbnail", "abc", "--in", str(GTK), expect=2
        ).stdout
    )
    assert "thumbnail" in bad["error"]["message"]
    bad_box = json.loads(
        offline("--json", "verify-location", target, "--at", "1,2,3", "--in", str(GTK), expect=2).stdout
    )
    assert "x,y,width,height" in bad_box["error"]["message"]


def test_the_python_api_needs_no_desktop(offline, crops):
    code = f"""
import json
from winactions import locate_in, match, verify_location, InvalidInput, NotFound
found = locate_in("text:Apply", {str(GTK)!r}).located.element
best = match({str(crops / "apply.png")!r}, {str(GTK)!r}).matches[0]
later = verify_location("image:{crops / "apply.png"}", best.box, image={str(crops / "later.png")!r},
                        thumbnail=locate_in("image:{crops / "apply.png"}", {str(GTK)!r}).located.element.thumbnail)
errors = []
try:
    match({str(GTK)!r}, {str(crops / "apply.png")!r})
except InvalidInput as exc:
    errors.append(exc.code)
try:
    match({str(crops / "apply_dark.png")!r}, {str(GTK)!r})
except NotFound as exc:
    errors.append(exc.code)
import sys
platform = sorted(m for m in sys.modules if m.startswith(("winactions.backends.linux", "dbus_fast", "Xlib", "mss")))
print(json.dumps({{"text": list(found.click_point), "method": found.method, "match": best.box.model_dump(),
                  "scale": best.scale, "still": later.verification.still_there, "errors": errors,
                  "platform": platform}}))
"""
    out = json.loads(offline(code=code).stdout)
    assert inside(truth("Button", "Apply"), out["text"]) and out["method"].startswith("ocr")
    assert box(out["match"]) == truth("Button", "Apply") and out["scale"] == 1.0
    assert out["still"] is False and out["errors"] == ["invalid_input", "not_found"]
    assert out["platform"] == [], "no platform backend was loaded for files"


def test_the_readmes_offline_example_runs_as_written(offline, tmp_path):
    """In a scratch folder with no desktop: the example draws its own screenshot and needs no
    file of the checkout; the files it says it wrote are there."""
    code = python_block("<!-- offline-api -->")
    done = offline(code=code)
    assert printed_as_promised(code, done.stdout), f"README.md promises:\n{promised_prints(code)}\n{done.stdout}"
    assert Image.open(tmp_path / "apply.png").size == (161, 51)


def test_the_thin_client_keeps_file_calls_local():
    from winactions.cli.entry import reads_only_files

    assert reads_only_files("match", ["match", "a.png", "b.png"])
    assert reads_only_files("locate", ["--json", "locate", "text:Save", "--in", "s.png"])
    assert reads_only_files("verify-location", ["verify-location", "x", "--at", "1,2,3,4", "--in=s.png"])
    assert not reads_only_files("locate", ["locate", "text:Save"])
    assert not reads_only_files("locate", ["locate", "--", "--in"])
    assert not reads_only_files("click", ["click", "--in", "x"])


def test_cli_and_mcp_spell_the_file_option_in():
    from winactions.cli.app import build_cli
    from winactions.commands.base import load_commands

    cli = build_cli()
    for name in ("locate", "verify-location"):
        option = next(p for p in cli.commands[name].params if p.name == "in_")
        assert option.opts == ["--in"]
        schema = load_commands()[name].params.model_json_schema()["properties"]
        assert "in" in schema and "in_" not in schema
