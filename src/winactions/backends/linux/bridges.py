"""Which accessibility bridge a program's toolkit needs, and the switches that turn it on.

Every Linux toolkit reaches AT-SPI through its own bridge, and several leave it off unless
told: Chromium and Electron export their tree only with `--force-renderer-accessibility`,
Java Swing needs the ATK wrapper named as an assistive technology (Debian ships it but
leaves it commented out), GTK2 loads its bridge only from GTK_MODULES, Qt and Gecko start
theirs when the bus says a screen reader runs or when an environment variable forces it,
and NO_AT_BRIDGE / GTK_A11Y=none switch GTK's off. `winctl launch` asks `plan()` for the
command line and environment; a future `winctl doctor` asks `bridge_report()` what each
toolkit needs and whether the pieces are installed.

The toolkit is guessed from the program itself (name, neighbouring files, the libraries
its ELF header names, or the text of a wrapper script), never by running it. Switches that
are harmless to every program (the Qt, GNOME and AT-SPI variables) are always set, since a
launcher script may start a program of any toolkit; the rest only where detected, because a
stray `--force-renderer-accessibility` is an unknown option to other programs and a Java
assistive technology that is not installed aborts the JVM.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

CHROMIUM_FLAG = "--force-renderer-accessibility"
JAVA_ATK_WRAPPER_JAR = "/usr/share/java/java-atk-wrapper.jar"
JAVA_ATK_WRAPPER_CLASS = "org.GNOME.Accessibility.AtkWrapper"
GTK2_BRIDGE_DIR = "/usr/lib/x86_64-linux-gnu/gtk-2.0/modules"
GTK2_MODULES = ("gail", "atk-bridge")

# Safe for any program: each toolkit reads only its own variable.
ALWAYS_ENV = {
    "ACCESSIBILITY_ENABLED": "1",  # AT-SPI's own convention, read by at-spi2-atk and Chromium
    "GNOME_ACCESSIBILITY": "1",  # Gecko (Firefox, Thunderbird) and GTK2 apps: start the ATK bridge
    "QT_ACCESSIBILITY": "1",  # Qt 4/5/6: allow the AT-SPI bridge
    "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",  # Qt 5.x/6.x: start it without waiting for a screen reader
}
# Variables whose presence switches a bridge off.
DISABLING_ENV = {"NO_AT_BRIDGE": None, "GTK_A11Y": "none"}  # None: any value disables
OPENCV_LOADER_PATH = os.path.join("cv2", "..", "..", "lib64")  # the folder cv2's loader adds to LD_LIBRARY_PATH

CHROMIUM_NAMES = re.compile(
    r"^(chromium(-browser)?|chrome|google-chrome.*|brave(-browser)?.*|microsoft-edge.*|"
    r"vivaldi.*|opera.*|thorium.*|electron\d*)$"
)
GECKO_NAMES = re.compile(r"^(firefox.*|thunderbird.*|icedove|iceweasel|seamonkey|librewolf|waterfox.*)$")
JAVA_NAMES = re.compile(r"^javaw?$")
# programs that run the command after their own options (`env QT_SCALE_FACTOR=2 featherpad`):
# the toolkit is the wrapped program's, and a flag goes after its name, not the wrapper's
WRAPPERS = frozenset(
    {
        "env",
        "nice",
        "nohup",
        "setsid",
        "stdbuf",
        "timeout",
        "ionice",
        "taskset",
        "chrt",
        "dbus-run-session",
        "dbus-launch",
        "systemd-run",
        "xvfb-run",
        "catchsegv",
    }
)
SCRIPT_HINTS = (
    ("electron", re.compile(rb"electron|app\.asar", re.I)),
    ("java", re.compile(rb"\brun_java\b|\bexec\s+\S*java\b|\$\{?JAVA(_HOME|CMD)?\b|\bjava\s+-|\.jar\b")),
    ("chromium", re.compile(rb"/chrom(e|ium)\b")),
    ("gecko", re.compile(rb"firefox|thunderbird|libxul")),
)
ELF_LIBRARIES = (  # DT_NEEDED names, found in the dynamic string table near the file's start
    ("gtk4", b"libgtk-4.so"),
    ("gtk3", b"libgtk-3.so"),
    ("gtk2", b"libgtk-x11-2.0.so"),
    ("qt6", b"libQt6Core.so"),
    ("qt5", b"libQt5Core.so"),
    ("qt4", b"libQtCore.so.4"),
)
NEEDED_NAME = re.compile(rb"lib[\w+.-]+?\.so(?:\.\d+)*(?=\x00)")
COMMON_LIBRARIES = (
    "libc.",
    "libm.",
    "libdl.",
    "libpthread.",
    "libstdc++",
    "libgcc_s",
    "libglib-",
    "libgobject-",
    "libgio-",
    "libz.",
    "libX",
    "libxcb",
    "libcairo",
    "libpango",
    "libdbus",
    "libsystemd",
)
LIBRARY_DIRS = ("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/lib")
ELF_HEAD_BYTES = 8 << 20  # the dynamic string table sits before the code; never read a 200 MB binary whole
SCRIPT_HEAD_BYTES = 64 << 10

# What each toolkit needs, for people (doctor) as much as for launch.
NEEDS = {
    "gtk3": "nothing: GTK 3 loads its ATK bridge (libatk-adaptor) itself unless NO_AT_BRIDGE is set",
    "gtk4": "nothing: GTK 4 speaks AT-SPI itself unless GTK_A11Y=none",
    "gtk2": "GTK_MODULES=gail:atk-bridge (libgail-common, libatk-adaptor) and GNOME_ACCESSIBILITY=1",
    "qt5": "QT_ACCESSIBILITY=1 and QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 (the bridge is built into QtGui), and the "
    "accessibility bus running when the app starts (it never joins one started later)",
    "qt6": "QT_ACCESSIBILITY=1 and QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 (the bridge is built into QtGui)",
    "qt4": "QT_ACCESSIBILITY=1 and the qt-at-spi plugin",
    "chromium": f"{CHROMIUM_FLAG} on its command line and the bus's IsEnabled",
    "electron": f"{CHROMIUM_FLAG} on its command line (it is Chromium inside)",
    "gecko": "GNOME_ACCESSIBILITY=1 or the bus's IsEnabled",
    "java": f"the ATK wrapper ({JAVA_ATK_WRAPPER_JAR}, package libatk-wrapper-java-jni) named by "
    f"-Djavax.accessibility.assistive_technologies={JAVA_ATK_WRAPPER_CLASS}",
}


@dataclass(frozen=True)
class LaunchPlan:
    """The command line and environment that start a program with its bridge on."""

    argv: list[str]
    env: dict[str, str]
    toolkits: tuple[str, ...]
    changes: tuple[str, ...] = ()  # what was added or removed, for messages and tests
    problems: tuple[str, ...] = ()  # a bridge that could not be switched on, and why


@dataclass(frozen=True)
class BridgeNeed:
    """One toolkit's bridge as `winctl doctor` would name it."""

    toolkit: str
    needs: str
    installed: bool
    missing: tuple[str, ...] = field(default_factory=tuple)


