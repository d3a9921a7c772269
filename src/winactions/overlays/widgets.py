"""The overlay windows, drawn with Tk: the status label, the teach step (a ring and a bubble
with the step's text and Next) and the person's prompt (Allow / Deny).

Every window is override-redirect: the window manager neither places nor focuses it, so the
app keeps the keyboard focus; none asks for the focus itself. Each is given its class and
instance by the platform (`OverlayPlatform.dress`) before it is first shown.
"""

from __future__ import annotations

import tkinter as tk
from collections.abc import Callable
from tkinter import font as tkfont

from winactions.backends.overlay_host import OVERLAY_CLASS, OverlayPlatform
from winactions.model import Rect
from winactions.overlays import placement

LABEL_BG, LABEL_FG = "#1f2430", "#ffffff"
RING_COLOUR = "#ff8c00"
BUBBLE_BG, NEXT_BG = "#fff8d6", "#1a73e8"
ELLIPSIS = "…"


def _toplevel(parent: tk.Misc, name: str) -> tk.Toplevel:
    """A hidden override-redirect toplevel whose X class is `OVERLAY_CLASS` and instance `name`."""
    top = tk.Toplevel(parent, name=name, class_=OVERLAY_CLASS)
    top.withdraw()
    top.overrideredirect(True)
    return top


def _frame_id(top: tk.Toplevel) -> int:
    """An X id inside the toplevel (the platform finds its outer window from it)."""
    top.update_idletasks()
    return int(top.winfo_id())


def place(top: tk.Toplevel, rect: Rect) -> None:
    top.geometry(f"{rect.width}x{rect.height}+{rect.left}+{rect.top}")


class StatusLabel:
    """The small label at the bottom of the agent's window; clicks pass through it."""

    def __init__(self, root: tk.Tk, platform: OverlayPlatform) -> None:
        self.top = _toplevel(root, "status")
        self.font = tkfont.Font(root=root, family="DejaVu Sans", size=11)
        self.label = tk.Label(self.top, bg=LABEL_BG, fg=LABEL_FG, font=self.font, padx=10, pady=4, anchor="w")
        self.label.pack(fill="both", expand=True)
        self.platform = platform
        platform.dress(_frame_id(self.top), "status", click_through=True)
        self.rect: Rect | None = None
        self.text = ""

    def fitted(self, text: str, width: int) -> str:
        """`text` on one line, cut with an ellipsis to fit `width` px with the padding."""
        text = " ".join(text.split())
        room = width - 24
        if self.font.measure(text) <= room:
            return text
        while text and self.font.measure(text + ELLIPSIS) > room:
            text = text[:-1]
        return text + ELLIPSIS

    def show(self, text: str, window: Rect, screens: list[Rect]) -> Rect:
        """Show `text` at the bottom of `window`; where it went."""
        shown = self.fitted(text, placement.label_width_limit(window))
        self.label.configure(text=shown)
        size = (self.label.winfo_reqwidth(), self.label.winfo_reqheight())
        rect = placement.status_label(window, size, screens)
        if rect != self.rect or not self.top.winfo_viewable():
            place(self.top, rect)
            self.top.deiconify()
        self.rect, self.text = rect, text
        self.top.update_idletasks()
        return rect

    def hide(self) -> None:
        self.top.withdraw()
        self.rect = None


