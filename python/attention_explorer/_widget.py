"""`Explorer`: the page in an output cell, its model synced with Python both ways."""
from __future__ import annotations

import copy
import math
import os
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import parse_qsl

import anywidget
import traitlets

from . import _core, _server

# The exercise parameters of a link (docs/teachers.md, "Exercises for course pages").
EXERCISE_KEYS = ("ask", "predict", "goal", "lock")


class _Copied(traitlets.Dict):
    """A dict given out as a copy: one edited in place and set again is a change all the same
    (traitlets compares the old value with the new and sends nothing when they are equal)."""

    def get(self, obj, cls=None):
        return copy.deepcopy(super().get(obj, cls))


class Explorer(anywidget.AnyWidget):
    """Attention Explorer in a notebook: every number editable, the edits back in Python.

    `state` is the saved state (docs/developers/state-format.md) as a dict: the learner's edits
    change it, and setting it changes the widget. `trace()` gives every intermediate, computed by
    the project's core; `to_torch()` the model as an `nn.MultiheadAttention`.
    """

    _esm = Path(__file__).with_name("widget.js")
    _url = traitlets.Unicode().tag(sync=True)
    # Whether _url is this kernel's own server (not a pinned copy).
    _kernel_files = traitlets.Bool(True).tag(sync=True)
    state = _Copied().tag(sync=True)
    #: What the page said when it refused a model sent to it (Python checks first, so rarely).
    error = traitlets.Unicode("").tag(sync=True)
    steps = traitlets.List(traitlets.Unicode()).tag(sync=True)
    controls = traitlets.Unicode("").tag(sync=True)
    exercises = traitlets.Dict().tag(sync=True)
    #: "light", "dark", or "" to follow the notebook's theme.
    theme = traitlets.Unicode("").tag(sync=True)
    #: The frame's height in pixels until the page reports its own.
    height = traitlets.Int(640).tag(sync=True)
    #: Exercise results as they arrive (the embed's `attention-explorer:result` messages).
    results = traitlets.List()
    # How long the view waits for the page before saying it cannot reach it.
    _silence_ms = traitlets.Int(15_000).tag(sync=True)

    def __init__(
        self,
        state: dict | str | None = None,
        *,
        steps: Iterable[str] = (),
        controls: str = "",
        exercises: dict | str | None = None,
        theme: str = "",
        height: int = 640,
        url: str | None = None,
    ):
        """`state`: a saved state (dict or JSON text); the dog story when None. `steps`,
        `controls`, `exercises` and `theme` are the embed's options (docs/teachers.md). `url`: the
        page's address when this kernel's own server cannot be reached (default
        ATTENTION_EXPLORER_URL, else the kernel's server)."""
        model = _core.checked(state) if state is not None else _core.preset("dog")
        pinned = url or os.environ.get("ATTENTION_EXPLORER_URL")
        super().__init__(
            _url=pinned or _server.base_url() + "index.html",
            _kernel_files=not pinned,
            state=model,
            steps=[steps] if isinstance(steps, str) else list(steps),
            controls=controls,
            exercises=_exercises(exercises),
            theme=theme,
            height=height,
        )
        self.on_msg(self._on_message)

    @classmethod
    def from_torch(cls, mha: Any, sentence: str, embedding: Any = None, causal: bool = False, **options) -> "Explorer":
        """The explorer of an `nn.MultiheadAttention` (as "Import from PyTorch" reads it) on
        `sentence`. `embedding`: a row per token (tensor, array or lists), else the page's seeded
        rows (`torch.manual_seed(123)`, `nn.Embedding(50_000, E)`). ValueError says what does not fit."""
        if not hasattr(mha, "state_dict") or not hasattr(mha, "num_heads"):
            raise ValueError(f"expected an nn.MultiheadAttention, got {type(mha).__name__}")
        file = {
            "sentence": sentence,
            "causal": bool(causal),
            "num_heads": int(mha.num_heads),
            "state_dict": {name: _lists(t) for name, t in mha.state_dict().items()},
        }
        if embedding is not None:
            file["embedding"] = _lists(embedding)
        return cls(state=_core.from_torch_file(file), **options)

    @traitlets.validate("state")
    def _checked(self, proposal):
        # The page's reader decides: a bad state raises its message and the widget keeps the last.
        return _core.checked(proposal["value"])

    def trace(self, as_torch: bool = False) -> dict:
        """Every intermediate of the model now: `tokens`, `embedded`, `heads` (each with
        `queries`, `keys`, `values`, `scores`, `scaled_scores`, `masked_scores`, `weights`,
        `context`…), `concatenated`, `output`, as float64 numpy arrays (torch tensors with
        `as_torch`); −∞ is -inf. The names are `attention-trace`'s (docs/developers/cli.md)."""
        out = _core.arrays(_core.trace(self.state))
        if not as_torch:
            return out
        import torch

        return _map_arrays(out, torch.from_numpy)

    def to_torch(self) -> Any:
        """The model as `nn.MultiheadAttention(E, H, bias=…, batch_first=True)` in float64 with the
        edited weights; ValueError with the reason when PyTorch's module cannot express it."""
        file = _core.torch_file(self.state)
        import torch

        weights = file["state_dict"]
        width = len(weights["in_proj_weight"][0])
        mha = torch.nn.MultiheadAttention(width, file["num_heads"], bias="in_proj_bias" in weights,
                                          batch_first=True, dtype=torch.float64)
        mha.load_state_dict({name: torch.tensor(v, dtype=torch.float64) for name, v in weights.items()})
        return mha.eval()

    def _on_message(self, _widget, content, _buffers):
        if isinstance(content, dict) and content.get("event") == "result":
            self.results = [*self.results, content["result"]]


def _exercises(exercises: dict | str | None) -> dict:
    if not exercises:
        return {}
    if isinstance(exercises, str):
        exercises = dict(parse_qsl(exercises.lstrip("?&"), keep_blank_values=True))
    unknown = sorted(set(exercises) - set(EXERCISE_KEYS))
    if unknown:
        raise ValueError(f"exercises: unknown {', '.join(unknown)}; expected {', '.join(EXERCISE_KEYS)}")
    return {k: str(v) for k, v in exercises.items()}


def _lists(value: Any) -> Any:
    """A tensor, array or nested list as nested lists of floats (non-finite numbers as their
    names, which the core refuses with the place)."""
    if hasattr(value, "detach"):
        value = value.detach().cpu().double().numpy()
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_lists(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def _map_arrays(value: Any, f) -> Any:
    if isinstance(value, dict):
        return {k: _map_arrays(v, f) for k, v in value.items()}
    if isinstance(value, list):
        return [_map_arrays(v, f) for v in value]
    return f(value) if hasattr(value, "dtype") else value
