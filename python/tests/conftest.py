import json
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures"


@pytest.fixture(scope="session")
def mha_cases():
    """The 24 nn.MultiheadAttention modules PyTorch ran (tests/fixtures/README.md)."""
    return json.loads((FIXTURES / "mha_cases.json").read_text())["cases"]


@pytest.fixture(scope="session")
def variant_states():
    """Grouped-query and cross-attention states (tests/fixtures/README.md)."""
    return [case["state"] for case in json.loads((FIXTURES / "variant_cases.json").read_text())["cases"]]
