"""Typing text on a phone: ASCII by `input text`, anything else through ADBKeyboard.

`input text` can only type ASCII (it throws on anything else, or types mojibake on some
builds), takes `%s` for a space, and has no escape for a literal `%s`. ADBKeyboard
(github.com/senzhk/ADBKeyBoard) is an input method that types what an `ADB_INPUT_B64`
broadcast carries, base64-encoded, so no character ever meets a shell's quoting. It is
switched on for the typing and the user's own input method is put back afterwards, even
when the typing fails.
"""

from __future__ import annotations

import base64
from collections.abc import Callable

from winactions.errors import ActionFailed, Unsupported

ADB_KEYBOARD = "com.android.adbkeyboard/.AdbIME"
CHUNK = 800  # characters per broadcast: shell command lines stay far below their limits
INSTALL_HINT = (
    "install ADBKeyboard (https://github.com/senzhk/ADBKeyBoard/releases: `adb install "
    "ADBKeyboard.apk`), then `adb shell ime enable com.android.adbkeyboard/.AdbIME`; "
    "ASCII text needs nothing"
)

Shell = Callable[[list[str]], str]


def plain_ascii(text: str) -> bool:
    """Can `input text` type it exactly? Printable ASCII without a literal %s."""
    return all(" " <= ch <= "~" for ch in text) and "%s" not in text


def input_text_commands(text: str) -> list[list[str]]:
    """`input text` for each line, with ENTER between lines (a newline is a key, not text)."""
    commands: list[list[str]] = []
    for number, line in enumerate(text.split("\n")):
        if number:
            commands.append(["input", "keyevent", "KEYCODE_ENTER"])
        if line:
            commands.append(["input", "text", line.replace(" ", "%s")])
    return commands


def type_text(shell: Shell, text: str) -> str:
    """Type `text` into the focused field; returns how."""
    if all(plain_ascii(line) for line in text.split("\n")):
        for command in input_text_commands(text):
            _checked(shell, command)
        return "input text"
    imes = shell(["ime", "list", "-s"]).split()
    if ADB_KEYBOARD not in imes:
        raise Unsupported(
            "typing non-ASCII text on this phone needs the ADBKeyboard input method, which is not "
            "installed or not enabled; nothing was typed",
            hint=INSTALL_HINT,
        )
    previous = shell(["settings", "get", "secure", "default_input_method"]).strip()
    _checked(shell, ["ime", "set", ADB_KEYBOARD])
    try:
        for start in range(0, len(text), CHUNK):
            payload = base64.b64encode(text[start : start + CHUNK].encode("utf-8")).decode("ascii")
            out = shell(["am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg", payload])
            if "Broadcast completed" not in out:
                raise ActionFailed(
                    f"the ADB_INPUT_B64 broadcast failed: {out.strip()[:200]}",
                    hint="check that ADBKeyboard is installed and enabled",
                )
    finally:
        if previous and previous != "null" and previous != ADB_KEYBOARD:
            shell(["ime", "set", previous])
    return "ADBKeyboard (ADB_INPUT_B64)"


def _checked(shell: Shell, command: list[str]) -> str:
    out = shell(command)
    if "Exception" in out or out.startswith("Error") or "Unknown input method" in out:
        raise ActionFailed(
            f"`{' '.join(command[:2])}` failed on the phone: {out.strip()[:200]}",
            hint="nothing more was typed; run `winctl state` to see the field",
        )
    return out
