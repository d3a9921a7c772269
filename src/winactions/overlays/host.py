"""The overlay process: `python -m winactions.overlays.host FOLDER`.

Draws the session's overlays (`widgets`) with Tk and serves requests on the Unix socket in
FOLDER (see `channel`), one JSON line in and one out per connection, from this user only.
Tk runs in the main thread; each connection's thread hands its request over and waits for the
reply, so a teach step can wait for the person while the status label still changes.

Requests (`op`): `status` (show, hide, text, the window to follow), `doing` (the action under
way, shown after the message while the label shows), `ask` (the teach-access question),
`teach` (steps, one after another, each until Next, Stop or its timeout), `where` (what is
on screen), `quit`. It follows the window it labels (every `FOLLOW_MS`), keeps its windows
above the apps' and exits when asked, when its folder is gone, or after `IDLE_EXIT` s with
nothing shown and nothing asked.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import socket
import struct
import sys
import threading
import time
import tkinter as tk
from pathlib import Path
from typing import Any

from winactions.backends import overlay_host
from winactions.model import Rect
from winactions.overlays import channel
from winactions.overlays.widgets import Prompt, StatusLabel, TeachStep

FOLLOW_MS = 250
POLL_MS = 100  # a fallback: each request wakes the loop itself (`connection`)
IDLE_EXIT = 600.0


def _rect(value: Any) -> Rect | None:
    if isinstance(value, list) and len(value) == 4 and all(isinstance(v, int) for v in value):
        return Rect(left=value[0], top=value[1], right=value[2], bottom=value[3])
    return None


def _box(rect: Rect | None) -> list[int] | None:
    return None if rect is None else [rect.left, rect.top, rect.right, rect.bottom]


class Pending:
    """A request waiting for its reply (set once, from the Tk thread)."""

    def __init__(self, request: dict[str, Any]) -> None:
        self.request = request
        self.reply: dict[str, Any] = {}
        self.done = threading.Event()

    def answer(self, reply: dict[str, Any]) -> None:
        if not self.done.is_set():
            self.reply = reply
            self.done.set()


class Host:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.platform = overlay_host.load()
        self.root = tk.Tk(className=overlay_host.OVERLAY_CLASS)
        self.root.withdraw()
        self.label = StatusLabel(self.root, self.platform)
        self.step = TeachStep(self.root, self.platform)
        self.prompt = Prompt(self.root, self.platform)
        self.inbox: queue.Queue[Pending] = queue.Queue()
        self.shown = False
        self.message = ""
        self.doing = ""
        self.window_id: str | None = None
        self.window: Rect | None = None
        self.screens: list[Rect] = []
        self.granted = False
        self.teaching: dict[str, Any] | None = None  # the teach request under way
        self.asking: Pending | None = None
        self.last_request = time.monotonic()

    # -- the status label ---------------------------------------------------------------------
    def _words(self) -> str:
        return " · ".join(part for part in (self.message, self.doing) if part) or "winctl"

    def _redraw(self) -> None:
        if not self.shown or self.window is None:
            self.label.hide()
            return
        self.label.show(self._words(), self.window, self.screens)

    def _follow(self) -> None:
        """Look where the labelled window is now; a gone or minimized one hides the label
        until it shows again. A window this platform cannot look up keeps its given place."""
        if self.window_id is None:
            return
        try:
            now = self.platform.window_rect(self.window_id)
        except ValueError:
            return
        if now != self.window:
            self.window = now
            self._redraw()

    def status(self, r: dict[str, Any]) -> dict[str, Any]:
        if r.get("screens") is not None:
            self.screens = [s for s in (_rect(v) for v in r["screens"]) if s is not None]
        if r.get("window") is not None:
            self.window_id, self.window = str(r["window"]), _rect(r.get("rect"))
            self._follow()
        if r.get("text") is not None:
            self.message, self.doing = str(r["text"]), ""
        if r.get("show") is not None:
            self.shown = bool(r["show"])
        self._redraw()
        return self._status_reply()

    def _status_reply(self) -> dict[str, Any]:
        return {
            "shown": self.shown,
            "visible": self.label.rect is not None,
            "text": self.message,
            "doing": self.doing,
            "rect": _box(self.label.rect),
            "window": self.window_id,
        }

    def doing_(self, r: dict[str, Any]) -> dict[str, Any]:
        if self.shown:
            self.doing = str(r.get("text") or "")
            if r.get("window") and r["window"] != self.window_id:
                self.window_id = str(r["window"])
                self._follow()
            self._redraw()
        return {}

    # -- asking and teaching --------------------------------------------------------------------
    def ask(self, pending: Pending) -> None:
        r = pending.request
        if self.granted:
            pending.answer({"answer": "already granted"})
            return
        if self.asking is not None or self.teaching is not None:
            pending.answer({"error": "another question or teach step is waiting for the person"})
            return
        screen = _rect(r.get("screen")) or Rect.from_xywh(
            0, 0, self.root.winfo_screenwidth(), self.root.winfo_screenheight()
        )
        self.asking = pending

        def answered(word: str) -> None:
            if self.asking is not pending:
                return  # answered already (a late timer)
            self.asking = None
            self.prompt.hide()
            self.granted = self.granted or word == "granted"
            pending.answer({"answer": word})

        self.prompt.show(str(r.get("question") or ""), screen, answered)
        self.root.after(int(float(r.get("timeout", 60)) * 1000), lambda: answered("timeout"))

    def teach(self, pending: Pending) -> None:
        r = pending.request
        if not self.granted:
            pending.answer({"refused": True})
            return
        if self.asking is not None or self.teaching is not None:
            pending.answer({"error": "another question or teach step is waiting for the person"})
            return
        steps = [s for s in r.get("steps", []) if isinstance(s, dict) and _rect(s.get("rect")) is not None]
        screens = [s for s in (_rect(v) for v in r.get("screens") or []) if s is not None]
        timeout = float(r.get("timeout", 60))
        until = time.monotonic() + float(r.get("budget", timeout * max(1, len(steps))))
        self.teaching = r
        answers: list[str] = []

        def finish(ended: str) -> None:
            self.teaching = None
            self.step.hide()
            pending.answer({"done": answers.count("next"), "ended": ended, "answers": answers})

        def show(i: int) -> None:
            if i == len(steps):
                finish("done")
                return
            left = until - time.monotonic()
            if left <= 0.5:
                finish("budget")
                return
            token = object()
            current["token"] = token

            def answered(word: str) -> None:
                if current.get("token") is not token:
                    return
                current["token"] = None
                answers.append(word)
                if word == "next":
                    show(i + 1)
                else:
                    finish(word)

            step = steps[i]
            target = _rect(step["rect"])
            assert target is not None
            self.step.show(str(step.get("text", "")), target, screens, f"Step {i + 1} of {len(steps)}", answered)
            self.root.after(int(min(timeout, left) * 1000), lambda: answered("timeout"))

        current: dict[str, object | None] = {}
        show(0)

    def where(self) -> dict[str, Any]:
        return {
            "status": _box(self.label.rect),
            "teach": {k: _box(v) for k, v in self.step.rects.items()},
            "prompt": {k: _box(v) for k, v in self.prompt.rects.items()},
            "granted": self.granted,
        }

    # -- the loop ---------------------------------------------------------------------------------
    def handle(self, pending: Pending) -> None:
        op = pending.request.get("op")
        self.last_request = time.monotonic()
        try:
            if op == "ask":
                self.ask(pending)
            elif op == "teach":
                self.teach(pending)
            elif op == "status":
                pending.answer(self.status(pending.request))
            elif op == "doing":
                pending.answer(self.doing_(pending.request))
            elif op == "where":
                pending.answer(self.where())
            elif op == "quit":
                pending.answer({})
                self.root.after(50, self.root.quit)
            else:
                pending.answer({"error": f"unknown op {str(op)[:40]!r}"})
        except (tk.TclError, ValueError, TypeError) as exc:
            pending.answer({"error": f"{type(exc).__name__}: {exc}"})

    def drain(self) -> None:
        """Handle every request waiting, in the Tk thread."""
        while True:
            try:
                self.handle(self.inbox.get_nowait())
            except queue.Empty:
                return

    def poll(self) -> None:
        self.drain()
        self.root.after(POLL_MS, self.poll)

    def tick(self) -> None:
        self._follow()
        for top in (self.label.top, self.step.ring, self.step.bubble, self.prompt.top):
            if top.winfo_ismapped():
                self.platform.keep_above(top.winfo_id())
        busy = self.shown or self.teaching is not None or self.asking is not None
        if not (self.folder / channel.SOCKET).exists() or (
            not busy and time.monotonic() - self.last_request > IDLE_EXIT
        ):
            self.root.quit()
            return
        self.root.after(FOLLOW_MS, self.tick)

    def serve(self, server: socket.socket) -> None:
        while True:
            conn, _ = server.accept()
            threading.Thread(target=self.connection, args=(conn,), daemon=True).start()

    def connection(self, conn: socket.socket) -> None:
        if sys.platform == "win32":  # never started there (`channel`)
            return
        with conn:
            uid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))[1]
            if uid != os.getuid():
                return
            data = b""
            conn.settimeout(5)
            try:
                while not data.endswith(b"\n") and len(data) < 1 << 20:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    data += chunk
                request = json.loads(data)
            except (OSError, ValueError):
                return
            if not isinstance(request, dict):
                return
            pending = Pending(request)
            self.inbox.put(pending)
            with contextlib.suppress(RuntimeError, tk.TclError):  # the loop is ending; else it polls
                self.root.after_idle(self.drain)  # Tcl is threaded: this wakes the loop now, not at the next poll
            pending.done.wait()
            try:
                conn.settimeout(5)
                conn.sendall(json.dumps(pending.reply).encode() + b"\n")
            except OSError:
                pass  # the asker gave up


def main(argv: list[str]) -> None:
    if sys.platform == "win32":
        sys.exit(channel.WINDOWS)
    folder = Path(argv[0])
    if folder.stat().st_uid != os.getuid() or folder.stat().st_mode & 0o077:
        sys.exit(f"{folder} is not this user's private folder")
    host = Host(folder)  # the display first: a process that cannot draw never listens
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    path = folder / channel.SOCKET
    if path.exists():
        path.unlink()
    with channel.socket_path(folder) as short:
        server.bind(short)
    server.listen(16)
    (folder / channel.PID).write_text(str(os.getpid()))
    threading.Thread(target=host.serve, args=(server,), daemon=True).start()
    host.root.after(POLL_MS, host.poll)
    host.root.after(FOLLOW_MS, host.tick)
    try:
        host.root.mainloop()
    finally:
        for leftover in (channel.SOCKET, channel.PID):
            if (folder / leftover).exists():
                (folder / leftover).unlink()


if __name__ == "__main__":
    main(sys.argv[1:])
