"""Perception commands: windows, state, inspect, screenshot."""

from __future__ import annotations

from pydantic import Field

from winactions import compact, marks, screenshots
from winactions.commands import stateview
from winactions.commands.base import CLI_ONLY, ID_OR_NAME, Context, OptionalId, OptionalRef, Params, Ref, command
from winactions.commands.query import element_value
from winactions.commands.results import InspectResult, ScreenshotResult, StateResult, WindowsResult
from winactions.commands.saving import png_path
from winactions.errors import ActionFailed, InvalidInput
from winactions.locate.density import pnginfo
from winactions.model import Rect


class WindowsParams(Params):
    pass


@command("windows", WindowsParams, profiles=("core", "windows"))
def windows(ctx: Context, p: WindowsParams) -> WindowsResult:
    """List the desktop's top-level windows: id, title, process, pid, client-area rect."""
    return WindowsResult(windows=ctx.session.backend.list_windows())


class StateParams(Params):
    verbose: bool = Field(False, description="show every element's rect, states and operations")
    tree: bool = Field(False, description="indent elements by their place in the tree")
    screenshot: bool = Field(False, description="also save a screenshot of the window")
    annotated: bool = Field(False, description="also save a screenshot with element ids drawn on it")
    diff: bool = Field(False, description="only what changed since the state last shown: + added, - removed, ~ changed")
    scope: OptionalId = Field(None, description="only this element and the elements under it")
    max_elements: int | None = Field(
        None, ge=1, description="at most this many elements; says how many were left out (their ids stay valid)"
    )
    all: bool = Field(False, description="every element, one line each (a big window's state is summarized by default)")


@command("state", StateParams, profiles=("core",), perceives=True)
def state(ctx: Context, p: StateParams) -> StateResult:
    """List the window's elements with stable ids: `[id] [Type] "Name"`. An id stays bound to
    its element for the session and is never reused; elements acted on by coordinates
    (inferred, vision) show their rect."""
    window = ctx.window()
    before = ctx.session.data.shown  # the last state the caller saw, not the last read of the window
    ui = ctx.session.refresh_state(window)
    ctx.session.data.shown = ui
    ctx.session.save()
    view = stateview.scoped(ui.targets, p.scope) if p.scope is not None else ui.targets
    changes = stateview.diff(before, ui, view) if p.diff else None
    if (p.screenshot or p.annotated) and window.rect is not None:
        image = screenshots.capture(ctx.session.backend, window.rect)
        if p.screenshot:  # with its density: an app module's images are matched in it (`agent.images`)
            path, replace = png_path(ctx, None, "state")
            ui.screenshot = str(
                screenshots.save_png(image, path, pnginfo(ctx.session.backend.density(window)), replace=replace)
            )
        if p.annotated:
            marked, layout = screenshots.annotate(image, (window.rect.left, window.rect.top), view)
            if layout.unplaced:
                ui.warnings.append(_too_dense(layout, window.rect))
            path, replace = png_path(ctx, None, "annotated")
            ui.annotated_screenshot = str(screenshots.save_png(marked, path, replace=replace))
        ctx.session.save()  # with the screenshots' paths
    if changes is not None:  # the state lists what is new or changed; `diff` says how
        cut = stateview.capped(changes, p.max_elements)
        shown = [*cut.added, *(c.target for c in cut.changed)]
        omitted = stateview.lines(changes) - stateview.lines(cut)
        return StateResult(
            state=ui.model_copy(update={"targets": shown}),
            verbose=p.verbose,
            tree=p.tree,
            scope=p.scope,
            omitted=omitted,
            diff=cut,
        )
    shown = view[: p.max_elements] if p.max_elements is not None else view
    whole = p.all or p.scope is not None or p.max_elements is not None  # asked for: printed as asked
    return StateResult(
        state=ui.model_copy(update={"targets": shown}),
        verbose=p.verbose,
        tree=p.tree,
        scope=p.scope,
        omitted=len(view) - len(shown),
        budget=None if whole else compact.budget(ui),
    )


def _too_dense(layout: marks.Layout, window: Rect) -> str:
    """The warning for labels left out of an annotated screenshot, with the close-up to take."""
    area = marks.dense_region(layout.unplaced_boxes)
    x, y = window.left + max(area.left, 0), window.top + max(area.top, 0)
    w, h = min(area.right, window.width) - max(area.left, 0), min(area.bottom, window.height) - max(area.top, 0)
    ids = ", ".join(str(i) for i in layout.unplaced)
    return (
        f"annotated: no place where the label cannot be taken for another element's, for {ids} "
        f"(too dense); they are in the list above — for a close-up: winctl zoom {x} {y} {w} {h}"
    )


