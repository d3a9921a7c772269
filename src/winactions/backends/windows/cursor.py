"""The virtual cursor: where bound input points, drawn for the person at the desk.

Bound input moves no real pointer, so nothing on screen would show where the agent clicks.
The virtual cursor is a small red arrow in a window of its own that is topmost, click-through
and never activated (WS_EX_TOPMOST | WS_EX_TRANSPARENT | WS_EX_LAYERED | WS_EX_NOACTIVATE, and
WS_EX_TOOLWINDOW for no taskbar button): hit testing passes through a layered transparent
window, so a person's click and `WindowFromPoint` reach the app below, and PrintWindow of the
bound window never holds it, so its pixels are never read back as the app's. It moves to each
bound move and click (drawn with a ring while a button is pressed) and goes on unbind. It lives
as long as the process that drew it: the daemon or the MCP server keeps it between commands.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from winactions.backends.windows.native import Native
from winactions.model import Rect

WS_EX_TOPMOST, WS_EX_TRANSPARENT, WS_EX_TOOLWINDOW = 0x00000008, 0x00000020, 0x00000080
WS_EX_LAYERED, WS_EX_NOACTIVATE = 0x00080000, 0x08000000
CURSOR_STYLE = WS_EX_TOPMOST | WS_EX_TRANSPARENT | WS_EX_TOOLWINDOW | WS_EX_LAYERED | WS_EX_NOACTIVATE
SIZE = (32, 40)
HOTSPOT = (8, 8)  # the arrow's tip in its image: room above and left of it for the press ring
RED, WHITE = (220, 30, 30, 255), (255, 255, 255, 255)


@lru_cache(maxsize=2)
def arrow(pressed: bool) -> Image.Image:
    """The cursor's picture (RGBA, transparent around the arrow), with a ring while pressed."""
    image = Image.new("RGBA", SIZE, (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    x, y = HOTSPOT
    if pressed:
        draw.ellipse((x - 7, y - 7, x + 7, y + 7), outline=RED, width=2)
    outline = [(0, 0), (0, 24), (6, 18), (10, 27), (14, 25), (10, 16), (17, 16)]
    draw.polygon([(x + dx, y + dy) for dx, dy in outline], fill=RED, outline=WHITE)
    return image


class VirtualCursor:
    """The arrow's window: made at its first `show`, moved after, destroyed by `hide`."""

    def __init__(self, native: Native) -> None:
        self.native = native
        self.hwnd = 0

    def show(self, x: int, y: int, pressed: bool = False) -> None:
        """Put the arrow's tip at screen point (x, y)."""
        rect = Rect.from_xywh(x - HOTSPOT[0], y - HOTSPOT[1], *SIZE)
        if not self.hwnd:
            self.hwnd = self.native.create_overlay(rect, arrow(pressed), CURSOR_STYLE)
        else:
            self.native.move_overlay(self.hwnd, rect, arrow(pressed))

    def hide(self) -> None:
        """Destroy the window; safe when none is shown."""
        if self.hwnd:
            self.native.destroy_overlay(self.hwnd)
            self.hwnd = 0
