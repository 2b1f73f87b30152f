"""Attention Explorer as a Jupyter widget (anywidget): an `nn.MultiheadAttention` in, every
number editable in the output cell, the edits back as a saved state, arrays and a module."""
from ._widget import Explorer

__all__ = ["Explorer"]
__version__ = "0.1.0"