INSPECT_TEXT = 1000  # characters of a long text `inspect` shows


class InspectParams(Params):
    id: Ref = ID_OR_NAME


@command("inspect", InspectParams, positional=("id",), profiles=("core",))
def inspect_(ctx: Context, p: InspectParams) -> InspectResult:
    """Everything known about one element now: role, states, rect, actions, interfaces, value."""
    target, node = ctx.session.resolve_to_read(p.id, ctx.window())
    element: dict[str, object] = {"source": target.source.value, "visible_rect": target.rect}
    if node is not None:
        value = element_value(ctx.session.backend, target, node)  # as `get value` says it, now
        # the header says what the element is now, as the lines below it do: not the last state's read
        target = target.model_copy(
            update={"value": None if value is None else str(value), "states": sorted(node.states)}
        )
        if isinstance(value, str) and len(value) > INSPECT_TEXT:
            value = f"{value[:INSPECT_TEXT]}… ({len(value):,} characters: `winctl get value {p.id}` reads all)"
        element.update(
            {
                "native_role": node.native_role,
                "name": node.name,
                "description": node.description,
                "value": value,
                "rect": node.rect,
                "states": sorted(node.states),
                "operations": sorted(o.value for o in node.operations),
                "actions": list(node.actions),
                "interfaces": list(node.interfaces),
                "automation_id": node.automation_id,
                "child_count": node.child_count,
                **node.extra,
            }
        )
    else:
        element.update({"confidence": target.confidence, "derived_from": target.derived_from})
    element = {k: (str(v) if isinstance(v, Rect) else v) for k, v in element.items()}
    return InspectResult(target=target, element=element)


class ScreenshotParams(Params):
    path: str | None = Field(None, description="where to save the PNG (default: the session's folder)")
    force: bool = Field(False, description="replace an existing file that is not a PNG", json_schema_extra=CLI_ONLY)
    screen: bool = Field(False, description="the whole screen (the chosen display) instead of the window")
    element: OptionalRef = Field(None, description="just this element (id or name)")


@command("screenshot", ScreenshotParams, positional=("path",), profiles=("core", "vision"))
def screenshot(ctx: Context, p: ScreenshotParams) -> ScreenshotResult:
    """Save a PNG of the window, the whole screen or one element (an `image:` reference that
    records the window's pixel density)."""
    backend = ctx.session.backend
    drawn: float | None = None
    if p.screen and p.element is not None:
        raise InvalidInput("--screen and --element each say what to capture: give one")
    path, replace = png_path(ctx, p.path, "screenshot", p.force)  # refused before anything is captured
    if p.screen:
        display = ctx.session.display()
        rect = screenshots.whole_screen(backend, display.rect if display is not None else None)
    else:
        window = ctx.window()
        if window.rect is None:
            raise ActionFailed(
                f'window "{window.title}" has no geometry (minimized?)',
                hint="restore it with `winctl window restore`, or use --screen",
            )
        rect = window.rect
        if p.element is not None:
            target, _ = ctx.session.resolve_to_read(p.element, window)
            if target.rect is None or target.rect.is_empty:
                raise ActionFailed(
                    f"element {p.element} has no place on the screen to capture",
                    hint="scroll it into view, then run `winctl state`",
                )
            rect = target.rect
        drawn = backend.density(window)
        covered = list(
            dict.fromkeys(
                what for part, what in screenshots.covered(backend, window) if part.intersect(rect) is not None
            )
        )
        if covered and p.element is not None:
            # a reference saved so holds the other window's pixels, and is then looked for as this element
            raise ActionFailed(
                f"element {p.element} is covered by {covered[0]}: its picture would show that",
                hint="bring the window forward with `winctl window activate`, then take it again",
            )
    image = screenshots.capture(backend, rect)
    path = screenshots.save_png(image, path, pnginfo(drawn), replace=replace)
    return ScreenshotResult(
        path=str(path.resolve()),
        rect=rect,
        width=image.width,
        height=image.height,
        density=drawn,
        covered_by=[] if p.screen else covered,
    )
