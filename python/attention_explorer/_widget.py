"""`Explorer`: the page in an output cell, its model synced with Python both ways."""
from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import parse_qsl

import anywidget
import traitlets

from . import _core, _server

# The core's words for a link's values, as the build writes them beside the page (contract.json,
# core::formats::boot).
CONTRACT = json.loads((_server.page_folder() / "contract.json").read_text())
# The exercise parameters of a link (docs/teachers.md, "Exercises for course pages").
EXERCISE_KEYS = tuple(CONTRACT["exercises"])


class StateError(ValueError, traitlets.TraitError):
    """A state the page's reader refuses (a ValueError, and a TraitError so that traitlets puts
    the last good state back when it came from the widget)."""


class _State(traitlets.TraitType):
    """The saved state as a dict, checked by the core's reader (a dict, or JSON text, goes in;
    the state as the page writes it is kept), given out as a copy: one edited in place and set
    again is a change all the same (traitlets sends nothing when old and new are equal)."""

    default_value = {}
    info_text = "a saved state (a dict or JSON text)"

    def validate(self, obj, value):
        try:
            return _core.checked(value)
        except ValueError as error:
            raise StateError(str(error)) from None

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
    # The start of every message the page posts or answers.
    _prefix = traitlets.Unicode(CONTRACT["messages"]["prefix"]).tag(sync=True)
    state = _State().tag(sync=True)
    #: Why the last state from the widget was refused (a page older or newer than this package's
    #: core), else "".
    error = traitlets.Unicode("").tag(sync=True)
    steps = traitlets.List(traitlets.Unicode()).tag(sync=True)
    #: What the learner may change besides the cells: "" (the embed's default, nothing), "none",
    #: "dims" or "all".
    controls = traitlets.Enum(("", *CONTRACT["controls"]), "").tag(sync=True)
    exercises = traitlets.Dict().tag(sync=True)
    #: "light", "dark", "auto", or "" to follow the notebook's theme.
    theme = traitlets.Enum(("", *CONTRACT["themes"]), "").tag(sync=True)
    #: The page's language (`lang=`, src/core/i18n/lang.rs), or "" for the browser's.
    lang = traitlets.Enum(("", *CONTRACT["languages"]["offered"]), "").tag(sync=True)
    #: The frame's height in pixels until the page reports its own.
    height = traitlets.Int(640).tag(sync=True)
    #: Exercise results as they arrive (the embed's `result` messages).
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
        lang: str = "",
        height: int = 640,
        url: str | None = None,
    ):
        """`state`: a saved state (dict or JSON text); the dog story when None. `steps`,
        `controls`, `exercises`, `theme` and `lang` are the embed's options (docs/teachers.md). `url`: the
        page's address when this kernel's own server cannot be reached (default
        ATTENTION_EXPLORER_URL, else the kernel's server)."""
        pinned = url or os.environ.get("ATTENTION_EXPLORER_URL")
        super().__init__(
            _url=pinned or _server.base_url() + "index.html",
            _kernel_files=not pinned,
            state=_core.preset("dog") if state is None else state,
            steps=[steps] if isinstance(steps, str) else list(steps),
            controls=controls,
            exercises=_exercises(exercises),
            theme=theme,
            lang=lang,
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
        if getattr(mha, "add_zero_attn", False):
            raise ValueError("add_zero_attn=True adds a key and a value of zeros that this page does not have")
        file = {
            "sentence": sentence,
            "causal": bool(causal),
            "num_heads": int(mha.num_heads),
            "state_dict": _core.plain(dict(mha.state_dict())),
        }
        if embedding is not None:
            file["embedding"] = _core.plain(embedding)
        return cls(state=_core.from_torch_file(file), **options)

    def set_state(self, sync_data):
        # A state from the widget that the core refuses (a page at a pinned url= of another
        # version): Python keeps its last good state, says why, and sends that state back.
        try:
            super().set_state(sync_data)
        except StateError as refused:
            self.error = str(refused)
            self.send_state("state")

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
        edited weights; ValueError with the reason when PyTorch's module cannot express it. The
        causal mask is not part of a module: when `state["causal"]`, call it with
        `attn_mask=torch.triu(torch.ones(n, n, dtype=torch.bool), 1)`."""
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


def _map_arrays(value: Any, f) -> Any:
    if isinstance(value, dict):
        return {k: _map_arrays(v, f) for k, v in value.items()}
    if isinstance(value, list):
        return [_map_arrays(v, f) for v in value]
    return f(value) if hasattr(value, "dtype") else value
