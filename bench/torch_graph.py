#!/usr/bin/python3
"""torch_graph.py - the networks of bench/graph-speed and bench/resnet-fashion
in PyTorch (Debian python3-torch, python3-torchvision), their ONNX files, and
PyTorch's speed on them in the format of bench/graph_epoch.c (the best wall
time of the runs and its spread, and the least CPU time of the process, every
thread's: on a machine shared with other work the CPU time is the steadier).

    torch_graph.py export NAME FILE.onnx       NAME: resnet8 (1x28x28, 10 classes,
                                               3 stages of one basic block, 16-32-64
                                               channels) or resnet18 (torchvision's,
                                               3x32x32, 10 classes); batch norm folded
                                               by the exporter (evaluation mode)
    torch_graph.py time NAME THREADS REPS ROWS [DATADIR]
                                               inference in batches of 64 and one
                                               training epoch at batch 64 (Adam, lr
                                               1e-3) of the network condnet computes
                                               (each batch norm folded into its
                                               convolution), and the epoch of the
                                               network as PyTorch holds it (batch norm
                                               in training mode); the rows as
                                               graph_epoch.c takes them

The weights are PyTorch's initial draws with batch-norm statistics drawn
away from the identity (seed 1): the speed does not depend on them.
"""
import gzip
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torchvision


class Block(nn.Module):
    """torchvision's BasicBlock: conv-bn-relu-conv-bn, plus the input (or
    its 1x1 projection when the block strides or widens), relu."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.relu = nn.ReLU()
        self.downsample = None
        if stride != 1 or cin != cout:
            self.downsample = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False),
                                            nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.bn2(self.conv2(self.relu(self.bn1(self.conv1(x)))))
        return self.relu(y + (self.downsample(x) if self.downsample is not None else x))


class ResNet8(nn.Module):
    """He et al.'s CIFAR ResNet with one block a stage (8 layers), on 1x28x28;
    widths: the channels of the three stages (the family's member)."""

    def __init__(self, classes=10, widths=(16, 32, 64)):
        super().__init__()
        a, b, c = widths
        self.conv1 = nn.Conv2d(1, a, 3, 1, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(a)
        self.relu = nn.ReLU()
        self.layers = nn.Sequential(Block(a, a, 1), Block(a, b, 2), Block(b, c, 2))
        self.fc = nn.Linear(c, classes)

    def forward(self, x):
        x = self.layers(self.relu(self.bn1(self.conv1(x))))
        return self.fc(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))


def make(name):
    torch.manual_seed(1)
    if name == 'resnet8':
        m, shape = ResNet8(), (1, 28, 28)
    else:
        m, shape = torchvision.models.resnet18(num_classes=10), (3, 32, 32)
    for mod in m.modules():
        if isinstance(mod, nn.BatchNorm2d):
            mod.running_mean.uniform_(-0.2, 0.2)
            mod.running_var.uniform_(0.5, 1.5)
    return m.eval(), shape


def export(m, shape, path):
    x = torch.zeros(2, *shape)
    torch.onnx.export(m, x, path, opset_version=13, input_names=['x'], output_names=['y'],
                      dynamic_axes={'x': {0: 'N'}, 'y': {0: 'N'}})


def folded(m):
    """The network condnet computes: every batch norm folded into the
    convolution before it (a bias), as the exporter folds them."""
    m = m.eval()
    fuse = torch.nn.utils.fusion.fuse_conv_bn_eval

    def walk(mod):
        for name in ('conv1', 'conv2'):
            bn = name.replace('conv', 'bn')
            if hasattr(mod, name) and hasattr(mod, bn):
                setattr(mod, name, fuse(getattr(mod, name), getattr(mod, bn)))
                setattr(mod, bn, nn.Identity())
        ds = getattr(mod, 'downsample', None)
        if ds is not None:
            mod.downsample = nn.Sequential(fuse(ds[0], ds[1]))
        for c in mod.children():
            walk(c)
    walk(m)
    for p in m.parameters():
        p.requires_grad_(True)
    return m


def rows(shape, n, datadir):
    """Fashion-MNIST's training images (pixels / 255) for 1x28x28, else noise."""
    if datadir and shape == (1, 28, 28):
        def idx(name):
            for f in (name, name + '.gz'):
                p = os.path.join(datadir, f)
                if os.path.exists(p):
                    return (gzip.open if f.endswith('.gz') else open)(p, 'rb').read()
            raise SystemExit(f'no {name} in {datadir}')
        x = np.frombuffer(idx('train-images-idx3-ubyte'), np.uint8, offset=16)
        y = np.frombuffer(idx('train-labels-idx1-ubyte'), np.uint8, offset=8)
        return (torch.tensor(x.reshape(-1, 1, 28, 28), dtype=torch.float32) / 255,
                torch.tensor(y, dtype=torch.long))
    g = torch.Generator().manual_seed(1)
    return torch.rand(n, *shape, generator=g), torch.arange(n) % 10


def epoch(m, x, y):
    opt = torch.optim.Adam(m.parameters(), 1e-3)
    m.train()
    order = torch.randperm(len(x), generator=torch.Generator().manual_seed(1))
    t0, c0 = time.perf_counter(), time.process_time()
    for s in range(0, len(x), 64):
        i = order[s:s + 64]
        opt.zero_grad()
        nn.functional.cross_entropy(m(x[i]), y[i]).backward()
        opt.step()
    return time.perf_counter() - t0, time.process_time() - c0


def infer(m, x):
    m.eval()
    t0, c0 = time.perf_counter(), time.process_time()
    with torch.no_grad():
        for s in range(0, len(x), 64):
            torch.softmax(m(x[s:s + 64]), 1)
    return time.perf_counter() - t0, time.process_time() - c0


def best(f, reps):
    """The best wall time and its spread, and the least CPU time (every thread's)."""
    t = [f() for _ in range(reps)]
    w = [a for a, _ in t]
    return min(w), 100 * (max(w) - min(w)) / min(w), min(c for _, c in t)


def main():
    if sys.argv[1] == 'export':
        m, shape = make(sys.argv[2])
        export(m, shape, sys.argv[3])
        return
    name, threads, reps, n = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    torch.set_num_threads(threads)
    m, shape = make(name)
    x, y = rows(shape, n, sys.argv[6] if len(sys.argv) > 6 else None)
    print(f'PyTorch {torch.__version__}, threads {threads}, {reps} runs each, {len(x)} rows')
    f = folded(make(name)[0])
    t, s, c = best(lambda: infer(f, x), reps)
    print(f'inference, batches of 64: {t:.3f} s (spread {s:.1f} %), CPU {c:.3f} s')
    t, s, c = best(lambda: epoch(folded(make(name)[0]), x, y), reps)
    print(f'training epoch, batch 64: {t:.3f} s (spread {s:.1f} %), CPU {c:.3f} s')
    t, s, c = best(lambda: epoch(make(name)[0], x, y), reps)
    print(f'training epoch with batch norm, batch 64: {t:.3f} s (spread {s:.1f} %), CPU {c:.3f} s')


if __name__ == '__main__':
    main()
