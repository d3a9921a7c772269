"""`winctl --device SERIAL ...` end to end: the CLI, the real adb server and client library,
and the fake phone replaying real uiautomator dumps. What reached the phone is read from the
fake's record of every shell command, never from what winctl says about itself."""

from __future__ import annotations

import base64

from tests.android.conftest import Phone
from tests.android.helpers import ids
from tests.fixtures.android.fake_device import ADB_KEYBOARD, GBOARD, IDLE_ERROR, NULL_ROOT


def test_state_lists_the_screen_of_the_app_in_front(phone: Phone) -> None:
    run = phone.winctl("state")
    assert run.code == 0, run.err
    assert 'Window: "com.wdiodemoapp/.MainActivity"' in run.out
    found = ids(run.out)
    assert {"Edit input-email", "Edit input-password", "Button button-LOGIN", "Button Forms"} <= set(found)
    assert "\U000f01f0" not in run.out  # icon-font glyphs are not names
    assert phone.state.commands.count(["uiautomator", "dump", "/dev/tty"]) == 1
    again = phone.winctl("state")
    assert ids(again.out) == found  # ids stable across calls


def test_state_json_maps_flags_onto_capabilities(phone: Phone) -> None:
    result = phone.winctl("--json", "state", "--verbose").json["result"]
    targets = result["targets"]
    by_name = {t["name"]: t for t in targets}
    password = by_name["input-password"]
    assert password["type"] == "Edit" and "protected" in password["states"] and password.get("value") is None
    assert "set_text" in password["operations"]
    assert by_name["button-LOGIN"]["operations"] == ["focus", "invoke"]
    assert "scroll" in by_name["Login-screen"]["operations"]
    assert all(0 <= t["rect"][0] < t["rect"][2] <= 1080 and t["rect"][3] <= 2340 for t in targets)  # clipped


def test_transient_dump_failures_are_retried(phone: Phone) -> None:
    phone.state.dump_failures[:] = [IDLE_ERROR, NULL_ROOT]
    run = phone.winctl("state")
    assert run.code == 0, run.err
    assert "input-email" in run.out
    assert phone.state.commands.count(["uiautomator", "dump", "/dev/tty"]) == 3


def test_a_dump_that_keeps_failing_is_a_clear_error(phone: Phone) -> None:
    phone.state.dump_failures[:] = [IDLE_ERROR] * 10
    run = phone.winctl("--json", "state")
    assert run.code == 1 or run.code != 0
    error = run.json["error"]
    assert error["code"] == "app_busy" and "never settled" in error["message"]
    assert "screenshot" in error["hint"]


def test_a_screen_without_a_tree_still_prints_with_a_warning(phone: Phone) -> None:
    phone.state.current = "game"
    run = phone.winctl("state")
    assert run.code == 0, run.err
    assert "com.example.game" in run.out and "no accessibility tree" in run.out


def test_click_taps_the_element_and_a_gone_id_is_refused(phone: Phone) -> None:
    phone.state.screens["login"].taps[(463, 2207, 617, 2340)] = "forms"
    forms = ids(phone.winctl("state").out)["Button Forms"]
    run = phone.winctl("click", str(forms))
    assert run.code == 0, run.err
    assert "via tap" in run.out
    assert phone.inputs() == [["input", "tap", "540", "2273"]]
    assert phone.state.current == "forms"
    email = ids(phone.winctl("state").out).get("Edit input-email")
    assert email is None  # the forms screen has no login field
    stale = phone.winctl("--json", "click", str(ids(phone.winctl("state").out).get("Button Forms", forms) + 10_000))
    assert stale.code != 0


def test_input_ascii_focuses_clears_and_types(phone: Phone) -> None:
    email = ids(phone.winctl("state").out)["Edit input-email"]
    run = phone.winctl("input", str(email), "me and you@x.org")
    assert run.code == 0, run.err
    # the field shows only its hint ("Email"): it is empty, so nothing is deleted
    assert phone.inputs() == [["input", "tap", "590", "853"], ["input", "text", "me%sand%syou@x.org"]]
    assert phone.state.typed == ["me and you@x.org"]
    phone.state.commands.clear()
    forms = phone.state.screens["forms"]
    assert forms.dump is not None
    forms.dump = forms.dump.replace('text="Type something"', 'text="old text"', 1)
    phone.state.current = "forms"
    field = ids(phone.winctl("state").out)["Edit text-input"]
    assert phone.winctl("input", str(field), "new").code == 0
    assert phone.inputs()[1:] == [
        ["input", "keyevent", "KEYCODE_MOVE_END"],
        ["input", "keyevent", *["KEYCODE_DEL"] * len("old text")],
        ["input", "text", "new"],
    ]


