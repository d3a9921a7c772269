"""The one boundary where a chosen display's coordinates cross into the screen's
(`winactions.session.displays`): points in gain the origin and are refused off the display;
every rect and point a result carries loses it, once, whatever the result's shape."""

from __future__ import annotations

import pytest

from winactions.backends.base import Monitor
from winactions.commands.base import shown_on
from winactions.commands.device import SwipeParams
from winactions.commands.displays import DisplaysResult
from winactions.commands.locate import LocateParams
from winactions.commands.pointer import MoveParams, ZoomParams
from winactions.commands.results import (
    ActionResult,
    BatchResult,
    BatchStep,
    InspectResult,
    ScreenshotResult,
    StateResult,
    ValueResult,
)
from winactions.errors import InvalidInput, NotFound
from winactions.model import Rect, Target, UIState, WindowInfo
from winactions.session.displays import Display, Frame, window_on

RIGHT = Display(index=1, name="RIGHT", rect=Rect.from_xywh(1920, 0, 1920, 1080))
FRAME = Frame(RIGHT)


def _window(wid: str, x: int, active: bool = False) -> WindowInfo:
    return WindowInfo(id=wid, title=f"w{wid}", rect=Rect.from_xywh(x, 100, 800, 600), active=active)


def test_points_in_gain_the_origin_and_areas_must_fit() -> None:
    assert FRAME.params_in(MoveParams(x=10, y=20)) == MoveParams(x=1930, y=20)
    swipe = FRAME.params_in(SwipeParams(x1=0, y1=0, x2=1919, y2=1079))
    assert (swipe.x1, swipe.y1, swipe.x2, swipe.y2) == (1920, 0, 3839, 1079)
    zoom = FRAME.params_in(ZoomParams(x=100, y=50, width=40, height=20))
    assert (zoom.x, zoom.y, zoom.width, zoom.height) == (2020, 50, 40, 20)
    region = FRAME.params_in(LocateParams(target="text:Save", region="10, 20, 30, 40"))
    assert region.region == "1930,20,30,40"
    assert FRAME.params_in(LocateParams(target="text:Save", region="not an area")).region == "not an area"


@pytest.mark.parametrize(
    "params",
    [
        MoveParams(x=1920, y=5),
        MoveParams(x=-1, y=5),
        MoveParams(x=5, y=1080),
        ZoomParams(x=1900, y=0, width=40, height=20),
    ],
)
def test_a_point_or_area_off_the_display_is_refused(params) -> None:
    with pytest.raises(InvalidInput) as caught:
        FRAME.params_in(params)
    assert "display 1 (1920,0 1920x1080)" in caught.value.message and "nothing was done" in (caught.value.hint or "")


def _state() -> UIState:
    target = Target(id=3, type="Button", name="Apply", rect=Rect(left=2000, top=200, right=2080, bottom=230))
    return UIState(window=_window("0x1", 1950), targets=[target], timestamp="t")


def test_every_rect_and_point_of_a_result_is_made_relative_once() -> None:
    state = shown_on(FRAME, StateResult(state=_state()))
    assert isinstance(state, StateResult) and state.state is not None
    assert state.state.targets[0].rect == Rect(left=80, top=200, right=160, bottom=230)
    assert state.state.window.rect == Rect.from_xywh(30, 100, 800, 600)
    assert state._display is not None and state._display["label"] == "display 1 (1920,0 1920x1080)"
    assert _state().targets[0].rect.left == 2000  # the session's own copy is untouched

    act = shown_on(FRAME, ActionResult(action="click-at", method="mouse", point=(2000, 300)))
    assert isinstance(act, ActionResult) and act.point == (80, 300)
    drag = shown_on(FRAME, ActionResult(action="drag-at", method="mouse", point=(1930, 5), detail="to (2020, 10)"))
    assert isinstance(drag, ActionResult) and (drag.point, drag.detail) == ((10, 5), "to (100, 10)")
    rect = shown_on(FRAME, ValueResult(what="rect", target_id=3, value=[2000, 200, 2080, 230]))
    assert isinstance(rect, ValueResult) and rect.value == [80, 200, 160, 230]
    cursor = shown_on(FRAME, ValueResult(what="cursor", target_id=0, value=[1921, 7]))
    assert isinstance(cursor, ValueResult) and cursor.value == [1, 7]
    text = shown_on(FRAME, ValueResult(what="text", target_id=3, value=[1, 2]))  # not coordinates
    assert isinstance(text, ValueResult) and text.value == [1, 2] and text._display == {}
    target = _state().targets[0]
    inspect = shown_on(FRAME, InspectResult(target=target, element={"rect": str(target.rect), "name": "x"}))
    assert isinstance(inspect, InspectResult) and inspect.element["rect"] == "[80,200,160,230]"

    # a batch's steps were shown by their own dispatch: not moved a second time
    step = shown_on(FRAME, ActionResult(action="mouse-move", method="mouse", point=(1930, 5)))
    batch = shown_on(
        FRAME, BatchResult(steps=[BatchStep(step=1, command="mouse-move", ok=True, result=step)], completed=1, total=1)
    )
    assert isinstance(batch, BatchResult) and batch.steps[0].result.point == (10, 5)  # type: ignore[union-attr]


def test_on_all_and_for_screen_results_nothing_changes() -> None:
    shot = ScreenshotResult(path="a.png", rect=Rect.from_xywh(1920, 0, 10, 10), width=10, height=10)
    assert shown_on(None, shot) is shot and shot._display is None
    listing = DisplaysResult(displays=[RIGHT], current=1)
    assert shown_on(FRAME, listing) is listing  # a monitor's place is said on the whole screen


def test_the_window_acted_on_is_the_one_on_the_display() -> None:
    left, right_a, right_b = _window("0x1", 100, active=True), _window("0x2", 2000), _window("0x3", 2400)
    assert window_on(RIGHT, [left, right_a, right_b], "0x2") == (None, None)  # the session's, there
    pick, note = window_on(RIGHT, [left, right_a, right_b], "0x1")
    assert pick == right_b and note is not None and "not on display 1" in note  # the newest there
    pick, _ = window_on(RIGHT, [left, right_a.model_copy(update={"active": True}), right_b], None)
    assert pick is not None and pick.id == "0x2"  # the active one, there
    with pytest.raises(NotFound, match="no window is on display 1"):
        window_on(RIGHT, [left], "0x1")


def test_a_backend_without_monitor_names_numbers_its_screens() -> None:
    from winactions.backends.base import Backend

    class Screens:
        def screens(self) -> list[Rect]:
            return [Rect.from_xywh(-1280, 0, 1280, 1024), Rect.from_xywh(0, 0, 1920, 1080)]

    monitors = Backend.monitors(Screens())  # type: ignore[arg-type]
    assert monitors == [
        Monitor("screen 0", Rect.from_xywh(-1280, 0, 1280, 1024), False),
        Monitor("screen 1", Rect.from_xywh(0, 0, 1920, 1080), True),
    ]
