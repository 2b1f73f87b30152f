"""The project's core, run as its command line (`attention-trace`, built from the repository's
Rust into this package's wheel by maturin): every number Python gets is the one the page computes."""
from __future__ import annotations

import json
import math
import os
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

# What the core prefixes a refusal with; the rest is the page's own message.
_PREFIXES = ("attention-trace: ", "invalid state: ", "--from-torch: ", "--to-torch: ")


def binary() -> Path:
    """The core's command line: ATTENTION_TRACE, else the one this package installed (a script
    of its wheel, in whichever folder the installer put scripts: its own record says where)."""
    if os.environ.get("ATTENTION_TRACE"):
        return Path(os.environ["ATTENTION_TRACE"])
    try:
        files = metadata.distribution("attention-explorer").files or []
    except metadata.PackageNotFoundError:
        files = []
    for file in files:
        if file.name == "attention-trace" and Path(file.locate()).is_file():
            return Path(file.locate()).resolve()
    raise RuntimeError(
        "attention-trace is missing: install the package from the repository (pip install ./python) "
        "so that the core is built into it"
    )


def _run(args: list[str], text: str = "") -> Any:
    done = subprocess.run([str(binary()), *args], input=text, capture_output=True, encoding="utf-8")
    if done.returncode != 0:
        message = done.stderr.strip().splitlines()[0] if done.stderr.strip() else "the core failed"
        for prefix in _PREFIXES:
            message = message.removeprefix(prefix)
        raise ValueError(message)
    return json.loads(done.stdout)


def preset(name: str) -> dict:
    """A preset (`dog`, `raschka`, `raschka-multihead`) as a saved state."""
    return _run(["--preset", name, "--format", "state"])


def checked(state: Any) -> dict:
    """The saved state (a dict or JSON text) as the page reads and writes it; ValueError with
    the page's message."""
    text = state if isinstance(state, str) else json.dumps(plain(state))
    return _run(["--state", "-", "--format", "state"], text)


def trace(state: dict) -> dict:
    """Every intermediate of the model, as `attention-trace --format json` prints it."""
    return _run(["--state", "-", "--format", "json"], json.dumps(state))


def from_torch_file(file: dict) -> dict:
    """The saved state of a `--from-torch` file (`sentence`, `embedding`, `causal`,
    `num_heads`, `state_dict`)."""
    return _run(["--from-torch", "-", "--format", "state"], json.dumps(plain(file)))


def torch_file(state: dict) -> dict:
    """The model as `nn.MultiheadAttention`'s state dict and heads, or ValueError with why not."""
    return _run(["--state", "-", "--to-torch"], json.dumps(state))


# Words and ids, not numbers to compute with.
_KEPT = ("tokens", "token_ids", "source_tokens")


def arrays(value: Any) -> Any:
    """Nested lists of numbers as float64 arrays ("-inf" and "nan" as numbers), the rest kept."""
    if isinstance(value, dict):
        return {k: v if k in _KEPT else arrays(v) for k, v in value.items()}
    if isinstance(value, list) and value and _numeric(value):
        return np.array(_numbers(value), dtype=np.float64)
    if isinstance(value, list):
        return [arrays(v) for v in value]
    return value


def _numeric(value: Any) -> bool:
    while isinstance(value, list) and value:
        value = value[0]
    return isinstance(value, (int, float)) and not isinstance(value, bool) or value in ("-inf", "nan")


def _numbers(value: Any) -> Any:
    if isinstance(value, list):
        return [_numbers(v) for v in value]
    return {"-inf": -math.inf, "nan": math.nan}.get(value, value) if isinstance(value, str) else value


def plain(value: Any) -> Any:
    """Tensors, arrays and numpy numbers as lists and floats, for JSON; a number that is not
    finite as its name, which the core refuses with its place."""
    if hasattr(value, "detach"):
        value = value.detach().cpu().double().numpy()
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value
