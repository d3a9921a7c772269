"""A window's pixel density on Windows: its DPI over 96 (GetDpiForWindow, as this per-monitor
aware process sees it), recorded by `screenshot --element` in the reference image it saves
(`locate.density`), on the fake desktop's monitors at 150%."""

from __future__ import annotations

from winactions.locate import density


def test_an_element_cut_out_at_150_percent_records_its_density(winctl, fake, tmp_path):
    fake.scale = 1.5  # Settings is in front
    apply = winctl.find("Button", "Apply")
    path = tmp_path / "apply.png"
    shot = winctl("--json", "screenshot", "--element", str(apply["id"]), str(path)).json["result"]
    left, top, right, bottom = apply["rect"]
    assert (shot["width"], shot["height"]) == (right - left, bottom - top)
    assert shot["density"] == 1.5 and density.recorded(path) == 1.5
    assert any(name == "window_dpi" for name, _ in fake.calls)


def test_a_whole_screen_records_nothing_and_an_element_and_the_screen_are_not_both_asked_for(winctl, fake, tmp_path):
    shot = winctl("--json", "screenshot", "--screen", str(tmp_path / "all.png")).json["result"]
    assert shot["density"] is None and density.recorded(tmp_path / "all.png") is None  # monitors may differ
    run = winctl("screenshot", "--screen", "--element", "1", str(tmp_path / "both.png"), expect=2)
    assert "give one" in run.err and not (tmp_path / "both.png").exists()
