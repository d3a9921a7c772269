"""bridges.py: which toolkit a command starts, and the switches `winctl launch` adds.

Programs are fakes made in a temporary folder (an ELF head naming a library, a wrapper
script, a Chromium- or Electron-shaped folder), so the rules are tested without the apps.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from winactions.backends.linux import bridges
from winactions.backends.linux.bridges import CHROMIUM_FLAG, bridge_report, detect, plan

ELF = b"\x7fELF\x02\x01\x01" + b"\0" * 57


def program(folder: Path, name: str, body: bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def elf_linking(*libraries: str) -> bytes:
    return ELF + b"".join(lib.encode() + b"\0" for lib in libraries)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {"PATH": str(tmp_path / "bin"), "HOME": str(tmp_path)}


@pytest.mark.parametrize(
    ("libraries", "toolkit"),
    [
        (("libgtk-3.so.0", "libc.so.6"), "gtk3"),
        (("libgtk-4.so.1",), "gtk4"),
        (("libgtk-x11-2.0.so.0",), "gtk2"),
        (("libQt5Core.so.5", "libQt5Widgets.so.5"), "qt5"),
        (("libQt6Core.so.6",), "qt6"),
    ],
)
def test_elf_libraries_name_the_toolkit(tmp_path, env, libraries, toolkit):
    program(tmp_path / "bin", "app", elf_linking(*libraries))
    assert detect(["app"], env) == (toolkit,)


def test_a_toolkit_linked_through_the_apps_own_library(tmp_path, env, monkeypatch):
    """mousepad links GTK only through libmousepad.so.0."""
    program(tmp_path / "lib", "libmine.so.0", elf_linking("libgtk-3.so.0"))
    program(tmp_path / "bin", "app", elf_linking("libmine.so.0", "libc.so.6"))
    monkeypatch.setattr(bridges, "LIBRARY_DIRS", (str(tmp_path / "lib"),))
    assert detect(["app"], env) == ("gtk3",)


def test_qt_gets_its_variables_and_no_flag(tmp_path, env):
    program(tmp_path / "bin", "featherpad", elf_linking("libQt5Core.so.5"))
    started = plan(["featherpad", "a.txt"], env)
    assert started.argv == ["featherpad", "a.txt"]
    assert started.env["QT_ACCESSIBILITY"] == "1"
    assert started.env["QT_LINUX_ACCESSIBILITY_ALWAYS_ON"] == "1"
    assert started.env["HOME"] == env["HOME"]  # the rest of the environment is kept


def test_chromium_by_name_gets_the_flag_once(env):
    started = plan(["chromium", "https://example.org"], env)
    assert started.argv == ["chromium", CHROMIUM_FLAG, "https://example.org"]
    assert started.toolkits == ("chromium",)
    again = plan(started.argv, env)
    assert again.argv.count(CHROMIUM_FLAG) == 1


def test_an_electron_app_is_known_by_its_resources(tmp_path, env):
    app = program(tmp_path / "opt" / "Thing", "thing", ELF)
    program(tmp_path / "opt" / "Thing" / "resources", "app.asar", b"asar")
    (tmp_path / "bin").mkdir()
    os.symlink(app, tmp_path / "bin" / "thing-link")
    started = plan(["thing-link", "--x"], env)
    assert started.toolkits[0] == "electron"
    assert started.argv == ["thing-link", CHROMIUM_FLAG, "--x"]


def test_a_chromium_build_is_known_by_its_pak_files(tmp_path, env):
    program(tmp_path / "bin", "browser", ELF)
    program(tmp_path / "bin", "chrome_100_percent.pak", b"")
    assert plan(["browser"], env).argv == ["browser", CHROMIUM_FLAG]


def test_a_wrapper_script_that_starts_electron(tmp_path, env):
    program(tmp_path / "bin", "code", b'#!/bin/sh\nELECTRON="$VSCODE_PATH/code"\nexec "$ELECTRON" "$@"\n')
    assert CHROMIUM_FLAG in plan(["code"], env).argv


def test_gecko_by_its_libxul(tmp_path, env):
    app = program(tmp_path / "lib" / "ff", "browser-bin", ELF)
    program(tmp_path / "lib" / "ff", "libxul.so", ELF)
    (tmp_path / "bin").mkdir()
    os.symlink(app, tmp_path / "bin" / "browser")  # as /usr/bin/firefox-esr -> /usr/lib/firefox-esr/
    started = plan(["browser"], env)
    assert started.toolkits == ("gecko",)
    assert started.env["GNOME_ACCESSIBILITY"] == "1"
    assert started.argv == ["browser"]  # Gecko takes no flag


def test_java_gets_the_atk_wrapper_when_it_is_installed(tmp_path, env, monkeypatch):
    jar = program(tmp_path, "java-atk-wrapper.jar", b"PK")
    monkeypatch.setattr(bridges, "JAVA_ATK_WRAPPER_JAR", str(jar))
    program(tmp_path / "bin", "jedit", b"#!/bin/sh\n. /usr/lib/java-wrappers/java-wrappers.sh\nrun_java Main\n")
    started = plan(["jedit"], {**env, "JAVA_TOOL_OPTIONS": "-Xmx1g"})
    options = started.env["JAVA_TOOL_OPTIONS"]
    assert options.startswith("-Xmx1g ")  # the user's own options stay
    assert "-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper" in options
    assert f"-Xbootclasspath/a:{jar}" in options
    assert plan(["java", "-jar", "app.jar"], env).toolkits[0] == "java"


def test_java_without_the_wrapper_is_left_alone_and_says_why(tmp_path, env, monkeypatch):
    """Naming an assistive technology that is not installed aborts the JVM."""
    monkeypatch.setattr(bridges, "JAVA_ATK_WRAPPER_JAR", str(tmp_path / "missing.jar"))
    started = plan(["java", "-jar", "app.jar"], env)
    assert "JAVA_TOOL_OPTIONS" not in started.env
    assert "libatk-wrapper-java-jni" in started.problems[0]


def test_gtk2_gets_its_modules_added_to_the_users(tmp_path, env):
    program(tmp_path / "bin", "old", elf_linking("libgtk-x11-2.0.so.0"))
    started = plan(["old"], {**env, "GTK_MODULES": "canberra-gtk-module"})
    assert started.env["GTK_MODULES"] == "canberra-gtk-module:gail:atk-bridge"


def test_switches_that_turn_bridges_off_are_dropped(env):
    started = plan(["anything"], {**env, "NO_AT_BRIDGE": "1", "GTK_A11Y": "none", "QT_ACCESSIBILITY": "0"})
    assert "NO_AT_BRIDGE" not in started.env
    assert "GTK_A11Y" not in started.env
    assert started.env["QT_ACCESSIBILITY"] == "1"
    assert {"-NO_AT_BRIDGE", "-GTK_A11Y", "QT_ACCESSIBILITY=1"} <= set(started.changes)


def test_an_unknown_program_gets_only_the_harmless_switches(env):
    started = plan(["/bin/true"], env)
    assert started.argv == ["/bin/true"]
    assert "JAVA_TOOL_OPTIONS" not in started.env
    assert started.env["ACCESSIBILITY_ENABLED"] == "1"


def test_report_names_what_each_toolkit_needs():
    report = {need.toolkit: need for need in bridge_report()}
    assert {"gtk3", "gtk4", "qt5", "qt6", "chromium", "electron", "gecko", "java"} <= set(report)
    assert CHROMIUM_FLAG in report["electron"].needs
    assert "QT_ACCESSIBILITY=1" in report["qt5"].needs
    assert all(need.installed == (not need.missing) for need in report.values())


def test_report_for_one_program(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    program(tmp_path, "chromium", b"#!/bin/sh\n")
    assert [need.toolkit for need in bridge_report(["chromium"])] == ["chromium"]


def test_report_says_what_is_missing(tmp_path, monkeypatch):
    monkeypatch.setattr(bridges, "JAVA_ATK_WRAPPER_JAR", str(tmp_path / "missing.jar"))
    java = {need.toolkit: need for need in bridge_report()}["java"]
    assert not java.installed
    assert any("libatk-wrapper-java" in m for m in java.missing)


@pytest.mark.parametrize(
    "wrapper",
    [
        ["env", "QT_SCALE_FACTOR=2"],
        ["env", "-u", "LANG", "QT_SCALE_FACTOR=2"],
        ["nice", "-n", "5"],
        ["timeout", "30"],
        ["env", "A=1", "nice", "--adjustment=3", "setsid"],  # wrappers wrap each other
    ],
)
def test_a_wrapped_program_is_detected_and_its_flag_follows_its_name(tmp_path, env, wrapper):
    """`winctl launch -- env QT_SCALE_FACTOR=2 featherpad` is how HiDPI is tried: the toolkit is
    the wrapped program's, and Chromium's flag must follow chromium, not `env` (which would
    take it for a program to run)."""
    program(tmp_path / "bin", "featherpad", elf_linking("libQt5Core.so.5"))
    for name in ("env", "nice", "timeout", "setsid", "chromium"):
        program(tmp_path / "bin", name, ELF)
    assert detect([*wrapper, "featherpad", "a.txt"], env) == ("qt5",)
    started = plan([*wrapper, "chromium", "https://example.org"], env)
    assert started.toolkits == ("chromium",)
    assert started.argv == [*wrapper, "chromium", CHROMIUM_FLAG, "https://example.org"]


def test_a_wrapper_that_wraps_nothing_known_is_left_alone(tmp_path, env):
    program(tmp_path / "bin", "env", ELF)
    assert detect(["env", "A=1", "no-such-program"], env) == ()
    assert plan(["env"], env).argv == ["env"]


def test_a_programs_last_words_are_one_line_without_control_bytes(tmp_path):
    """What a failed program wrote is quoted in an error: its lines are joined on one line (a
    line of its stderr cannot pass for a line of winctl's output, "[1] [Button] ..."), terminal
    colours and control bytes are dropped, and the quote is bounded; what was kept goes."""
    from winactions.backends.linux.stderr_keeper import QUOTED_CHARS, keep_stderr, last_words

    write_end, kept = keep_stderr()  # the real keeper: sh, head and cat
    os.write(write_end, b'\x1b[31mERROR\x1b[0m: no display\n[1] [Button] "Delete all"\n\x07bell\r\n\n')
    os.close(write_end)  # the program is gone
    assert last_words(kept, settle=True) == 'ERROR: no display | [1] [Button] "Delete all" | bell'
    assert kept.file.closed
    write_end, kept = keep_stderr()
    os.write(write_end, b"y" * 5000)
    os.close(write_end)
    quoted = last_words(kept, settle=True)
    assert quoted.startswith("\u2026") and len(quoted) == QUOTED_CHARS + 1
    assert last_words(kept, settle=False) == ""  # asked once: what was kept is gone


# Lines of /proc/PID/maps as read from the running apps: xcalc, IDLE (python3 with tkinter), and
# a program that has both Tk and GTK 3 loaded (GTK 3's bridge lists what GTK draws).
XCALC_MAPS = "7f1c2a000000-7f1c2a01a000 r--p 00000000 00:2f 1 /usr/lib/x86_64-linux-gnu/libXaw7.so.7.0.0\n"
IDLE_MAPS = (
    "7f0d1b000000-7f0d1b030000 r--p 00000000 00:2f 2 /usr/lib/x86_64-linux-gnu/libtk8.6.so\n"
    "7f0d1c000000-7f0d1c010000 r--p 00000000 00:2f 3 /usr/lib/x86_64-linux-gnu/libtcl8.6.so\n"
)
GTK3_MAPS = "7f0d1d000000-7f0d1d100000 r--p 00000000 00:2f 4 /usr/lib/x86_64-linux-gnu/libgtk-3.so.0.2406.32\n"


@pytest.mark.parametrize(
    ("maps", "toolkit"),
    [
        (XCALC_MAPS, "Xaw (the Athena widgets)"),
        (IDLE_MAPS, "Tk"),
        (IDLE_MAPS + GTK3_MAPS, ""),  # it may still join the bus through GTK
        ("", ""),  # nothing tells: waited for as before
    ],
)
def test_a_process_drawing_with_a_toolkit_without_a_bridge_is_named(maps, toolkit):
    assert bridges.bridgeless_in(maps) == toolkit


def test_this_process_is_not_taken_for_one_without_a_bridge():
    assert bridges.bridgeless(os.getpid()) == ""
    assert bridges.bridgeless(None) == "" and bridges.bridgeless(2**22 + 7) == ""  # no such process


LOADER = "/work/.venv/lib/python3.11/site-packages/cv2/../../lib64"  # as cv2/__init__.py writes it


@pytest.mark.parametrize(
    ("value", "launched"),
    [
        (f"{LOADER}:", None),  # the user had none: an empty entry would search the app's working directory
        (f"{LOADER}:/opt/lib:/usr/local/lib", "/opt/lib:/usr/local/lib"),
        ("/opt/lib", "/opt/lib"),  # the user's own, kept
    ],
)
def test_an_app_is_launched_without_the_library_path_opencv_added(value, launched):
    assert plan(["xterm"], {"PATH": "/usr/bin", "LD_LIBRARY_PATH": value}).env.get("LD_LIBRARY_PATH") == launched


def test_an_app_launched_after_opencv_was_imported_gets_the_library_path_of_before():
    """In a fresh process with no LD_LIBRARY_PATH, as the daemon starts: importing cv2 sets one,
    and the app launched gets none."""
    script = (
        "import os, cv2; from winactions.backends.linux.bridges import plan; "
        "print(os.environ.get('LD_LIBRARY_PATH')); print(plan(['xterm']).env.get('LD_LIBRARY_PATH'))"
    )
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    amended, launched = run.stdout.splitlines()
    assert amended.endswith("cv2/../../lib64:")  # what OpenCV's loader does
    assert launched == "None"


@pytest.mark.parametrize("before", [None, "/opt/lib"])
def test_the_package_imports_opencv_without_changing_what_programs_it_starts_inherit(before):
    """OpenCV's loader amends LD_LIBRARY_PATH "for sub-processes" (the test above): through the
    package, the variable is as it was, for every program started after (xclip, adb, a daemon,
    an app), not only for apps `launch`ed."""
    script = (
        "import os, subprocess; import winactions.locate.template, winactions.perception.shapes; "
        "print(os.environ.get('LD_LIBRARY_PATH')); "
        "print(subprocess.run(['sh', '-c', 'echo \"${LD_LIBRARY_PATH-unset}\"'], capture_output=True, "
        "text=True).stdout.strip())"
    )
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    if before is not None:
        env["LD_LIBRARY_PATH"] = before
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    here, child = run.stdout.splitlines()
    assert here == str(before)
    assert child == (before or "unset")
