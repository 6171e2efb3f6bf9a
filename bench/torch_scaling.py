"""A training epoch of a network of DEPTH hidden layers of WIDTH erf neurons
on 200 inputs and 10 classes in PyTorch (Debian python3-torch): Adam (lr
1e-3), float32, batch 50, random rows, THREADS threads; the peer of
bench/scaling.c. The best of three windows of batches (at least 10 and about
a second each, after 2 not timed), scaled to the 1,200 batches of 60,000 rows.

    /usr/bin/python3 bench/torch_scaling.py WIDTH DEPTH THREADS

Prints one line: width, depth, batches timed, epoch seconds."""
import sys
import time

import torch

ROWS, BATCH = 60000, 50


class Erf(torch.nn.Module):
    def forward(self, x):
        return torch.erf(x)


def main():
    width, depth, threads = (int(a) for a in sys.argv[1:4])
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    widths = [200] + [width] * depth + [10]
    layers = []
    for i in range(len(widths) - 1):
        layers.append(torch.nn.Linear(widths[i], widths[i + 1]))
        if i < len(widths) - 2:
            layers.append(Erf())
    model = torch.nn.Sequential(*layers)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = torch.nn.CrossEntropyLoss()
    x = torch.randn(ROWS, widths[0])
    y = torch.randint(0, 10, (ROWS,))
    perm = torch.randperm(ROWS)
    pos = 0

    def steps(n):
        nonlocal pos
        for _ in range(n):
            idx = perm[pos:pos + BATCH]
            pos = (pos + BATCH) % ROWS
            opt.zero_grad()
            loss = loss_fn(model(x[idx]), y[idx])
            loss.backward()
            opt.step()

    steps(2)
    nb = 10
    while True:
        t0 = time.perf_counter()
        steps(nb)
        secs = time.perf_counter() - t0
        if secs >= 0.7 or nb >= 1200:
            break
        nb = min(1200, max(2 * nb, int(1.0 / (secs / nb)) + 1))
    best = secs / nb
    for _ in range(2):
        t0 = time.perf_counter()
        steps(nb)
        best = min(best, (time.perf_counter() - t0) / nb)
    print(f"width {width} depth {depth} batches {nb} epoch {best * ROWS / BATCH:.4f}",
          flush=True)


main()
