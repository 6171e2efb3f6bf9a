"""The training error of a deep erf network after its first epoch (or a few),
in PyTorch, on the features condnet trains on: the checks behind Table 2 and
the Adult plateau in docs/reproduction-notes.md. Export the features first:

    condnet export --data mnist --npy FEAT
    /usr/bin/python3 bench/torch_first_epoch.py FEAT --layers 12x300 [--scale A]
        [--trainable none|layer|neuron] [--init glorot|lecun|torch] [--seed S]
        [--threads N] [--batch B] [--epochs E]

Glorot-uniform weights (Keras' default; --init lecun: normal with variance
1/fan_in; --init torch: PyTorch's own Linear default), zero biases, Adam
(lr 0.001), batch 50, one pass (--epochs: E passes) over the training rows, each
in a new random order. The hidden layers apply erf(a*x): a fixed
(--trainable none, the default, a = --scale), one learned a per layer, or one
learned a per neuron (both start at --scale). Prints the training and test
error at the end and the mean learned a of every layer."""
import argparse
import os

import numpy as np
import torch


def parse_layers(spec):
    widths = []
    for part in spec.split(","):
        if "x" in part:
            count, width = part.split("x")
            widths += [int(width)] * int(count)
        else:
            widths.append(int(part))
    return widths


class ErfNet(torch.nn.Module):
    def __init__(self, widths, scale, trainable, init):
        super().__init__()
        self.linear = torch.nn.ModuleList()
        for n_in, n_out in zip(widths[:-1], widths[1:]):
            layer = torch.nn.Linear(n_in, n_out)
            if init == "glorot":
                torch.nn.init.xavier_uniform_(layer.weight)
            elif init == "lecun":
                torch.nn.init.normal_(layer.weight, std=n_in ** -0.5)
            torch.nn.init.zeros_(layer.bias)
            self.linear.append(layer)
        self.scale = torch.nn.ParameterList()
        for width in widths[1:-1]:
            size = width if trainable == "neuron" else 1
            self.scale.append(torch.nn.Parameter(torch.full((size,), scale),
                                                 requires_grad=trainable != "none"))

    def forward(self, x):
        for i, layer in enumerate(self.linear):
            x = layer(x)
            if i < len(self.scale):
                x = torch.erf(self.scale[i] * x)
        return x


def error(net, x, y):
    with torch.no_grad():
        return 100.0 * (net(x).argmax(1) != y).float().mean().item()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("features", help="directory written by condnet export --data")
    ap.add_argument("--layers", default="12x300")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--trainable", choices=("none", "layer", "neuron"), default="none")
    ap.add_argument("--init", choices=("glorot", "lecun", "torch"), default="glorot")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--batch", type=int, default=50)
    ap.add_argument("--epochs", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)

    def load(name):
        return torch.from_numpy(np.load(os.path.join(a.features, name)))

    xtr, ytr = load("x_train.npy"), load("y_train.npy").long()
    xte, yte = load("x_test.npy"), load("y_test.npy").long()
    widths = [xtr.shape[1]] + parse_layers(a.layers) + [int(ytr.max()) + 1]
    net = ErfNet(widths, a.scale, a.trainable, a.init)
    opt = torch.optim.Adam([p for p in net.parameters() if p.requires_grad], lr=1e-3)
    for _ in range(a.epochs):
        order = torch.randperm(xtr.shape[0])
        for start in range(0, xtr.shape[0], a.batch):
            rows = order[start:start + a.batch]
            opt.zero_grad()
            torch.nn.functional.cross_entropy(net(xtr[rows]), ytr[rows]).backward()
            opt.step()
    scales = " ".join("%.2f" % s.mean().item() for s in net.scale)
    print("%s erf scale %g (%s) init %s seed %d: after %d epoch(s) train error %.2f %%, "
          "test error %.2f %%; mean a per layer: %s"
          % (a.layers, a.scale, a.trainable, a.init, a.seed, a.epochs, error(net, xtr, ytr),
             error(net, xte, yte), scales), flush=True)


main()
