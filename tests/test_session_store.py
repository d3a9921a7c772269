"""The session store: private, atomic, and forgiving of a file it cannot read."""

import stat

import pytest

from winactions.errors import InvalidInput
from winactions.model import Rect, Target, UIState, WindowInfo
from winactions.session.store import SessionData, SessionStore


def sample_state() -> UIState:
    window = WindowInfo(id="0x1", title="App", pid=1, rect=Rect(left=0, top=0, right=10, bottom=10))
    targets = [
        Target(
            id=1,
            type="Button",
            name="OK",
            handle=":1.2/org/a11y/atspi/accessible/3",
            rect=Rect(left=1, top=1, right=5, bottom=5),
        )
    ]
    return UIState(window=window, targets=targets, timestamp="t")


def test_round_trip_keeps_handles_that_json_output_never_shows(tmp_path):
    store = SessionStore("s1", directory=tmp_path)
    store.save(SessionData(window_id="0x1", state=sample_state(), registry={"next_id": 2, "ids": {"k": 1}}))
    assert "accessible/3" not in sample_state().model_dump_json()  # never printed to agents
    loaded = store.load()
    assert loaded.window_id == "0x1"
    assert loaded.state.targets[0].handle == ":1.2/org/a11y/atspi/accessible/3"
    assert loaded.registry == {"next_id": 2, "ids": {"k": 1}}


def test_file_is_private(tmp_path):
    store = SessionStore("s2", directory=tmp_path)
    store.save(SessionData())
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600


def test_unreadable_file_starts_a_fresh_session(tmp_path):
    store = SessionStore("s3", directory=tmp_path)
    store.path.write_text("{not json")
    assert store.load() == SessionData()


@pytest.mark.parametrize("name", ["", "../escape", "a b", "x" * 65])
def test_bad_session_names_are_refused(tmp_path, name):
    with pytest.raises(InvalidInput):
        SessionStore(name, directory=tmp_path)


def test_the_sessions_visual_prefixes_are_the_locators():
    from winactions.locate.locator import PREFIXES
    from winactions.session.references import VISUAL_PREFIXES

    assert set(PREFIXES) == VISUAL_PREFIXES