class TeachStep:
    """One teach step on screen: an orange ring around the element and a bubble with the
    step's text, its number, Next and Stop. `answer(word)` is called once, with "next" or
    "stopped", when the person clicks."""

    def __init__(self, root: tk.Tk, platform: OverlayPlatform) -> None:
        self.platform = platform
        self.ring = _toplevel(tk.Frame(root, name="ring"), "teach")  # a second `teach` needs another parent
        self.ring.configure(bg=RING_COLOUR)
        self.ring_id = _frame_id(self.ring)
        platform.dress(self.ring_id, "teach", click_through=True)
        self.bubble = _toplevel(root, "teach")
        box = tk.Frame(self.bubble, bg=BUBBLE_BG, highlightbackground=RING_COLOUR, highlightthickness=2)
        box.pack(fill="both", expand=True)
        self.counter = tk.Label(box, bg=BUBBLE_BG, fg="#555555", font=("DejaVu Sans", 9), anchor="w")
        self.counter.pack(fill="x", padx=10, pady=(8, 0))
        self.text = tk.Label(
            box, bg=BUBBLE_BG, fg="#111111", font=("DejaVu Sans", 12), wraplength=360, justify="left", anchor="w"
        )
        self.text.pack(fill="x", padx=10, pady=6)
        buttons = tk.Frame(box, bg=BUBBLE_BG)
        buttons.pack(fill="x", padx=10, pady=(0, 10))
        self.next = tk.Button(
            buttons, text="Next", bg=NEXT_BG, fg="#ffffff", activebackground=NEXT_BG, relief="flat", padx=14,
            command=lambda: self._clicked("next"), takefocus=0,
        )  # fmt: skip
        self.next.pack(side="right")
        self.stop = tk.Button(
            buttons, text="Stop", relief="flat", command=lambda: self._clicked("stopped"), takefocus=0
        )
        self.stop.pack(side="right", padx=8)
        platform.dress(_frame_id(self.bubble), "teach", click_through=False)
        self.answer: Callable[[str], None] | None = None
        self.rects: dict[str, Rect] = {}

    def _clicked(self, word: str) -> None:
        answer, self.answer = self.answer, None
        if answer is not None:
            answer(word)

    def show(self, text: str, target: Rect, screens: list[Rect], counter: str, answer: Callable[[str], None]) -> None:
        """Show the step around `target`; `answer` is called when the person clicks."""
        self.answer = answer
        self.text.configure(text=text)
        self.counter.configure(text=counter)
        ring = placement.ring(target)
        place(self.ring, ring)
        self.platform.ring(self.ring_id, ring.width, ring.height, placement.RING)
        self.bubble.update_idletasks()
        size = (self.bubble.winfo_reqwidth(), self.bubble.winfo_reqheight())
        bubble = placement.bubble(target, size, screens)
        place(self.bubble, bubble)
        self.ring.deiconify()
        self.bubble.deiconify()
        self.bubble.update_idletasks()
        self.rects = {
            "ring": ring,
            "bubble": bubble,
            "next": _rect_of(self.next, bubble),
            "stop": _rect_of(self.stop, bubble),
        }

    def hide(self) -> None:
        self.answer = None
        self.ring.withdraw()
        self.bubble.withdraw()
        self.rects = {}


class Prompt:
    """A question to the person, centred on a screen, with Allow and Deny."""

    def __init__(self, root: tk.Tk, platform: OverlayPlatform) -> None:
        self.top = _toplevel(root, "prompt")
        box = tk.Frame(self.top, bg="#ffffff", highlightbackground="#444444", highlightthickness=2)
        box.pack(fill="both", expand=True)
        self.text = tk.Label(box, bg="#ffffff", font=("DejaVu Sans", 12), wraplength=420, justify="left")
        self.text.pack(padx=16, pady=12)
        buttons = tk.Frame(box, bg="#ffffff")
        buttons.pack(fill="x", padx=16, pady=(0, 12))
        self.allow = tk.Button(buttons, text="Allow", command=lambda: self._clicked("granted"), takefocus=0)
        self.allow.pack(side="right")
        self.deny = tk.Button(buttons, text="Deny", command=lambda: self._clicked("denied"), takefocus=0)
        self.deny.pack(side="right", padx=8)
        platform.dress(_frame_id(self.top), "prompt", click_through=False)
        self.answer: Callable[[str], None] | None = None
        self.rects: dict[str, Rect] = {}

    def _clicked(self, word: str) -> None:
        answer, self.answer = self.answer, None
        if answer is not None:
            answer(word)

    def show(self, question: str, screen: Rect, answer: Callable[[str], None]) -> None:
        self.answer = answer
        self.text.configure(text=question)
        self.top.update_idletasks()
        w, h = self.top.winfo_reqwidth(), self.top.winfo_reqheight()
        rect = placement.clamp(Rect.from_xywh(screen.center[0] - w // 2, screen.center[1] - h // 2, w, h), screen)
        place(self.top, rect)
        self.top.deiconify()
        self.top.update_idletasks()
        self.rects = {"prompt": rect, "allow": _rect_of(self.allow, rect), "deny": _rect_of(self.deny, rect)}

    def hide(self) -> None:
        self.answer = None
        self.top.withdraw()
        self.rects = {}


def _rect_of(widget: tk.Misc, top: Rect) -> Rect:
    """Where a widget is on screen, its toplevel placed at `top` (its geometry computed)."""
    x, y, w = 0, 0, widget
    while w.winfo_toplevel() is not w:
        x, y, w = x + w.winfo_x(), y + w.winfo_y(), w.nametowidget(w.winfo_parent())
    return Rect.from_xywh(top.left + x, top.top + y, widget.winfo_width(), widget.winfo_height())
