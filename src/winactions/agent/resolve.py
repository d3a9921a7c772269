"""A step's `target_ref` → something a command of the table acts on.

The tree first: it is exact and costs one state read. A bare name is matched against
element names (exact, then ignoring case, then automation ids), narrowed by `target_type`
when that names a control type; a step with only a `target_type` means the focused (or the
only) element of that type. Outside the tree, a name tries the reference-image library,
then painted text (OCR), then — only when a model is configured — the vision model, each
through the table's own `locate`, so the runner never reads pixels itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeGuard

from winactions.agent.actor import Actor
from winactions.agent.images import images_for, match_image
from winactions.agent.plan import StepPlan
from winactions.candidates import named, only_one
from winactions.errors import BackendUnavailable, InvalidInput, LLMFailed, NotFound, WinctlError, shown
from winactions.locate.assets import AssetLibrary
from winactions.model import Source, Target, UIState

# Task-file target types that say where a target comes from, not what it is: they narrow nothing.
SOURCE_TYPES = frozenset({"icon", "ui", "dynamic", "state", "image", "text"})


@dataclass
class Resolved:
    """Where a step acts: `ref` for the command (an id, or a visual target), and how it was found."""

    ref: int | str | None
    how: str
    level: int  # 2: tree or template; 3: the vision model
    target: Target | None = None
    point: tuple[int, int] | None = None  # a screen point (the vision model's box centre)

    def describe(self) -> str:
        """One line for the run's record: the element, the point or the reference, and how."""
        if self.target is not None:
            return f'[{self.target.id}] {self.target.type} "{self.target.name}" ({self.how})'
        if self.point is not None:
            return f"{self.ref} at ({self.point[0]}, {self.point[1]}) ({self.how})"
        return f"{self.ref} ({self.how})" if self.ref is not None else self.how


Describe = Callable[[str], Resolved]  # a `dynamic:` description → where the vision model sees it


def in_tree(state: UIState, name: str | None, role: str | None) -> list[Target]:
    """Elements of the tree named `name` (`candidates.named`: exact, else ignoring case), else
    with it as their automation id; narrowed to the type `role` when it names a control type.
    With no name: the focused elements of that type, else all of them (none without a type)."""
    tree = [t for t in state.targets if t.source is Source.ACCESSIBILITY]
    if _narrows(role):
        typed = [t for t in tree if t.type.casefold() == role.casefold()]
        if name is None:
            focused = [t for t in typed if "focused" in t.states]
            return focused or typed
        tree = typed
    if name is None:
        return []
    return named(tree, name) or [t for t in tree if (t.automation_id or "") == name]


def _narrows(role: str | None) -> TypeGuard[str]:
    """Does a step's `target_type` name a control type (not where the target comes from)?"""
    return bool(role) and str(role).casefold() not in SOURCE_TYPES


def resolve(
    actor: Actor,
    step: StepPlan,
    state: UIState,
    *,
    describe: Describe | None,
    app: str | None = None,
    pixels: bool = True,
    module_images: Path | None = None,
) -> Resolved:
    """Where a step acts, in the current state: its `target_ref` (a name, `id:N`, `image:`,
    `text:`, `dynamic:`) narrowed by its `target_type`; none with a type: the element of that
    type; none at all: the focused element. NotFound when nothing has it (`pixels` False: not
    looked for outside the tree); InvalidInput when several elements of the tree have it (they
    are listed: `winactions.candidates`); BackendUnavailable for `dynamic:` without a model."""
    ref, role = step.target_ref, step.target_type
    if ref is None:
        if role is None or role.casefold() in SOURCE_TYPES:
            return Resolved(None, "the focused element", 0)
        return _one(in_tree(state, None, role), f"of type {role}")
    prefix, sep, rest = ref.partition(":")
    if sep and prefix == "id":
        wanted = int(rest)
        found = [t for t in state.targets if t.id == wanted]
        if not found:
            raise NotFound(f"id {wanted} is not in the current state", hint="plan by name, or read the state again")
        return Resolved(wanted, "id of the state", 2, found[0])
    if sep and prefix == "image" and module_images is not None and images_for(module_images, rest.strip()):
        return _module_image(actor, module_images, rest.strip())
    if sep and prefix in ("image", "text"):
        return _located(actor, ref, 2)
    if sep and prefix == "dynamic":
        if describe is None:
            raise BackendUnavailable(
                f"{shown(ref)} needs the vision model, and none is configured",
                hint="set WINCTL_VISION_BASE_URL / an API key, or plan with element names",
            )
        return describe(rest.strip())
    found = in_tree(state, ref, role)
    if found:
        return _one(found, f"named {shown(ref)}" + (f" of type {role}" if _narrows(role) else ""))
    if not pixels:
        raise NotFound(
            f"no element is named {shown(ref)}" + (f" (type {role})" if role else ""),
            hint="read the state for the names on screen",
        )
    if module_images is not None and images_for(module_images, ref):
        return _module_image(actor, module_images, ref)
    return _outside_tree(actor, ref, role, describe, app)


def _one(found: list[Target], what: str) -> Resolved:
    """The one element of the tree that is `what` (completes "elements are …"): NotFound when
    none is, InvalidInput listing them when several are (`candidates.only_one`)."""
    one = only_one(found, what, narrow="give target_type", by_id="its id (id:N)")
    if one is None:
        raise NotFound(f"no element is {what}", hint="read the state for the names on screen")
    return Resolved(one.id, f"tree: {what}", 2, one)


def _located(actor: Actor, ref: str, level: int) -> Resolved:
    """A visual target, located now through the table (so a missing one is NotFound here)."""
    result = actor.call("locate", target=ref)
    found = result.located.element
    return Resolved(ref, f"{found.method}, confidence {found.confidence:.2f}", level)


def _module_image(actor: Actor, folder: Path, name: str) -> Resolved:
    """A name the app module has images for: matched in the window's screenshot now."""
    shot = actor.call("screenshot")
    found = match_image(images_for(folder, name), Path(shot.path), (shot.rect.left, shot.rect.top))
    return Resolved(
        f"image:{name}",
        f"app module image, {found.method}, confidence {found.confidence:.2f}",
        2,
        point=found.rect.center,
    )


def _outside_tree(actor: Actor, name: str, role: str | None, describe: Describe | None, app: str | None) -> Resolved:
    """A name the tree does not hold: the reference-image library's (for `app`), else painted
    text, else the vision model (`describe`, when configured). NotFound saying what each tried."""
    tried: list[str] = [f"no element of the tree is named {name!r}" + (f" (type {role})" if role else "")]
    chain: list[str] = []
    try:
        AssetLibrary.open().resolve(name, app)
        chain.append(f"image:{name}")
    except WinctlError:
        tried.append("no reference image")
    chain.append(f"text:{name}")
    for ref in chain:
        try:
            return _located(actor, ref, 2)
        except (NotFound, BackendUnavailable, LLMFailed, InvalidInput) as exc:
            tried.append(f"{ref.partition(':')[0]}: {exc.message}")
    if describe is not None:
        what = f"the {role} named {name!r}" if _narrows(role) else repr(name)
        try:
            return describe(what)
        except (NotFound, LLMFailed) as exc:
            tried.append(f"vision model: {exc.message}")
    raise NotFound("; ".join(tried), hint="read the state for the names on screen, or replan")
