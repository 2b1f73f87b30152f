"""One forward + backward + SGD step with PyTorch (float64, CPU, one thread) on a saved state:
the same step as tests/benches/train.rs times. Prints microseconds per step.

python3 train_torch.py STATE.json QUERY RUNS   (the target: QUERY attends to key 0, head 0)
"""
import json
import math
import sys
import time

import torch

torch.set_num_threads(1)
state = json.load(open(sys.argv[1]))
query, runs = int(sys.argv[2]), int(sys.argv[3])
words = state["sentence"].replace(",", " ").split()
vocab = sorted(set(words))
ids = torch.tensor([vocab.index(w) for w in words])
t = lambda m: torch.tensor(m, dtype=torch.float64, requires_grad=True)
embedding = t(state["embedding"])
heads = [(t(h["w_query"]), t(h["w_key"]), t(h["w_value"])) for h in state["heads"]]
params = [embedding] + [w for h in heads for w in h]
n = len(words)
future = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1)
optimizer = torch.optim.SGD(params, lr=1e-3)


def step():
    optimizer.zero_grad()
    x = embedding[ids]
    weights = []
    for wq, wk, wv in heads:
        q, k, v = x @ wq, x @ wk, x @ wv
        s = (q @ k.T) / math.sqrt(k.shape[1])
        if state.get("causal"):
            s = s.masked_fill(future, -torch.inf)
        w = torch.softmax(s, dim=-1)
        weights.append(w)
        _ = w @ v
    loss = -torch.log(weights[0][query, 0])
    loss.backward()
    optimizer.step()


for _ in range(3):
    step()
start = time.perf_counter()
for _ in range(runs):
    step()
print((time.perf_counter() - start) / runs * 1e6)
