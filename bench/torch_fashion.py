#!/usr/bin/python3
"""torch_fashion.py - the ResNet-8 of torch_graph.py trained by PyTorch on
Fashion-MNIST for bench/resnet-fashion: Adam (lr 1e-3), batch 128, EPOCHS
epochs, seed 1, pixels / 255; exported to ONNX in evaluation mode (batch norm
folded by the exporter) as WORK/resnet-fashion.onnx, and its answers on the
10,000 test images as WORK/torch-prob.npy and WORK/torch-class.npy.

    torch_fashion.py FASHION_DIR EPOCHS WORK
"""
import gzip
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_graph  # noqa: E402


def idx(d, name):
    for f in (name, name + '.gz'):
        p = os.path.join(d, f)
        if os.path.exists(p):
            return (gzip.open if f.endswith('.gz') else open)(p, 'rb').read()
    raise SystemExit(f'no {name} in {d}')


def load(d, split):
    x = np.frombuffer(idx(d, f'{split}-images-idx3-ubyte'), np.uint8, offset=16)
    y = np.frombuffer(idx(d, f'{split}-labels-idx1-ubyte'), np.uint8, offset=8)
    return (torch.tensor(x.reshape(-1, 1, 28, 28), dtype=torch.float32) / 255,
            torch.tensor(y, dtype=torch.long))


def answer(m, x):
    """The logits of x, in evaluation mode, a thousand images at a time."""
    m.eval()
    with torch.no_grad():
        return torch.cat([m(x[s:s + 1000]) for s in range(0, len(x), 1000)])


def train(m, xt, yt, xs, ys, epochs, seed):
    """Adam (lr 1e-3), batches of 128 in an order drawn from seed, epochs
    epochs; each epoch's test accuracy and time printed; m left in
    evaluation mode."""
    opt = torch.optim.Adam(m.parameters(), 1e-3)
    g = torch.Generator().manual_seed(seed)
    for e in range(epochs):
        m.train()
        t0 = time.perf_counter()
        order = torch.randperm(len(xt), generator=g)
        for s in range(0, len(xt), 128):
            i = order[s:s + 128]
            opt.zero_grad()
            nn.functional.cross_entropy(m(xt[i]), yt[i]).backward()
            opt.step()
        acc = (answer(m, xs).argmax(1) == ys).float().mean().item()
        print(f'epoch {e + 1}: test accuracy {100 * acc:.2f} %, {time.perf_counter() - t0:.1f} s')
    m.eval()


def main():
    d, epochs, work = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    torch.manual_seed(1)
    xt, yt = load(d, 'train')
    xs, ys = load(d, 't10k')
    m = torch_graph.ResNet8()
    print(f'PyTorch {torch.__version__}, {torch.get_num_threads()} threads: ResNet-8, '
          f'{sum(p.numel() for p in m.parameters())} parameters, {len(xt)} training images')
    train(m, xt, yt, xs, ys, epochs, 1)
    torch_graph.export(m, (1, 28, 28), os.path.join(work, 'resnet-fashion.onnx'))
    p = torch.softmax(answer(m, xs), 1).numpy()
    np.save(os.path.join(work, 'torch-prob.npy'), p)
    np.save(os.path.join(work, 'torch-class.npy'), p.argmax(1).astype(np.int32))


if __name__ == '__main__':
    main()
