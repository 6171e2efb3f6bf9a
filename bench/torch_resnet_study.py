#!/usr/bin/python3
"""torch_resnet_study.py - one network of bench/resnet-study: the ResNet-8 of
torch_graph.py at the given widths, trained by PyTorch (batch norm, Adam lr
1e-3, batch 128, EPOCHS epochs, seed SEED, pixels / 255) on the MNIST-format
data set in DATADIR, exported to ONNX in evaluation mode (batch norm folded
by the exporter) as OUT.onnx. Prints each epoch's test accuracy and time.

    torch_resnet_study.py DATADIR EPOCHS SEED WIDTHS OUT.onnx    (WIDTHS: 16,32,64)
"""
import os
import sys
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_fashion  # noqa: E402
import torch_graph  # noqa: E402


def main():
    d, epochs, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    widths, out = tuple(int(w) for w in sys.argv[4].split(',')), sys.argv[5]
    torch.manual_seed(seed)
    xt, yt = torch_fashion.load(d, 'train')
    xs, ys = torch_fashion.load(d, 't10k')
    m = torch_graph.ResNet8(widths=widths)
    print(f'PyTorch {torch.__version__}, {torch.get_num_threads()} threads: ResNet-8 '
          f'{"-".join(map(str, widths))}, seed {seed}, '
          f'{sum(p.numel() for p in m.parameters())} parameters, {len(xt)} training images')
    torch_fashion.train(m, xt, yt, xs, ys, epochs, seed)
    torch_graph.export(m, (1, 28, 28), out)


if __name__ == '__main__':
    main()
