"""Elements seen in pixels keep their ids when only their text changed, and what the merge
leaves out is said, with why (issue 40 item 14). Places are those measured on the real apps."""

from __future__ import annotations

from winactions.model import Rect, Source, Target
from winactions.perception.vision import left_out, sift
from winactions.session.ids import IdRegistry


def box(left: int, top: int, right: int, bottom: int) -> Rect:
    return Rect(left=left, top=top, right=right, bottom=bottom)


def menu(name: str, rect: Rect) -> Target:
    return Target(
        id=0,
        type="Menu",
        name=name,
        rect=rect,
        source=Source.VISION,
        confidence=0.9,
        derived_from="vision: a menu bar's widget window + ocr 0.93",
    )


def line(name: str, rect: Rect, confidence: float = 0.99) -> Target:
    return Target(id=0, type="Text", name=name, rect=rect, source=Source.OCR, confidence=confidence, derived_from="ocr")


def test_a_menu_read_otherwise_keeps_its_id():
    """OCR read `File` as `Eile` on one read of the same menu bar: the menu got a new id."""
    ids = IdRegistry()
    first = ids.assign([menu("File", box(4, 26, 36, 46)), menu("Edit", box(40, 26, 74, 46))])
    second = ids.assign([menu("Eile", box(4, 27, 36, 46)), menu("Edit", box(40, 26, 74, 46))], first)
    assert [t.id for t in second] == [t.id for t in first]
    third = ids.assign([menu("File", box(4, 26, 36, 46)), menu("Edit", box(40, 26, 74, 46))], second)
    assert [t.id for t in third] == [t.id for t in first]


def test_a_label_whose_box_moved_by_two_pixels_keeps_its_id():
    """zenity's "Name:" read at [874,514,923,531], then at [872,510,925,533]."""
    ids = IdRegistry()
    first = ids.assign([line("Name:", box(874, 514, 923, 531))])
    second = ids.assign([line("Name:", box(872, 510, 925, 533))], first)
    assert second[0].id == first[0].id


def test_another_type_or_place_is_another_element():
    ids = IdRegistry()
    first = ids.assign([menu("File", box(4, 26, 36, 46))])
    other_type = ids.assign([line("File", box(4, 26, 36, 46))], first)
    elsewhere = ids.assign([menu("File", box(200, 26, 232, 46))], first)
    assert other_type[0].id != first[0].id and elsewhere[0].id != first[0].id


def test_one_element_seen_again_gives_its_id_to_one_only():
    """Two detections over the place of one: the closer keeps its id, the other gets a new one."""
    ids = IdRegistry()
    first = ids.assign([menu("File", box(0, 0, 40, 20))])
    second = ids.assign([menu("Fi", box(0, 0, 30, 20)), menu("File", box(1, 0, 40, 20))], first)
    assert second[1].id == first[0].id and second[0].id != first[0].id


def test_lines_of_a_terminal_set_close_are_each_kept():
    """lxterminal's `select` menu: OCR's boxes of "2) test" and "3) prod" overlap by 4 px
    (IOU 0.104 > 0.1) and the merge took "3) prod" for "2) test"."""
    window = box(103, 426, 759, 862)
    found = [
        line("1) dev", box(103, 449, 157, 473), 0.96),
        line("2) test", box(103, 469, 163, 488), 0.997),
        line("3) prod", box(103, 484, 164, 507), 0.989),
        line("pick:", box(103, 504, 149, 521), 0.999),
    ]
    kept, left = sift(found, [], [window], 0.1, said=[])
    assert sorted(t.name for t in kept) == ["1) dev", "2) test", "3) prod", "pick:"] and not left


def test_what_is_left_out_is_said_with_why():
    window = box(0, 0, 400, 300)
    ok = Target(id=0, type="Button", name="OK", rect=box(300, 250, 380, 280), source=Source.ACCESSIBILITY)
    found = [line("OK", box(320, 255, 360, 275)), line("x", box(10, 10, 14, 14)), line("far", box(500, 10, 540, 30))]
    kept, left = sift(found, [ok.rect], [window], 0.1, said=[ok.rect], listed=[ok])  # type: ignore[list-item]
    assert not kept
    said = left_out(left)
    assert '"OK" (where [Button] "OK" is listed)' in said and '"far" (outside the window)' in said
    assert '"x" (under 6 px where the window shows it)' in said


def test_a_lone_ideograph_on_a_latin_window_is_an_icon_but_a_sign_read_as_one_is_not():
    """Geany's toolbar icons read as "旦" and "司" amid its Latin labels; "二" is how the
    recogniser reads "=" on a calculator's key, a sign and no icon."""
    from winactions.perception.vision import _ideographs_only, _mostly_latin

    window = ["File Edit Search", "Symbols", "Status", "旦", "司"]
    assert _mostly_latin(window) and not _mostly_latin(["文件 编辑", "符号", "旦"])
    assert _ideographs_only("旦") and _ideographs_only("司")
    assert not any(_ideographs_only(t) for t in ("二", "十", "File", "中文字"))
