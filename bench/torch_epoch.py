"""One training epoch of the paper's best MNIST network in PyTorch, the peer
condnet is measured against: same widths, erf activation, Adam (lr 1e-3),
float32, 60,000 random rows, batch 50 and 256, 2 threads."""
import sys
import time

import torch

WIDTHS = [200, 600, 410, 510, 420, 364, 319, 278, 249, 212, 180, 130, 50, 10]


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


def main():
    threads = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    x = torch.randn(60000, 200)
    y = torch.randint(0, 10, (60000,))
    for batch in (50, 256):
        model = net()
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        loss_fn = torch.nn.CrossEntropyLoss()
        perm = torch.randperm(60000)
        t0 = time.perf_counter()
        for s in range(0, 60000, batch):
            idx = perm[s:s + batch]
            opt.zero_grad()
            loss = loss_fn(model(x[idx]), y[idx])
            loss.backward()
            opt.step()
        print(f"batch {batch}: epoch {time.perf_counter() - t0:.2f} s")


main()
