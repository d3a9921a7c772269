"""Which window the status label goes under on Windows, against the fake: the bound window,
whatever window the call names, and where on it (`overlays.placement`)."""

from __future__ import annotations

from tests.conftest import environment
from winactions.api import Desktop
from winactions.commands.base import Context, GlobalOptions
from winactions.commands.people import labelled_window
from winactions.overlays import placement


def test_the_label_goes_under_the_bound_window(winctl, fake):
    winctl("bind-window", "bind", "Settings")
    env = {"XDG_RUNTIME_DIR": str(winctl.runtime), "WINACTIONS_BACKEND": "windows"}
    with environment(env), Desktop("default", live=False) as desktop, desktop.session.turn() as session:
        ctx = Context(session, GlobalOptions(window="Notepad"))  # the call names another window
        window = labelled_window(ctx)
        assert window.title.endswith("Settings") and window.id == session.backend.bound_window()
        assert window.rect is not None
        label = placement.status_label(window.rect, (180, 28), session.backend.screens())
    settings = next(a for a in fake.apps if a.title.endswith("Settings"))
    assert window.rect in (settings.window_rect, settings.client_rect)  # the fake's own account of its place
    assert window.rect.encloses(label)
    assert label.bottom == window.rect.bottom - placement.LABEL_MARGIN
    assert abs(label.center[0] - window.rect.center[0]) <= 1


def test_unbound_the_label_goes_under_the_session_window(winctl, fake):
    winctl("focus", "Calculator")
    env = {"XDG_RUNTIME_DIR": str(winctl.runtime), "WINACTIONS_BACKEND": "windows"}
    with environment(env), Desktop("default", live=False) as desktop, desktop.session.turn() as session:
        window = labelled_window(Context(session, GlobalOptions()))
    assert window.title.endswith("Calculator")
