"""The widget's Python side against PyTorch's numbers, through the installed package (its copy
of the page and of the core's command line): what a user who ran pip install ./python gets."""
import json
import os
import zipfile
from pathlib import Path

import numpy as np
import pytest

import attention_explorer
from attention_explorer import Explorer


class Module:
    """What from_torch reads of an nn.MultiheadAttention, for a machine without PyTorch."""

    def __init__(self, torch_case):
        self.num_heads = torch_case["num_heads"]
        self._dict = {k: np.array(v) for k, v in torch_case["state_dict"].items()}

    def state_dict(self):
        return self._dict


def explorer_of(case):
    t = case["torch"]
    return Explorer.from_torch(Module(t), t["sentence"], embedding=np.array(t["embedding"]), causal=t["causal"])


def test_the_package_is_the_installed_wheel_with_the_page_and_the_core():
    package = Path(attention_explorer.__file__).parent
    assert "site-packages" in package.parts, f"tests run against the installed package, not {package}"
    assert (package / "page" / "index.html").is_file()
    assert list((package / "page").glob("code-*/attention-explorer_bg.wasm"))
    core = attention_explorer._core.binary()
    assert os.access(core, os.X_OK) and "site-packages" not in core.parts, core


def test_the_wheel_holds_the_page_files_and_the_core():
    wheel = os.environ.get("ATTENTION_EXPLORER_WHEEL")
    if not wheel:
        pytest.skip("ATTENTION_EXPLORER_WHEEL is not set (the test command sets it to the wheel it built)")
    names = zipfile.ZipFile(wheel).namelist()
    dist = Path(__file__).resolve().parents[2] / "dist"
    built = json.loads((dist / "build.json").read_text())
    for name in built["first"] + built["later"]:
        assert f"attention_explorer/page/{name}" in names, name
    assert "attention_explorer/page/index.html" in names
    assert [n for n in names if n.endswith(".data/scripts/attention-trace")], "the core, as a script of the wheel"
    assert "attention_explorer/widget.js" in names
    assert not [n for n in names if "/models/" in n], "the trained model stays out of the wheel"


def test_from_torch_gives_pytorch_weights_and_outputs(mha_cases):
    assert len(mha_cases) == 24
    for i, case in enumerate(mha_cases):
        trace = explorer_of(case).trace()
        weights = np.array([head["weights"] for head in trace["heads"]])
        assert np.abs(weights - np.array(case["weights"])).max() <= 1e-9, i
        assert np.abs(trace["output"] - np.array(case["output"])).max() <= 1e-9, i
        assert trace["embedded"] == pytest.approx(np.array(case["torch"]["embedding"]), abs=0)


def test_to_torch_gives_the_module_back(mha_cases):
    for case in mha_cases:
        explorer = explorer_of(case)
        # What to_torch() loads into the module (PyTorch itself is not needed to read it).
        back = attention_explorer._core.torch_file(explorer.state)
        expected = case["torch"]["state_dict"]
        for name, value in expected.items():
            assert np.array(back["state_dict"][name]) == pytest.approx(np.array(value), abs=1e-12), name


def test_real_pytorch_modules_in_and_out(mha_cases):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed: the stand-in module above covered from_torch")
    for case in mha_cases:
        t = case["torch"]
        width = len(t["embedding"][0])
        mha = torch.nn.MultiheadAttention(width, t["num_heads"], bias="in_proj_bias" in t["state_dict"],
                                          batch_first=True, dtype=torch.float64)
        mha.load_state_dict({k: torch.tensor(v, dtype=torch.float64) for k, v in t["state_dict"].items()})
        x = torch.tensor(t["embedding"], dtype=torch.float64)
        explorer = Explorer.from_torch(mha, t["sentence"], embedding=x, causal=t["causal"])
        trace = explorer.trace(as_torch=True)
        assert torch.is_tensor(trace["output"])
        assert (trace["output"] - torch.tensor(case["output"], dtype=torch.float64)).abs().max() <= 1e-9
        # Edited in the widget (as a learner types), then back out as a module.
        state = explorer.state
        state["heads"][0]["w_query"][0][0] = 0.25
        explorer.state = state
        module = explorer.to_torch()
        n = x.shape[0]
        mask = torch.triu(torch.ones(n, n, dtype=torch.bool), 1) if t["causal"] else None
        out, _ = module(x, x, x, attn_mask=mask, need_weights=False)
        assert (out - torch.from_numpy(explorer.trace()["output"])).abs().max() <= 1e-9
        assert module.in_proj_weight[0, 0].item() == 0.25