def test_unicode_without_adbkeyboard_is_refused_before_typing(phone: Phone) -> None:
    run = phone.winctl("--json", "type", "héllo 世界")
    assert run.code != 0
    error = run.json["error"]
    assert error["code"] == "unsupported" and "ADBKeyboard" in error["message"]
    assert "adb install" in error["hint"]
    assert not [c for c in phone.inputs() if c[:2] == ["input", "text"]] and phone.state.typed == []


def test_unicode_goes_through_adbkeyboard_and_the_ime_is_restored(phone: Phone) -> None:
    phone.state.imes.append(ADB_KEYBOARD)
    text = 'Grüße, 世界 — it\'s "quoted" $HOME `x`'
    run = phone.winctl("type", text)
    assert run.code == 0, run.err
    payload = base64.b64encode(text.encode()).decode()
    assert phone.inputs() == [
        ["ime", "set", ADB_KEYBOARD],
        ["am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg", payload],
        ["ime", "set", GBOARD],
    ]
    assert phone.state.typed == [text] and phone.state.ime == GBOARD


def test_phone_keys_through_the_shared_parser(phone: Phone) -> None:
    run = phone.winctl("keys", "back home volume_up app_switch enter del")
    assert run.code == 0, run.err
    assert phone.inputs() == [
        [
            "input",
            "keyevent",
            "KEYCODE_BACK",
            "KEYCODE_HOME",
            "KEYCODE_VOLUME_UP",
            "KEYCODE_APP_SWITCH",
            "KEYCODE_ENTER",
            "KEYCODE_DEL",
        ]
    ]
    phone.state.commands.clear()
    assert phone.winctl("keys", "ctrl+a Tab").code == 0
    assert phone.inputs() == [
        ["input", "keycombination", "KEYCODE_CTRL_LEFT", "KEYCODE_A"],
        ["input", "keyevent", "KEYCODE_TAB"],
    ]
    bad = phone.winctl("--json", "keys", "volume_upp")
    assert bad.code != 0 and "volume_up" in bad.json["error"]["hint"]


def test_go_home_presses_home_twice(phone: Phone) -> None:
    run = phone.winctl("go-home")
    assert run.code == 0, run.err
    assert phone.inputs() == [["input", "keyevent", "KEYCODE_HOME"]] * 2
    assert phone.state.current == "launcher"
    assert "com.motorola.launcher3" in phone.winctl("state").out


def test_swipe_and_long_press(phone: Phone) -> None:
    assert phone.winctl("swipe", "up").code == 0
    assert phone.inputs() == [["input", "swipe", "540", "1872", "540", "468", "300"]]
    phone.state.commands.clear()
    login = ids(phone.winctl("state").out)["Button button-LOGIN"]
    run = phone.winctl("long-press", str(login), "--duration", "1.5")
    assert run.code == 0, run.err
    assert phone.inputs() == [["input", "swipe", "539", "1514", "539", "1514", "1500"]]
    phone.state.commands.clear()
    screen = ids(phone.winctl("state").out)["ScrollPane Login-screen"]
    assert phone.winctl("scroll", str(screen), "down").code == 0
    (swipe,) = phone.inputs()
    assert swipe[:2] == ["input", "swipe"] and int(swipe[3]) > int(swipe[5])  # the finger goes up


def test_coordinates_off_the_screen_are_refused(phone: Phone) -> None:
    run = phone.winctl("--json", "click-at", "1080", "100")
    assert run.code != 0 and run.json["error"]["code"] == "invalid_input"
    assert phone.winctl("--json", "swipe", "--x1", "10", "--y1", "10", "--x2", "10", "--y2", "9999").code != 0
    assert phone.inputs() == []


def test_launch_by_package_and_activity(phone: Phone) -> None:
    phone.state.current = "launcher"
    run = phone.winctl("launch", "com.google.android.apps.messaging")
    assert run.code == 0, run.err
    assert "com.google.android.apps.messaging/" in run.out and "pid 6230" in run.out
    assert [
        "monkey",
        "-p",
        "com.google.android.apps.messaging",
        "-c",
        "android.intent.category.LAUNCHER",
        "1",
    ] in phone.inputs()
    missing = phone.winctl("--json", "launch", "com.example.nothere")
    assert missing.code != 0 and missing.json["error"]["code"] == "not_found"
    assert "pm list packages" in missing.json["error"]["hint"]
    bad = phone.winctl("--json", "launch", "--", "rm", "-rf")
    assert bad.code != 0 and bad.json["error"]["code"] == "invalid_input"


def test_desktop_only_commands_are_refused_with_the_reason(phone: Phone) -> None:
    for args in (
        ("mouse-move", "10", "10"),
        ("hold-key", "a", "1"),
        ("window", "maximize"),
        ("bind-window", "status"),
        ("clipboard",),
    ):
        run = phone.winctl("--json", *args)
        assert run.code != 0, args
        error = run.json["error"]
        assert error["code"] == "unsupported" and "android" in error["message"], (args, error)
    assert phone.inputs() == []


