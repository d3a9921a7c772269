"""The tiers' two tunable numbers: where they come from, where they go, and bad values refused."""

import pytest

from winactions.errors import InvalidInput
from winactions.llm.config import LLMFlags
from winactions.perception.inference_llm import LLMInferenceProvider
from winactions.perception.tiers import Thresholds, compose
from winactions.perception.vision import VisionProvider


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for var in ("WINCTL_INFER_MIN_CONFIDENCE", "WINCTL_VISION_IOU"):
        monkeypatch.delenv(var, raising=False)


def test_seed_values_by_default_then_environment_then_flag(monkeypatch):
    assert Thresholds.resolve() == Thresholds(min_confidence=0.7, iou=0.1)
    monkeypatch.setenv("WINCTL_INFER_MIN_CONFIDENCE", "0.85")
    monkeypatch.setenv("WINCTL_VISION_IOU", " 0.3 ")
    assert Thresholds.resolve() == Thresholds(min_confidence=0.85, iou=0.3)
    assert Thresholds.resolve(min_confidence=0.5, iou=0.0) == Thresholds(min_confidence=0.5, iou=0.0)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("abc", "'abc' is not a number"),
        ("1.5", "between 0 and 1"),
        ("-0.1", "between 0 and 1"),
        ("nan", "between 0 and 1"),
    ],
)
def test_a_bad_environment_value_names_the_variable(monkeypatch, value, message):
    monkeypatch.setenv("WINCTL_VISION_IOU", value)
    with pytest.raises(InvalidInput, match="WINCTL_VISION_IOU") as caught:
        Thresholds.resolve()
    assert message in caught.value.message and "0 to 1" in caught.value.hint


def test_compose_hands_each_threshold_to_the_provider_that_uses_it():
    providers = compose(object(), "llm", "local", LLMFlags(), Thresholds(min_confidence=0.9, iou=0.25))  # type: ignore[arg-type]
    inference = next(p for p in providers if isinstance(p, LLMInferenceProvider))
    vision = next(p for p in providers if isinstance(p, VisionProvider))
    assert (inference.min_confidence, vision.iou_threshold) == (0.9, 0.25)
