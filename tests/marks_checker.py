"""An independent checker of annotated-screenshot labels (issue 16.1), used on synthetic and
real dense UIs. Written apart from `winactions.marks` on purpose: it states the rules a
reader relies on, not the placement algorithm's own bookkeeping.

A layout is readable when: labels are pairwise disjoint (with a pixel between them, so two
numbers never read as one); each label lies in the image; each touches its own box (inside
or adjacent, 1 px at most from its frame); and no other frame can be taken for its own:
every other frame is strictly farther — except that a label inside its own box is
separated by that box's frame from boxes it does not overlap, and sits in the innermost of
the boxes around it.
"""

from __future__ import annotations

Box = tuple[int, int, int, int]


def _inside(outer: Box, inner: Box, slack: int = 0) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def _meet(a: Box, b: Box, gap: int = 0) -> bool:
    return a[0] < b[2] + gap and b[0] < a[2] + gap and a[1] < b[3] + gap and b[1] < a[3] + gap


def frame_distance(label: Box, box: Box) -> float:
    if not _meet(label, box):
        dx = max(box[0] - label[2], 0, label[0] - box[2])
        dy = max(box[1] - label[3], 0, label[1] - box[3])
        return (dx * dx + dy * dy) ** 0.5
    if _inside(box, label):
        return min(label[0] - box[0], label[1] - box[1], box[2] - label[2], box[3] - label[3])
    return 0.0


def problems(labels: dict[str, Box], boxes: dict[str, Box], image: tuple[int, int]) -> list[str]:
    """Everything wrong with `labels` (label text -> rect) naming `boxes` (same keys)."""
    found = []
    items = sorted(labels.items())
    for i, (name, label) in enumerate(items):
        if not _inside((0, 0, *image), label):
            found.append(f"label {name} {label} leaves the image")
        for other_name, other in items[i + 1 :]:
            if _meet(label, other, gap=1):
                found.append(f"labels {name} {label} and {other_name} {other} touch or overlap")
        own = boxes[name]
        mine = frame_distance(label, own)
        if mine > 1:
            found.append(f"label {name} {label} does not touch its box {own} ({mine:.1f} px away)")
        for other_name, other in boxes.items():
            if other_name == name:
                continue
            if _inside(own, other) and _meet(label, other):
                found.append(f"label {name} {label} lies over {other_name} {other}, inside its own box")
            elif _inside(own, label) and (not _meet(label, other) or _inside(other, own, slack=2)):
                continue
            elif frame_distance(label, other) <= mine:
                found.append(f"label {name} {label} is as near {other_name}'s frame {other} as its own {own}")
    return found
