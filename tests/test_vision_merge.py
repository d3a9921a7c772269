"""What `--vision local` keeps of what it sees, on places measured on real apps: only what lies
in the window or in a menu open over it, and nothing that is a part of a listed element."""

from PIL import Image

from winactions.model import Rect, Source, Target, WindowInfo
from winactions.perception.provider import Detection
from winactions.perception.vision import VisionProvider, _shown, merge


def box(left: int, top: int, right: int, bottom: int) -> Rect:
    return Rect(left=left, top=top, right=right, bottom=bottom)


def seen(name: str, rect: Rect) -> Target:
    return Target(id=0, type="Text", name=name, rect=rect, source=Source.OCR, confidence=0.99)


def test_what_lies_between_a_menu_reaching_past_the_window_and_the_window_is_another_apps():
    """featherpad's context menu, opened at the middle of its 800x500 window, reaches 28 px
    below it; the screenshot spans both, and its corner left of the menu showed galculator's
    "MR" key. Its "Check Spelling" item lies across the window's bottom edge, on the menu."""
    window, menu = box(1, 20, 801, 520), box(401, 288, 749, 548)
    found = [
        seen("MR", box(324, 523, 371, 546)),
        seen("Check Spelling", box(425, 496, 529, 521)),
        seen("Paste Date and Time", box(404, 523, 568, 547)),
    ]
    kept = merge(found, [], [menu, window], 0.1)
    assert [(t.name, t.rect) for t in kept] == [
        ("Check Spelling", box(425, 496, 529, 521)),
        ("Paste Date and Time", box(404, 523, 568, 547)),
    ]


def test_a_menus_row_over_a_listed_element_is_the_menus():
    """featherpad's context menu (Qt lists it nowhere) opened over its search bar: its row "Text
    Tabs to Spaces" lay over half of the listed search combo box and field, and was dropped as
    them; "Paste Date and Time", below the window, lay over nothing listed and stayed."""
    window, menu = box(610, 297, 1310, 797), box(960, 565, 1308, 825)
    combo, field, words = box(612, 744, 1167, 769), box(614, 746, 1146, 767), box(970, 772, 994, 795)
    row = Target(
        id=0,
        type="MenuItem",
        name="Text Tabs to Spaces",
        rect=box(962, 745, 1306, 770),
        source=Source.VISION,
        confidence=0.99,
    )
    under = seen("Search...", box(700, 746, 790, 767))  # the field's own text, where the menu is not
    kept = merge([row, under], [combo, field, words], [menu, window], 0.1, said=[field, words])
    assert [t.name for t in kept] == ["Text Tabs to Spaces"]


def test_a_detection_of_a_known_element_is_that_element():
    window = box(0, 0, 800, 600)
    kept = merge(
        [seen("OK", box(10, 10, 60, 40)), seen("Cancel", box(100, 10, 160, 40))], [box(8, 8, 62, 42)], [window], 0.1
    )
    assert [t.name for t in kept] == ["Cancel"]


class Covered:
    """The one backend question `_shown` asks, answered with the places measured: IDLE's shell
    window over xcalc's lower right keys."""

    bound: str | None = None

    def bound_window(self) -> str | None:
        return self.bound

    def covers(self, window: WindowInfo) -> list[tuple[Rect, str]]:
        return [(box(250, 330, 345, 510), 'the window "IDLE Shell 3.11.2"')]


def test_what_another_window_shows_over_the_window_is_not_the_windows():
    window = WindowInfo(id="0x01000015", title="Calculator", rect=box(100, 100, 345, 510))
    found = [
        seen(">>>", box(251, 378, 282, 396)),
        seen("INV", box(105, 179, 145, 205)),
        seen("=", box(281, 479, 321, 505)),
    ]
    shown, covers = _shown(Covered(), window, found)  # type: ignore[arg-type]
    assert [t.name for t in shown] == ["INV"]
    assert covers == ['the window "IDLE Shell 3.11.2"']
    bound = Covered()
    bound.bound = window.id  # a bound window is captured from itself, covered or not
    assert _shown(bound, window, found) == (found, [])  # type: ignore[arg-type]


class JustMapped:
    """A screen where the window has not drawn itself yet: IDLE's search dialog, captured the
    moment wmctrl listed it, was its background alone, and `--vision local` listed nothing."""

    def bound_window(self) -> None:
        return None

    def screens(self) -> list[Rect]:
        return [box(0, 0, 1920, 1080)]

    def capture(self, rect: Rect) -> Image.Image:
        return Image.new("RGB", (rect.width, rect.height), (217, 217, 217))  # Tk's grey

    def covers(self, window: WindowInfo) -> list[tuple[Rect, str]]:
        return []

    def widget_windows(self, window: WindowInfo) -> list[Rect]:
        return []

    def popups(self, window: WindowInfo) -> list[Rect]:
        return []

    def overlays(self) -> list[tuple[Rect, str]]:
        return []  # winctl's own label and teach windows: none here


def test_a_window_that_shows_nothing_yet_is_said_to_show_nothing():
    window = WindowInfo(id="0x012006cc", title="Search Dialog", rect=box(25, 656, 676, 759))
    seen = VisionProvider("local").detect(JustMapped(), window, Detection(targets=[]))  # type: ignore[arg-type]
    assert seen.targets == []
    assert any("shows one colour only" in w and "again" in w for w in seen.warnings), seen.warnings