def test_from_torch_without_an_embedding_draws_the_pages_seeded_rows():
    # torch.manual_seed(123); nn.Embedding(50_000, 3): the Raschka preset's table, as the page draws it.
    raschka = attention_explorer._core.preset("raschka")
    module = Module({"num_heads": 1, "state_dict": {"in_proj_weight": np.eye(9, 3), "out_proj.weight": np.eye(3)}})
    explorer = Explorer.from_torch(module, raschka["sentence"])
    assert explorer.state["embedding"] == raschka["embedding"]
    assert explorer.trace()["heads"][0]["queries"] == pytest.approx(np.array(raschka["embedding"])[explorer.trace()["token_ids"]], abs=0)


def test_the_state_round_trips(variant_states):
    for name in attention_explorer._widget.CONTRACT["presets"]:
        preset = attention_explorer._core.preset(name)
        assert Explorer(state=preset).state == preset
    for state in variant_states:
        explorer = Explorer(state=state)
        assert Explorer(state=explorer.state).state == explorer.state
        assert Explorer(state=json.dumps(explorer.state)).state == explorer.state
    # Set from Python, read back, traced.
    explorer = Explorer()
    edited = explorer.state
    edited["heads"][0]["w_key"][1][0] = 2.5
    explorer.state = edited
    assert explorer.state["heads"][0]["w_key"][1][0] == 2.5
    assert explorer.trace()["heads"][0]["keys"][1][0] == pytest.approx(
        np.array(edited["embedding"])[explorer.trace()["token_ids"][1]] @ np.array(edited["heads"][0]["w_key"])[:, 0])


def test_a_state_edited_in_place_and_set_again_reaches_the_widget():
    explorer = Explorer()
    sent = []
    explorer.observe(lambda change: sent.append(change["new"]["heads"][0]["w_query"][0][0]), "state")
    state = explorer.state
    state["heads"][0]["w_query"][0][0] = 3.0
    explorer.state = state
    assert sent == [3.0]


def test_two_explorers_are_independent():
    a, b = Explorer(), Explorer()
    s = a.state
    s["heads"][0]["w_query"][0][0] = 9.0
    a.state = s
    assert b.state["heads"][0]["w_query"][0][0] != 9.0
    assert a._url == b._url, "one server per kernel: the browser fetches the page once"


def test_bad_inputs_raise_the_pages_message_and_keep_the_model(mha_cases):
    explorer = Explorer()
    good = explorer.state
    bad = json.loads(json.dumps(good))
    bad["heads"][0]["w_key"][1][0] = "x"
    with pytest.raises(ValueError, match=r'^heads\[0\]\.w_key\[1\]\[0\]: invalid type: string "x", expected a number$'):
        explorer.state = bad
    assert explorer.state == good
    with pytest.raises(ValueError, match=r"^embedding: missing$"):
        Explorer(state={"version": 1, "sentence": "a b"})
    with pytest.raises(ValueError, match="not valid JSON|expected"):
        Explorer(state="{")
    t = mha_cases[1]["torch"]
    # A tensor of the wrong shape: x one row short.
    with pytest.raises(ValueError, match=r"embedding is 8 × 9, expected 9 × 9 \(a row per token\)"):
        Explorer.from_torch(Module(t), t["sentence"], embedding=np.array(t["embedding"])[:-1])
    # A module for another width than the embedding's.
    other = mha_cases[2]["torch"]
    with pytest.raises(ValueError, match=r"the module takes inputs of width E = 8 but this page's embedding is 9 wide"):
        Explorer.from_torch(Module(other), t["sentence"], embedding=t["embedding"])
    with pytest.raises(ValueError, match="expected an nn.MultiheadAttention, got dict"):
        Explorer.from_torch({}, "a b")
    with pytest.raises(ValueError, match=r"embedding\[0\]\[0\]"):
        Explorer.from_torch(Module(t), t["sentence"], embedding=np.full((9, 9), np.nan))
    with pytest.raises(ValueError, match=r"nn.MultiheadAttention gives every head d_k = d_v = E/H"):
        Explorer().to_torch()
    with pytest.raises(ValueError, match="exercises: unknown colour"):
        Explorer(exercises={"colour": "red"})