def test_screenshot_is_the_phone_screen(phone: Phone, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "shot.png"
    run = phone.winctl("screenshot", str(path), "--screen")
    assert run.code == 0, run.err
    from PIL import Image

    with Image.open(path) as image:
        assert image.size == (1080, 2340)
    assert ["screencap", "-p"] in phone.state.commands
    phone.state.current = "spotlight"  # a real screenshot of a real app, with its dump
    run = phone.winctl("screenshot", str(path), "--screen")
    assert run.code == 0, run.err
    with Image.open(path) as image, Image.open(phone.state.screens["spotlight"].screenshot_path) as real:
        assert image.size == (1080, 1920)
        assert image.convert("RGB").tobytes() == real.convert("RGB").tobytes()


def test_devices_lists_states_and_models(phone: Phone) -> None:
    run = phone.winctl("--json", "devices")
    assert run.code == 0, run.err
    devices = run.json["result"]["devices"]
    assert {"serial": phone.serial, "state": "device", "model": "Pixel_7", "product": "panther"} in devices


def test_return_state_wait_and_reads(phone: Phone) -> None:
    phone.state.screens["login"].taps[(463, 2207, 617, 2340)] = "forms"
    found = ids(phone.winctl("state").out)
    email = found["Edit input-email"]
    text = phone.winctl("get", "text", str(email))
    assert text.code == 0 and text.out.strip() == ""  # only its hint shows: the field is empty
    password = found["Edit input-password"]
    secret = phone.winctl("--json", "get", "text", str(password))
    assert secret.code != 0 and "password field" in secret.json["error"]["message"]
    inspected = phone.winctl("inspect", str(found["Button Forms"]))
    assert inspected.code == 0 and "click" in inspected.out
    assert phone.winctl("click-at", "540", "2273").code == 0  # the Forms tab, by coordinates
    waited = phone.winctl("wait", "--gone", str(email), "--timeout", "5")
    assert waited.code == 0, waited.err
    still = phone.winctl("--json", "wait", "--visible", str(email), "--timeout", "1")
    assert still.code != 0
    phone.state.current = "login"
    forms = ids(phone.winctl("state").out)["Button Forms"]
    run = phone.winctl("--return-state", "click", str(forms))
    assert run.code == 0, run.err
    # what changed, read after the tap: the login form went (`-`), the forms screen came (`+`)
    assert 'Window: "com.wdiodemoapp/.MainActivity"' in run.out
    assert all(line.startswith("- ") for line in run.out.splitlines() if "input-email" in line), run.out
    assert any(line.startswith("+ ") and "[Edit]" in line for line in run.out.splitlines()), run.out


def test_double_tap_taps_twice(phone: Phone) -> None:
    login = ids(phone.winctl("state").out)["Button button-LOGIN"]
    assert phone.winctl("dblclick", str(login)).code == 0
    assert phone.inputs() == [["input", "tap", "539", "1514"]] * 2


def test_an_element_screenshot_records_the_phones_density(phone: Phone, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A reference image cut from a 420 dpi phone says 2.625 (dpi over Android's 160), so it is
    searched for at 480 / 420 of its size on a 480 dpi one; a density the user set with
    `wm density` is what apps draw at, and wins."""
    from winactions.locate import density

    login = ids(phone.winctl("state").out)["Button button-LOGIN"]
    path = tmp_path / "login.png"
    run = phone.winctl("--json", "screenshot", "--element", str(login), str(path))
    assert run.code == 0, run.err
    assert run.json["result"]["density"] == 2.625 and density.recorded(path) == 2.625
    phone.state.screen.override = 480
    run = phone.winctl("--json", "screenshot", "--element", str(login), str(path))
    assert run.json["result"]["density"] == 3.0 and density.recorded(path) == 3.0


def test_the_node_budget_is_honoured_on_a_phone(phone: Phone) -> None:
    """WINCTL_MAX_NODES was read by the Linux backend only, while a phone's truncation note
    told its user to raise it."""
    whole = phone.winctl("--json", "state").json["result"]
    assert not whole["truncated"]
    cut = phone.winctl("--json", "state", env={"WINCTL_MAX_NODES": "5"}).json["result"]
    assert cut["truncated"] and any(w.startswith("read 5 of ") and "WINCTL_MAX_NODES" in w for w in cut["warnings"])
    assert len(cut["targets"]) < len(whole["targets"])
    bad = phone.winctl("--json", "state", env={"WINCTL_MAX_NODES": "lots"})
    assert bad.code == 2 and "WINCTL_MAX_NODES='lots' is not a whole number" in bad.json["error"]["message"]
