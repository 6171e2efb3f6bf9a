"""One training epoch of the paper's best MNIST network in PyTorch, the peer
condnet is measured against: same widths, erf activation, Adam (lr 1e-3),
float32, 60,000 random rows, batch 50 and 256, the same thread count.

    /usr/bin/python3 bench/torch_epoch.py [THREADS [REPS]]

Each epoch is run REPS times on a fresh model; prints the best time and the
spread (worst - best)/best, in the format bench/train_epoch.c uses."""
import sys
import time

import torch

WIDTHS = [200, 600, 410, 510, 420, 364, 319, 278, 249, 212, 180, 130, 50, 10]
ROWS = 60000


class Erf(torch.nn.Module):
    def forward(self, x):
        return torch.erf(x)


def net():
    layers = []
    for i in range(len(WIDTHS) - 1):
        layers.append(torch.nn.Linear(WIDTHS[i], WIDTHS[i + 1]))
        if i < len(WIDTHS) - 2:
            layers.append(Erf())
    return torch.nn.Sequential(*layers)


def epoch(x, y, batch):
    model = net()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = torch.nn.CrossEntropyLoss()
    perm = torch.randperm(ROWS)
    t0 = time.perf_counter()
    for s in range(0, ROWS, batch):
        idx = perm[s:s + batch]
        opt.zero_grad()
        loss = loss_fn(model(x[idx]), y[idx])
        loss.backward()
        opt.step()
    return time.perf_counter() - t0


def main():
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    x = torch.randn(ROWS, WIDTHS[0])
    y = torch.randint(0, 10, (ROWS,))
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, "
          f"{reps} runs each")
    for batch in (50, 256):
        times = [epoch(x, y, batch) for _ in range(reps)]
        best, worst = min(times), max(times)
        print(f"batch {batch}: epoch {best:.2f} s "
              f"(spread {100 * (worst - best) / best:.1f} %)", flush=True)


main()