def test_the_example_notebook_runs():
    pytest.importorskip("torch", reason="PyTorch is not installed: the example notebook needs it")
    notebook = Path(__file__).resolve().parents[1] / "examples" / "attention_in_a_notebook.ipynb"
    scope = {}
    for cell in json.loads(notebook.read_text())["cells"]:
        if cell["cell_type"] == "code":
            source = "".join(cell["source"])
            # The learner's edit in the widget, as Python would receive it.
            if source.startswith('explorer.state["heads"]'):
                state = scope["explorer"].state
                state["heads"][0]["w_query"][0][0] = 3.0
                scope["explorer"].state = state
            exec(compile(source, str(notebook), "exec"), scope)
    assert scope["edited"].in_proj_weight[0, 0].item() == 3.0
    assert (scope["weights"] - scope["page"]).abs().max().item() <= 1e-9
    assert scope["explorer"].state["causal"] is True


def test_a_state_the_widget_sends_that_the_core_refuses_keeps_the_last_good_one():
    explorer = Explorer()
    good = explorer.state
    seen = []
    explorer.observe(lambda change: seen.append(change), "state")
    bad = explorer.state
    bad["heads"][0]["w_key"] = "x"
    explorer.set_state({"state": bad})  # as a message from the widget arrives
    assert explorer.state == good
    assert seen == []
    assert explorer.error == 'heads[0].w_key: invalid type: string "x", expected a list'


def test_states_take_json_text_numpy_numbers_and_name_what_is_not_finite():
    explorer = Explorer()
    state = explorer.state
    explorer.state = json.dumps(state)
    assert explorer.state == state
    state["heads"][0]["w_query"] = np.array(state["heads"][0]["w_query"], dtype=np.float32) * 0 + np.float32(0.5)
    explorer.state = state
    assert explorer.state["heads"][0]["w_query"][0][0] == 0.5
    state["heads"][0]["w_query"] = np.full((2, 2), np.nan)
    with pytest.raises(ValueError, match=r"^heads\[0\]\.w_query\[0\]\[0\]"):
        explorer.state = state
    with pytest.raises(ValueError):
        explorer.state = None


def test_options_and_modules_it_cannot_show_are_refused(mha_cases):
    module = Module(mha_cases[1]["torch"])
    module.add_zero_attn = True
    with pytest.raises(ValueError, match="add_zero_attn=True"):
        Explorer.from_torch(module, mha_cases[1]["torch"]["sentence"])
    with pytest.raises(Exception, match="controls"):
        Explorer(controls="some")
    with pytest.raises(Exception, match="theme"):
        Explorer(theme="blue")
    with pytest.raises(Exception, match="lang"):
        Explorer(lang="de")
    assert Explorer(lang="ar").lang == "ar"


def test_the_kernels_server_serves_the_page_and_nothing_else():
    from urllib.error import HTTPError
    from urllib.request import urlopen

    explorer = Explorer()
    page = explorer._url
    base = page.rsplit("/", 1)[0]
    with urlopen(page) as answer:
        assert answer.headers["Content-Security-Policy"].startswith("default-src 'self'")
        assert b"attention-explorer" in answer.read()
    with urlopen(base + "/") as answer:
        assert answer.headers["Content-Type"].startswith("text/html")
        answer.read()
    origin = base.rsplit("/", 1)[0]
    # Outside the token, a folder (its redirect would drop the token), above the page's folder
    # (the package's own files), the service worker.
    for path in (origin + "/index.html", base + "/snippets", base + "/%2e%2e/_server.py", base + "/../__init__.py", base + "/sw.js"):
        with pytest.raises(HTTPError) as refused:
            urlopen(path)
        assert refused.value.code == 404, path
