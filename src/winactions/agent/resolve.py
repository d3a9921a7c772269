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

from winactions.agent.actor import Actor
from winactions.agent.images import images_for, match_image
from winactions.agent.plan import StepPlan
from winactions.errors import BackendUnavailable, InvalidInput, LLMFailed, NotFound, WinctlError, shown
from winactions.locate.assets import AssetLibrary
from winactions.model import Source, Target, UIState

# The seed's target types say where a target comes from, not what it is: they narrow nothing.
SEED_TYPES = frozenset({"icon", "ui", "dynamic", "state", "image", "text"})


@dataclass
class Resolved:
    """Where a step acts: `ref` for the command (an id, or a visual target), and how it was found."""

    ref: int | str | None
    how: str
    level: int  # 2: tree or template; 3: the vision model
    target: Target | None = None
    point: tuple[int, int] | None = None  # a screen point (the vision model's box centre)

    def describe(self) -> str:
        if self.target is not None:
            return f'[{self.target.id}] {self.target.type} "{self.target.name}" ({self.how})'
        if self.point is not None:
            return f"{self.ref} at ({self.point[0]}, {self.point[1]}) ({self.how})"
        return f"{self.ref} ({self.how})" if self.ref is not None else self.how


Describe = Callable[[str], Resolved]  # a `dynamic:` description → where the vision model sees it


def in_tree(state: UIState, name: str | None, role: str | None) -> list[Target]:
    """Elements of the tree by name (exact, case-folded, automation id), narrowed by role."""
    tree = [t for t in state.targets if t.source is Source.ACCESSIBILITY]
    if role and role.casefold() not in SEED_TYPES:
        typed = [t for t in tree if t.type.casefold() == role.casefold()]
        if name is None:
            focused = [t for t in typed if "focused" in t.states]
            return focused or typed
        tree = typed
    if name is None:
        return []
    for match in (lambda t: t.name == name, lambda t: t.name.casefold() == name.casefold(),
                  lambda t: (t.automation_id or "") == name):
        found = [t for t in tree if match(t)]
        if found:
            return found
    return []


def resolve(actor: Actor, step: StepPlan, state: UIState, *, describe: Describe | None, app: str | None = None,
            pixels: bool = True, module_images: Path | None = None) -> Resolved:
    """Resolve a step's target in the current state; `NotFound` when nothing has it."""
    ref, role = step.target_ref, step.target_type
    if ref is None:
        if role is None or role.casefold() in SEED_TYPES:
            return Resolved(None, "the focused element", 0)
        return _one(in_tree(state, None, role), f"an element of type {role}", level=2)
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
            raise BackendUnavailable(f"{shown(ref)} needs the vision model, and none is configured",
                                     hint="set WINCTL_VISION_BASE_URL / an API key, or plan with element names")
        return describe(rest.strip())
    named = in_tree(state, ref, role)
    if named:
        return _one(named, f"the name {ref!r}", level=2)
    if not pixels:
        raise NotFound(f"no element is named {shown(ref)}" + (f" (type {role})" if role else ""),
                       hint="read the state for the names on screen")
    if module_images is not None and images_for(module_images, ref):
        return _module_image(actor, module_images, ref)
    return _outside_tree(actor, ref, role, describe, app)


def _one(found: list[Target], what: str, level: int) -> Resolved:
    if not found:
        raise NotFound(f"no element is {what}", hint="read the state for the names on screen")
    if len(found) > 1:
        listed = ", ".join(f'[{t.id}] {t.type} "{t.name}"' for t in found[:6])
        raise InvalidInput(f"{len(found)} elements are {what}: {listed}",
                           hint="give target_type, or id:N from the state")
    return Resolved(found[0].id, f"tree: {what}", level, found[0])


def _located(actor: Actor, ref: str, level: int) -> Resolved:
    """A visual target, located now through the table (so a missing one is NotFound here)."""
    result = actor.call("locate", target=ref)
    found = result.located.element
    return Resolved(ref, f"{found.method}, confidence {found.confidence:.2f}", level)


def _module_image(actor: Actor, folder: Path, name: str) -> Resolved:
    """A name the app module has images for: matched in the window's screenshot now."""
    shot = actor.call("screenshot")
    found = match_image(images_for(folder, name), Path(shot.path), (shot.rect.left, shot.rect.top))
    return Resolved(f"image:{name}", f"app module image, {found.method}, confidence {found.confidence:.2f}", 2,
                    point=found.rect.center)


def _outside_tree(actor: Actor, name: str, role: str | None, describe: Describe | None,
                  app: str | None) -> Resolved:
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
        what = f"the {role} named {name!r}" if role and role.casefold() not in SEED_TYPES else repr(name)
        try:
            return describe(what)
        except (NotFound, LLMFailed) as exc:
            tried.append(f"vision model: {exc.message}")
    raise NotFound("; ".join(tried), hint="read the state for the names on screen, or replan")
