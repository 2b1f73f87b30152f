"""SmolLM2-135M (the page's GGUF file) in PyTorch float32 on the CPU, one thread: a prompt's
evaluation to the next token's logits, and one token after it with the KV cache; the anchor
tests/e2e/bench_language.mjs prints beside the page. Needs torch, transformers 4.57.6, gguf.

    python decoder_torch.py MODEL.gguf "PROMPT"   ->  {"pieces": n, "prompt_ms": …, "token_ms": …}
"""
import copy
import json
import os
import sys
import time

import torch
from transformers import AutoModelForCausalLM, AutoTokenizer

torch.set_num_threads(1)
path, prompt = sys.argv[1], sys.argv[2]
folder, name = os.path.split(os.path.abspath(path))
tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name)
model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32).eval()
ids = torch.tensor([tokenizer(prompt, add_special_tokens=False)["input_ids"]])


def best(run, inputs):
    """The quickest of `run` on each of `inputs`, in milliseconds."""
    out = []
    for given in inputs:
        start = time.perf_counter()
        run(given)
        out.append((time.perf_counter() - start) * 1000)
    return min(out)


with torch.inference_mode():
    prompt_ms = best(lambda _: model(ids, use_cache=True), range(5))
    first = model(ids, use_cache=True)
    next_id = first.logits[:, -1].argmax(-1, keepdim=True)
    # A cache of the prompt per run (a run adds the token to the one it is given).
    caches = [copy.deepcopy(first.past_key_values) for _ in range(5)]
    token_ms = best(lambda cache: model(next_id, past_key_values=cache, use_cache=True), caches)
print(json.dumps({"pieces": ids.shape[1], "prompt_ms": prompt_ms, "token_ms": token_ms}))