def plan(argv: Sequence[str], env: Mapping[str, str] | None = None) -> LaunchPlan:
    """The argv and full environment to start `argv` with every bridge it needs switched on."""
    base = dict(os.environ if env is None else env)
    toolkits = detect(argv, base)
    new_env, changes = _common_env(base)
    _without_loader_paths(new_env, changes)
    new_argv = list(argv)
    problems: list[str] = []
    if {"chromium", "electron"} & set(toolkits) and CHROMIUM_FLAG not in new_argv:
        new_argv.insert(program_index(argv, base.get("PATH")) + 1, CHROMIUM_FLAG)
        changes.append(f"+{CHROMIUM_FLAG}")
    if "java" in toolkits:
        problems += _java_env(new_env, changes)
    if "gtk2" in toolkits:
        _gtk2_env(new_env, changes)
    return LaunchPlan(new_argv, new_env, toolkits, tuple(changes), tuple(problems))


def _common_env(base: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """Set the harmless switches and drop the ones that turn bridges off."""
    env = dict(base)
    changes = []
    for name, value in ALWAYS_ENV.items():
        if env.get(name) != value:
            env[name] = value
            changes.append(f"{name}={value}")
    for name, disabling in DISABLING_ENV.items():
        if name in env and (disabling is None or env[name].strip().lower() == disabling):
            del env[name]
            changes.append(f"-{name}")
    return env, changes


def _without_loader_paths(env: dict[str, str], changes: list[str]) -> None:
    """LD_LIBRARY_PATH as it was before OpenCV's loader put its own folder and a `:` in front of
    it (`cv2/__init__.py`, "for sub-processes"): every app launched after a locate ran with
    `.../site-packages/cv2/../../lib64:`, whose empty entry makes the dynamic linker look for
    libraries in the app's working directory first. The package's own import puts it back
    (`winactions.opencv`); this is for a program that imported cv2 itself before calling the
    Python API."""
    value = env.get("LD_LIBRARY_PATH")
    if value is None:
        return
    entries = value.split(":")
    ours = 0
    while ours < len(entries) and entries[ours].endswith(OPENCV_LOADER_PATH):
        ours += 1
    if not ours or ours == len(entries):
        return  # not the loader's, or a folder of its kind the user named
    before = ":".join(entries[ours + 1 :]) if entries[ours] == "" else ":".join(entries[ours:])
    if before:
        env["LD_LIBRARY_PATH"] = before
    else:
        del env["LD_LIBRARY_PATH"]
    changes.append("-LD_LIBRARY_PATH (OpenCV's)")


def _java_env(env: dict[str, str], changes: list[str]) -> list[str]:
    """Name the ATK wrapper as the JVM's assistive technology, via JAVA_TOOL_OPTIONS.

    JAVA_TOOL_OPTIONS reaches a JVM however a wrapper script starts it, and the boot class
    path append puts the wrapper's jar where any application class path can see it. Naming
    a wrapper that is not installed would abort the JVM, so then nothing is added.
    """
    if not Path(JAVA_ATK_WRAPPER_JAR).is_file():
        return [
            f"java: the ATK wrapper is not installed ({JAVA_ATK_WRAPPER_JAR}): apt-get install libatk-wrapper-java-jni"
        ]
    current = env.get("JAVA_TOOL_OPTIONS", "")
    if "javax.accessibility.assistive_technologies" in current:
        return []
    options = (
        f"-Djavax.accessibility.assistive_technologies={JAVA_ATK_WRAPPER_CLASS} "
        f"-Xbootclasspath/a:{JAVA_ATK_WRAPPER_JAR}"
    )
    env["JAVA_TOOL_OPTIONS"] = f"{current} {options}".strip()
    changes.append(f"JAVA_TOOL_OPTIONS+={options}")
    return []


def _gtk2_env(env: dict[str, str], changes: list[str]) -> None:
    """GTK 2 loads gail and the AT-SPI bridge only as GTK_MODULES."""
    modules = [m for m in re.split(r"[:\s]+", env.get("GTK_MODULES", "")) if m]
    added = [m for m in GTK2_MODULES if m not in modules]
    if added:
        env["GTK_MODULES"] = ":".join(modules + added)
        changes.append(f"GTK_MODULES+={':'.join(added)}")


PIXELS_MEANWHILE = "meanwhile `winctl state --vision local` lists what its pixels show"
# Libraries a running process has mapped (/proc/PID/maps), and the toolkit each draws with: a
# tkinter program's executable is python3, whose ELF header names no toolkit at all.
MAPPED_LIBRARIES = (
    ("gtk4", "/libgtk-4.so"),
    ("gtk3", "/libgtk-3.so"),
    ("gtk2", "/libgtk-x11-2.0.so"),
    ("qt6", "/libQt6Gui.so"),
    ("qt5", "/libQt5Gui.so"),
    ("java", "/libjvm.so"),
    ("gecko", "/libxul.so"),
    ("bridge", "/libatk-bridge-2.0.so"),
    ("tk", "/libtk8."),
    ("motif", "/libXm.so"),
    ("athena", "/libXaw"),
)
# Toolkits with no accessibility bridge on Linux: their apps never join the AT-SPI bus
WITHOUT_BRIDGE = {"tk": "Tk", "motif": "Motif", "athena": "Xaw (the Athena widgets)"}


def bridgeless(pid: int | None) -> str:
    """The toolkit a running process draws with when that toolkit has no accessibility bridge
    (Tk: git gui and every tkinter program; Xt's Athena widgets: xcalc; Motif), and it has
    loaded none that has one; "" when it may join the bus, or when nothing tells. `launch`
    waited its whole timeout for such an app's tree, and `state` told its user to restart it
    with switches that change nothing."""
    try:
        return bridgeless_in(Path(f"/proc/{pid}/maps").read_text()) if pid else ""
    except OSError:
        return ""


def bridgeless_in(maps: str) -> str:
    """`bridgeless` of a process whose /proc/PID/maps reads `maps`."""
    loaded = [kit for kit, library in MAPPED_LIBRARIES if library in maps]
    if any(kit not in WITHOUT_BRIDGE for kit in loaded):
        return ""
    return WITHOUT_BRIDGE[loaded[0]] if loaded else ""


# The keys that select all the text of a focused single-line field, by toolkit, where Home then
# shift+End is not sure to: in nedit's search field (Motif) they left the selection empty about
# once in 25 runs at an agent's full speed (its field claimed the X selection with no text in it,
# and the new search went after the old: "motiffind"); ctrl+/ is Motif's select-all, and missed
# none of 25
SELECT_ALL_KEYS = {"Motif": "ctrl+slash"}


def field_selecting_keys(pid: int | None) -> str:
    """What `Backend.field_selecting_keys` presses in the window of process `pid`."""
    return SELECT_ALL_KEYS.get(bridgeless(pid), "Home shift+End")


def no_bridge(pid: int | None) -> str:
    """What to do for an app whose toolkit has no accessibility bridge (`bridgeless`); "" when it has one."""
    without = bridgeless(pid)
    return (
        f"{without} has no accessibility bridge on Linux: `winctl state --vision local` lists what its pixels show"
        if without
        else ""
    )


def no_tree_hint(pid: int | None) -> str:
    """What to do about a window without an accessibility tree, for the toolkit of the process
    that owns it (read from its executable, as `launch` does): its switches, and that `winctl
    launch` sets them. A toolkit that cannot be told gets the general hint."""
    without = no_bridge(pid)
    if without:
        return without
    try:
        kits = detect([os.readlink(f"/proc/{pid}/exe")]) if pid else ()
    except OSError:
        kits = ()
    if not kits or kits[0] not in NEEDS or kits[0] in ("gtk3", "gtk4"):
        return (
            "GTK/Qt apps need the AT-SPI bus; Chromium/Electron need --force-renderer-accessibility; "
            "start the app with `winctl launch PROGRAM`, which switches its bridge on; "
            f"{PIXELS_MEANWHILE}"
        )
    return (
        f"its toolkit ({kits[0]}) needs {NEEDS[kits[0]]}: close the app and start it again with "
        f"`winctl launch PROGRAM`, which sees to that; {PIXELS_MEANWHILE}"
    )


# -- detection --------------------------------------------------------------------------------
def detect(argv: Sequence[str], env: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """The toolkits `argv` appears to start, best guess first; empty when nothing tells."""
    if not argv:
        return ()
    search_path = (env or os.environ).get("PATH")
    argv = argv[program_index(argv, search_path) :]
    path = _resolve(argv[0], search_path)
    found: list[str] = []
    name = Path(argv[0]).name
    if CHROMIUM_NAMES.match(name) or (path and CHROMIUM_NAMES.match(path.name)):
        found.append("electron" if name.startswith("electron") else "chromium")
    if GECKO_NAMES.match(name) or (path and GECKO_NAMES.match(path.name)):
        found.append("gecko")
    if JAVA_NAMES.match(name) or any(a.endswith(".jar") for a in argv[1:]):
        found.append("java")
    if path is not None:
        found += _from_layout(path) + _from_file(path)
    return tuple(dict.fromkeys(found))


def program_index(argv: Sequence[str], search_path: str | None) -> int:
    """Where the program itself stands in `argv`: past wrappers such as `env VAR=1`, `nice -n 5`
    or `timeout 30`, each followed by its options and values up to the first word that is a
    program on PATH (a variable assignment, an option or a number never is)."""
    index = 0
    while index < len(argv) and Path(argv[index]).name in WRAPPERS:
        wrapped = next(
            (
                i
                for i in range(index + 1, len(argv))
                if not argv[i].startswith("-") and "=" not in argv[i] and _resolve(argv[i], search_path) is not None
            ),
            None,
        )
        if wrapped is None:
            break
        index = wrapped
    return index


def _resolve(program: str, search_path: str | None) -> Path | None:
    """The real file behind a program name (PATH lookup, then symlinks)."""
    where = shutil.which(program, path=search_path) if os.sep not in program else program
    if where is None or not os.path.isfile(where):
        return None
    return Path(os.path.realpath(where))


def _from_layout(path: Path) -> list[str]:
    """Electron, Chromium and Gecko builds are recognised by the files around the binary."""
    folder = path.parent
    if (folder / "resources" / "app.asar").exists() or (folder / "resources" / "app").is_dir():
        return ["electron"]
    if (folder / "chrome_100_percent.pak").exists() or (folder / "resources.pak").exists():
        return ["chromium"]
    if (folder / "libxul.so").exists() or (folder / "omni.ja").exists():
        return ["gecko"]
    if folder.name == "bin" and (folder.parent / "lib" / "libjava.so").exists():
        return ["java"]
    return []


def _from_file(path: Path) -> list[str]:
    """Toolkit libraries an ELF binary links, or the program a wrapper script starts."""
    try:
        with path.open("rb") as f:
            head = f.read(4)
            if head == b"\x7fELF":
                return _elf_toolkits(head + f.read(ELF_HEAD_BYTES), follow=True)
            if head[:2] == b"#!":
                data = head + f.read(SCRIPT_HEAD_BYTES)
                return [kit for kit, pattern in SCRIPT_HINTS if pattern.search(data)]
    except OSError:
        pass
    return []


def _elf_toolkits(data: bytes, follow: bool) -> list[str]:
    """Toolkits named in an ELF head; with `follow`, also in the app's own libraries, since
    programs such as mousepad link their toolkit only through a private libmousepad."""
    found = [kit for kit, lib in ELF_LIBRARIES if lib in data]
    if found or not follow:
        return found
    for name in dict.fromkeys(m.decode() for m in NEEDED_NAME.findall(data)):
        if name.startswith(COMMON_LIBRARIES):
            continue
        for folder in LIBRARY_DIRS:
            try:
                with open(os.path.join(folder, name), "rb") as lib:
                    found += _elf_toolkits(lib.read(ELF_HEAD_BYTES), follow=False)
                break
            except OSError:
                continue
    return list(dict.fromkeys(found))


# -- doctor -------------------------------------------------------------------------------------
def bridge_report(argv: Sequence[str] | None = None) -> list[BridgeNeed]:
    """What each toolkit's bridge needs and whether its pieces are on this machine.

    With `argv`, only the toolkits that program appears to use (all of them when nothing is
    detected, since then any could be behind it).
    """
    kits = list(detect(argv)) if argv else []
    kits = kits or list(NEEDS)
    return [BridgeNeed(kit, NEEDS[kit], not _missing(kit), tuple(_missing(kit))) for kit in kits]


def _missing(toolkit: str) -> list[str]:
    """Files a toolkit's bridge loads that are not installed (named by their Debian package)."""
    wanted = {
        "gtk3": [("/usr/lib/x86_64-linux-gnu/libatk-bridge-2.0.so.0", "libatk-bridge2.0-0")],
        "gtk2": [
            (f"{GTK2_BRIDGE_DIR}/libatk-bridge.so", "libatk-adaptor"),
            (f"{GTK2_BRIDGE_DIR}/libgail.so", "libgail-common"),
        ],
        "java": [
            (JAVA_ATK_WRAPPER_JAR, "libatk-wrapper-java"),
            ("/usr/lib/x86_64-linux-gnu/jni/libatk-wrapper.so", "libatk-wrapper-java-jni"),
        ],
    }.get(toolkit, [])
    return [f"{package} ({file})" for file, package in wanted if not Path(file).exists()]
