"""One training epoch of a LeNet-5-shaped network in PyTorch, the peer
bench/lenet_epoch.c is measured against: conv 6@5x5, pool, conv 16@5x5,
pool, 120, 84, 10, relu, Adam (lr 1e-3), float32, MNIST's 60,000 training
images (pixels scaled to [0, 1]) at batch 64, the same thread count.

    /usr/bin/python3 bench/torch_lenet.py DATADIR [THREADS [REPS]]

Each epoch is run REPS times on a fresh model; prints the best time and the
spread (worst - best)/best, in the format bench/lenet_epoch.c uses."""
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn


def idx(path, images):
    with open(path, 'rb') as f:
        data = f.read()
    if images:
        n = int.from_bytes(data[4:8], 'big')
        return np.frombuffer(data, np.uint8, offset=16).reshape(n, 1, 28, 28)
    return np.frombuffer(data, np.uint8, offset=8)


def lenet():
    return nn.Sequential(nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(6, 16, 5),
                         nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(256, 120),
                         nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))


def main():
    d = sys.argv[1]
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    x = torch.from_numpy(idx(os.path.join(d, 'train-images-idx3-ubyte'), 1).astype(np.float32) / 255)
    y = torch.from_numpy(idx(os.path.join(d, 'train-labels-idx1-ubyte'), 0).astype(np.int64))
    xt = torch.from_numpy(idx(os.path.join(d, 't10k-images-idx3-ubyte'), 1).astype(np.float32) / 255)
    yt = torch.from_numpy(idx(os.path.join(d, 't10k-labels-idx1-ubyte'), 0).astype(np.int64))
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}, {reps} runs each")
    times, acc = [], 0
    for _ in range(reps):
        model = lenet()
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        loss_fn = nn.CrossEntropyLoss()
        perm = torch.randperm(len(y))
        t0 = time.perf_counter()
        for s in range(0, len(y), 64):
            i = perm[s:s + 64]
            opt.zero_grad()
            loss_fn(model(x[i]), y[i]).backward()
            opt.step()
        times.append(time.perf_counter() - t0)
        with torch.no_grad():
            acc = 100 * (model(xt).argmax(1) == yt).float().mean().item()
    best, worst = min(times), max(times)
    print(f"batch 64: epoch {best:.2f} s (spread {100 * (worst - best) / best:.1f} %), "
          f"test accuracy after it {acc:.2f} %", flush=True)


main()
