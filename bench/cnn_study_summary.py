#!/usr/bin/env python3
"""bench/cnn_study_summary.py - docs/results-cnn.md from the records of
bench/cnn-study (docs/cnn-study/): every table and every number in its prose
is computed here from the records, nothing typed by hand. `bench/cnn-study
summary` runs it; tests/cnn_study.sh runs it on the committed records and
compares with the document.

    cnn_study_summary.py RECORDS_DIR > docs/results-cnn.md

Standard library only. A paired comparison over networks is counted as wins,
ties and losses, with the exact two-sided sign test over the networks that
differ (ties left out)."""
import glob
import json
import math
import os
import re
import statistics as st
import sys

D = sys.argv[1] if len(sys.argv) > 1 else 'docs/cnn-study'
SETS = (('mnist', 'MNIST'), ('fashion', 'Fashion-MNIST'))
SCOPES = (('1', 'conv 1 alone'), ('2', 'conv 2 alone'), ('3', 'dense alone'),
          ('all', 'all at once'))
UNITS = ('conv 1', 'conv 2', 'dense')
out = []


def say(*lines):
    out.extend(lines)


def path(name):
    return os.path.join(D, name)


def load(name):
    p = path(name)
    return json.load(open(p)) if os.path.exists(p) else None


def text(name):
    p = path(name)
    return open(p).read() if os.path.exists(p) else None


def seeds_of(kind):
    """The seeds whose records of this kind exist, in order."""
    got = []
    for p in glob.glob(path(f'*-s*-{kind}')):
        m = re.match(r'(\w+)-s(\d+)-', os.path.basename(p))
        if m and m.group(1) != 'lenet10':
            got.append(int(m.group(2)))
    return sorted(set(got))


# ---- numbers as text ----

def f(x, d=2):
    return f'{x:,.{d}f}'


def sci(x):
    """1.2·10⁻¹⁵"""
    if x == 0:
        return '0'
    e = math.floor(math.log10(abs(x)))
    m = x / 10 ** e
    sup = str.maketrans('-0123456789', '⁻⁰¹²³⁴⁵⁶⁷⁸⁹')
    return f'{m:.1f}·10{str(e).translate(sup)}'


def mean_sd(v, d=2):
    v = [x for x in v if x is not None]
    if not v:
        return '—'
    if len(v) == 1:
        return f(v[0], d)
    return f'{f(st.mean(v), d)} ± {f(st.stdev(v), d)}'


def rng(v, d=1, unit=''):
    v = [x for x in v if x is not None]
    if not v:
        return '—'
    lo, hi = min(v), max(v)
    return f'{f(lo, d)}{unit}' if f(lo, d) == f(hi, d) else f'{f(lo, d)}–{f(hi, d)}{unit}'


def med_rng(v, d=1):
    if not v:
        return '—'
    return f'{f(st.median(v), d)} ({rng(v, d)})'


def count_word(n):
    return ('no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine',
            'ten')[n] if 0 <= n <= 10 else str(n)


def sign_p(w, l):
    """Exact two-sided sign test: w wins and l losses (ties left out)."""
    n = w + l
    if n == 0:
        return 1.0
    k = min(w, l)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n)


def p_text(p):
    return f'p {p:.2g}' if p >= 0.001 else 'p < 0.001'


def wtl(d):
    """Wins, ties, losses of differences d (first minus second)."""
    w = sum(1 for x in d if x > 0)
    l = sum(1 for x in d if x < 0)
    return w, len(d) - w - l, l


def wtl_text(d):
    w, t, l = wtl(d)
    return f'{w}–{t}–{l} ({p_text(sign_p(w, l))})'


# ---- the records ----

def load_series(name):
    """The 1-minute load samples of a step (FILE.load), and FILE.time's."""
    v = []
    p = path(name + '.load')
    if os.path.exists(p):
        for line in open(p):
            parts = line.split()
            if len(parts) == 2:
                v.append(float(parts[1]))
    t = text(name + '.time')
    if t:
        m = re.match(r'(\d+) s, load ([\d.]+) at the start, ([\d.]+) at the end', t)
        if m:
            v += [float(m.group(2)), float(m.group(3))]
    return v


def wall(name):
    t = text(name + '.time')
    return int(t.split()[0]) if t else None


def training(set_, s):
    """Epoch times, test accuracy and the epoch kept of one training log."""
    t = text(f'{set_}-s{s}-train.txt')
    if not t:
        return None
    cum = [float(x) for x in re.findall(r'^epoch .* ([\d.]+) s$', t, re.M)]
    ep = [b - a for a, b in zip([0.0] + cum, cum)]
    acc = float(re.search(r'^test accuracy: ([\d.]+) %', t, re.M).group(1))
    kept = re.search(r'kept epoch (\d+) of (\d+)', t)
    return {'epochs': ep, 'acc': acc, 'kept': int(kept.group(1)) if kept else len(ep),
            'ran': int(kept.group(2)) if kept else len(ep),
            'load': load_series(f'{set_}-s{s}-train.txt')}


def cond_rec(set_, s):
    return load(f'{set_}-s{s}-cond.json')


def cmp_rec(set_, s, scope):
    sfx = {'all': '', 'zero1': '-zero-l1'}.get(scope, f'-l{scope}')
    return load(f'{set_}-s{s}-compare{sfx}.json')


SEEDS = {k: [s for s in seeds_of('train.txt') if text(f'{k}-s{s}-train.txt')]
         for k, _ in SETS}
ALL_SEEDS = sorted(set(SEEDS['mnist']) | set(SEEDS['fashion']))
# the seeds whose networks were compared (every layer at once, at least)
CSEEDS = {k: [s for s in SEEDS[k] if cmp_rec(k, s, 'all')] for k, _ in SETS}


def seeds_text(v):
    """'seed 1', 'seeds 1, 2' or 'seeds 1 to 8'."""
    v = sorted(v)
    return ('seed ' if len(v) == 1 else 'seeds ') + seeds_list(v)


def seeds_list(v):
    if v and v == list(range(v[0], v[-1] + 1)) and len(v) > 2:
        return f'{v[0]} to {v[-1]}'
    return ', '.join(map(str, v))


def taus_of(set_, scope):
    for s in SEEDS[set_]:
        r = cmp_rec(set_, s, scope)
        if r:
            return [c['tau'] for c in r['comparisons']]
    return []


def row_of(rec, tau):
    for c in rec['comparisons']:
        if c['tau'] == tau:
            return c
    return None


def acc_of(c, stage, crit):
    a = c['accuracy'].get(stage)
    if not a:
        return None
    return a[crit]['mean'] if crit == 'random' else a[crit]


def draws_of(c, stage):
    a = c['accuracy'].get(stage)
    return a['random']['draws'] if a else []


# ---- the document ----

def machine():
    t = text('machine.txt') or ''
    cpu = re.search(r'^cpu: +(.*)$', t, re.M)
    ob = re.search(r'^openblas: +(.*)$', t, re.M)
    k = re.search(r'^kernels: +condnet: (.*?) \(condnet --version\)', t, re.M)
    return (cpu.group(1).strip() if cpu else '?', ob.group(1).strip() if ob else '?',
            k.group(1).strip() if k else '?')


def starts():
    """How often the run was started (machine.txt has a block for each)."""
    t = text('machine.txt') or ''
    n = len(re.findall(r'^== machine$', t, re.M))
    if n < 2:
        return ''
    return (f', in {count_word(n)} starts, each resuming where the one before stopped '
            f'(`machine.txt` gives the load at each)')


def net_costs():
    for set_, _ in SETS:
        for s in SEEDS[set_]:
            r = cmp_rec(set_, s, 'all')
            if r:
                c = r['comparisons'][0]
                return c['cost_before']['parameters'], c['cost_before'][
                    'multiply_adds_per_sample'], r['shape_before']
    return None, None, None


def conv_share(shape):
    """The share of the multiply-adds of each layer, from the shape text
    1x28x28-32@5x5-pool-64@5x5-pool-256-10."""
    parts = shape.split('-')
    c, h, w = map(int, parts[0].split('x'))
    ma = []
    for p in parts[1:]:
        m = re.match(r'(\d+)@(\d+)x(\d+)$', p)
        if m:
            o, k = int(m.group(1)), int(m.group(2))
            h, w = h - k + 1, w - k + 1
            ma.append(o * c * k * k * h * w)
            c = o
        elif p == 'pool':
            h, w = h // 2, w // 2
        else:
            n = int(p)
            ma.append(c * h * w * n)
            c, h, w = n, 1, 1
    return [x / sum(ma) for x in ma]


def numpy_diffs(prefix):
    k, sv = [], []
    for p in sorted(glob.glob(path(f'{prefix}-numpy.txt'))):
        for line in open(p):
            m = re.search(r'relative difference ([\d.e+-]+); largest difference of the '
                          r'singular values over σ₁ ([\d.e+-]+)', line)
            if m:
                k.append(float(m.group(1)))
                sv.append(float(m.group(2)))
    return (max(k), max(sv)) if k else (None, None)


def compared_text():
    """How many networks were trained and how many compared, per data set."""
    return ('Networks trained: ' + ', '.join(
        f'{count_word(len(SEEDS[k]))} on {name} ({seeds_text(SEEDS[k])})'
        for k, name in SETS if SEEDS[k]) + '; compared: ' + ', '.join(
        f'{count_word(len(CSEEDS[k]))} on {name}' +
        (f' ({seeds_text(CSEEDS[k])})' if CSEEDS[k] else '')
        for k, name in SETS) + '.')


def intro():
    say('# Convolutional networks: the paper\'s conditioning on channels', '',
        'The paper says of its method (Section 3): "Our method can be easily generalized to '
        'neural networks with different architectures, such as convolutional and residual '
        'networks." This study takes that sentence literally for convolutional networks: a '
        'channel in the place of a neuron, and every algorithm as it is. It measures what the '
        'three algorithms do to an over-wide convolutional network on MNIST and '
        'Fashion-MNIST, beside the simplest rules that make the same cuts: layer by layer '
        'and all at once, each comparison counted network by network with a paired test, '
        'and says where the claim holds and where it does not. ' + compared_text() + '', '',
        '*Every table and every number below is computed by `bench/cnn-study summary` '
        '(`bench/cnn_study_summary.py`) from the records in `docs/cnn-study/`; `make check` '
        '(`tests/cnn_study.sh`) computes this document again from them and compares.*', '')


def carries_over():
    kd, svd = numpy_diffs('*-s*')
    lk, lsv = numpy_diffs('lenet')
    lt = text('lenet-train.txt') or ''
    lacc = re.search(r'^test accuracy: ([\d.]+) %', lt, re.M)
    nnet = len(glob.glob(path('*-s*-numpy.txt')))
    say('## What carries over, and how exactly', '',
        'A convolution layer with C_in input channels, C_out output channels and K×K kernels '
        'has the stacked matrix Ŵ = [W as (C_in·K·K) × C_out; bᵀ], one column per output '
        'channel, as a dense layer has one per neuron; κ(Ŵ) is its 2-norm condition number '
        'over its min(rows, cols) singular values (a wide Ŵ, more columns than rows, is the '
        'subject of its own section below), p_i the values below σ₁/τ, the pivoted QR of Ŵ '
        'orders the channels. Removing channel j removes its kernel and bias and, in the next '
        'layer, what reads its map: the slices W_next[:, j, :, :] of the next convolution, or '
        'the flatten\'s rows of its map in the first dense layer (a 2×2 max pool keeps '
        'channels one to one, so it passes the removal on). Compensation replaces each '
        'removed channel by one combination of the kept channels and a constant, the same at '
        'every position of the maps, fitted by least squares over every position of the '
        'activation maps of 2,000 training images (rows fed in blocks and compressed by a '
        'pivoted QR), and folds it into the next layer\'s kernels or rows; for a dense layer '
        'this is the same least-squares problem condnet solved before (its solution is linear '
        'in the next layer\'s pre-activations).', '',
        'These hold to rounding, and `make check` checks them (`tests/cond_conv.sh`, '
        '`tests/test_conv_squeeze.c`, `tests/test_cond_wide.c`):', '')
    if kd is not None:
        say(f'- κ and the singular values of every layer are NumPy\'s SVD of the stacked '
            f'matrices built from the `.npy` export. On the {nnet} networks of this study (GSL\'s '
            f'path for the {"×".join(map(str, shapes()[0]))} and '
            f'{"×".join(map(str, shapes()[1]))} matrices of the convolutions, LAPACK\'s for the '
            f'{"×".join(map(str, shapes()[2]))} dense one) the largest relative difference of κ was {sci(kd)} and of a '
            f'singular value (over σ₁) {sci(svd)}' +
            (f'; on LeNet-5 (conv 6@5×5, pool, conv 16@5×5, pool, 120, 84, 10, two epochs: '
             f'{lacc.group(1)} % on MNIST\'s test set) {sci(lk)} and {sci(lsv)}'
             if lk is not None and lacc else '') +
            ' (`cnn-study/*-numpy.txt`). The test in `make check` asks for 10⁻¹⁰ on a fresh '
            'and a trained network, on both paths.')
    say('- A channel that is an exact multiple of another (kernel and bias; relu and the max '
        'pool keep the factor) or constant is removed by the squeeze, and compensation gives '
        'back the network\'s probabilities to 10⁻⁵ (the tolerance of '
        '`tests/test_conv_squeeze.c`), through the next convolution and through the '
        'flatten.')
    onnx = []
    for set_, name in SETS:
        t = text(f'{set_}-onnx.txt')
        m = t and re.search(r'on the (\d+) test images: largest difference from condnet\'s '
                            r'probabilities ([\d.e+-]+); the same class on ([\d.]+) %', t)
        if m:
            onnx.append((name, int(m.group(1)), float(m.group(2)), m.group(3)))
    if onnx:
        say('- A squeezed network saves, loads, exports to ONNX and answers in OpenCV\'s dnn '
            'as in condnet: on the ' + f'{onnx[0][1]:,}' + ' test images the largest '
            'difference of the probabilities was ' +
            ' and '.join(f'{sci(d)} ({n})' for n, _, d, _ in onnx) + ', the same class on ' +
            ' and '.join(f'{c} %' for _, _, _, c in onnx) + ' of the images '
            '(`cnn-study/*-onnx.txt`).')
    say('')


def how_run(params, macs, shape):
    share = conv_share(shape) if shape else None
    say('## How it was run', '', '```sh',
        'cd build && ../bench/cnn-study            # trains, compares, squeezes, times; '
        'resumes where it stopped',
        '../bench/cnn-study summary >../docs/results-cnn.md   # this document, from the records',
        '# the layer-by-layer comparison again on other seeds, tabulated the same way:',
        'SEEDS="11 12 13" STEPS=compare OUT=/tmp/other ../bench/cnn-study mnist fashion',
        'OUT=/tmp/other ../bench/cnn-study summary', '```', '')
    say('- **Data**: `--data mnist --inputs pixels` and `--data fashion --inputs pixels`: '
        'the 1×28×28 images, pixels scaled to 0..1; 60,000 training and 10,000 test images. '
        'Every command that loads a trained network is given `--data mnist` or `--data '
        'fashion` alone: it reads the inputs the model records (its pixels).')
    if params:
        say(f'- **Network** (over-wide for these data): conv 32@5×5, pool, conv 64@5×5, '
            f'pool, 256, 10, relu; {params:,} parameters, {macs / 1e6:.1f} million '
            f'multiply-adds per image, {share[1] * 100:.0f} % of them in the second '
            f'convolution.')
    tr = {k: [training(k, s) for s in SEEDS[k]] for k, _ in SETS}
    say('- **Training**: `condnet train --layers conv:32:5,pool:2,conv:64:5,pool:2,256 --act '
        'relu --epochs 15 --early-stop 3 --seed S --reproducible` (Adam, lr 0.001, batches of '
        '50, 10 % of the training set held out for early stopping, the best validation epoch '
        f'kept; the reproducible mode, so that the same networks come out on any x86-64 CPU '
        f'with AVX2 and FMA), {seeds_text(ALL_SEEDS)}. ' + '; '.join(
            f'{name}: test accuracy {mean_sd([t["acc"] for t in tr[k]])} % '
            f'({rng([t["acc"] for t in tr[k]], 2)}), epochs {rng([t["kept"] for t in tr[k]], 0)} '
            f'kept' for k, name in SETS if tr[k]) + '.')
    taus = taus_of('mnist', 'all')
    wt = taus_of('mnist', 'zero1')
    r0 = cmp_rec('mnist', CSEEDS['mnist'][0], 'all') if CSEEDS['mnist'] else None
    draws = r0['draws'] if r0 else 0
    say('- **Comparison** (' + '; '.join(
        f'{name}: {seeds_text(CSEEDS[k])}' for k, name in SETS if CSEEDS[k]) +
        f'): `condnet squeeze --load NET --compare --tau '
        f'{",".join(format(t, "g") for t in taus)} --draws {draws} --seed 1`, and the same with '
        f'`--only-layers 1`, `2` and `3`: Algorithm 3 (pivoted QR, κ loop) decides at each τ '
        f'how many units every hidden layer squeezed keeps; with those very counts the norm '
        f'rule (the 2-norm of the weights that read a unit: a channel\'s kernel slices in the '
        f'next convolution or its flatten rows) and {draws} seeded random choices squeeze the '
        f'network too, each without and with compensation. With `--only-layers L` only '
        f'hidden layer L is squeezed, the others keep every unit (though a removal in the '
        f'first convolution deletes rows of the second\'s Ŵ). The first convolution alone is '
        f'compared again under `--wide zero` at τ {", ".join(format(t, "g") for t in wt)}.')
    rs = seeds_of('retrain.json')
    rr = load(f'mnist-s{rs[0]}-retrain.json') if rs else None
    if rr:
        say(f'- **Retrained** ({seeds_text(rs)}, at τ '
            f'{" and ".join(format(c["tau"], "g") for c in rr["comparisons"])}): the same with '
            f'`--retrain 1 --retrain-draws {rr["retrain_draws"]}`, one epoch of retraining '
            f'of QR, norm and {rr["retrain_draws"]} random draws.')
    say('- **One squeeze kept** (seed 1): `condnet squeeze --load NET --tau 5 --compensate '
        '--retrain 1 --save …`, then exported to ONNX and run by OpenCV.',
        '- **Algorithm 1** from the over-wide start: `condnet alg1 --layers '
        'conv:32:5,pool:2,conv:64:5,pool:2,256 --act relu --tau 10 --eta 1 --max-iter 8 '
        '--seed 1 --reproducible`, under `--wide paper` and `--wide zero`.',
        '- **Dead units**: the maps of all 10,000 test images through the seed-1 network '
        '(NumPy, from the `.npy` export); a unit is dead when it is zero on every one. The '
        'units a squeeze keeps are matched to the original\'s by their biases.',
        '- **Speed**: `bench/cnn_forward.c` times the forward pass of the seed-1 network and '
        'of its QR squeezes at every τ and the compensated one, interleaved, 20 rounds of 64 '
        'images one at a time and 1,024 in batches of 256, on one OpenBLAS thread; best of '
        'the rounds.')
    ls = sorted(int(re.search(r'-s(\d+)-', p).group(1))
                for p in glob.glob(path('lenet10-s*-train.txt')))
    if ls:
        say(f'- **LeNet-5**: `condnet train --data mnist --inputs pixels --layers '
            f'conv:6:5,pool:2,conv:16:5,pool:2,120,84 --act relu --epochs 10 --seed S '
            f'--reproducible`, {seeds_text(ls)}.')
    say('')
    cpu, ob, ker = machine()
    say(f'**Machine and load**: {cpu}; {ob}; condnet\'s kernels: {ker} (`condnet '
        f'--version`); condnet on 2 threads, every step at low priority (`nice`){starts()}. '
        f'The machine was shared with other builds and tests, so every step records its wall '
        f'time (`docs/cnn-study/*.time`) and the 1-minute load average every 15 seconds while '
        f'it ran (`*.load`), and every time below is given with the load it ran under:', '')
    for k, name in SETS:
        el = [x for s in SEEDS[k] for x in epoch_loads(k, s)]
        if not el:
            continue
        lo = min(el)
        hi = max(el)
        say(f'- an epoch of the over-wide network on {name} (the differences of the training '
            f'log\'s times: the epoch, its test and validation passes): median '
            f'{f(st.median(x[0] for x in el), 1)} s over {len(el)} epochs, from {f(lo[0], 1)} s '
            f'(load {f(lo[1], 1)}) to {f(hi[0], 1)} s (load {f(hi[1], 1)}); the load during the '
            f'{len(SEEDS[k])} trainings {rng([x for s in SEEDS[k] for x in training(k, s)["load"]], 1)};')
    for scope, sc_name in SCOPES:
        sfx = '' if scope == 'all' else f'-l{scope}'
        w = [(wall(os.path.basename(p)), load_series(os.path.basename(p)))
             for p in glob.glob(path(f'*-s*-compare{sfx}.txt'))]
        w = [x for x in w if x[0]]
        if w:
            say(f'- a comparison, {sc_name}, at the {len(taus_of("mnist", scope))} τ: median '
                f'{f(st.median(x[0] for x in w) / 60, 1)} min over {len(w)} networks, '
                f'{rng([x[0] / 60 for x in w], 1)} min, at a load of '
                f'{rng([y for x in w for y in x[1]], 1)};')
    a1 = []
    for k, _ in SETS:
        for sfx in ('', '-zero'):
            a = alg1_parse(k, sfx)
            if a:
                a1 += [(float(x[5]), a['load']) for x in a['iters']]
    if a1:
        say(f'- an iteration of Algorithm 1 (an epoch from fresh weights and its measurements): '
            f'median {f(st.median(x[0] for x in a1), 1)} s over {len(a1)} iterations, '
            f'{rng([x[0] for x in a1], 1)} s, at a load of '
            f'{rng([y for x in a1 for y in x[1]], 1)}.')
    say('', 'Everything the script printed and every JSON record is in `docs/cnn-study/`.', '')


def epoch_loads(k, s):
    """Each epoch of one training: its seconds and the mean of the load
    sampled while it ran (the samples are seconds since the step began)."""
    t = text(f'{k}-s{s}-train.txt')
    p = path(f'{k}-s{s}-train.txt.load')
    if not t or not os.path.exists(p):
        return []
    cum = [float(x) for x in re.findall(r'^epoch .* ([\d.]+) s$', t, re.M)]
    samples = [tuple(map(float, line.split())) for line in open(p) if len(line.split()) == 2]
    out = []
    for a, b in zip([0.0] + cum, cum):
        v = [l for ts, l in samples if a <= ts <= b] or \
            [min(samples, key=lambda x: abs(x[0] - b))[1]] if samples else []
        out.append((b - a, st.mean(v) if v else float('nan')))
    return out


def shapes():
    """The rows and columns of every layer's Ŵ, from the first cond record."""
    for k, _ in SETS:
        for s in SEEDS[k]:
            r = cond_rec(k, s)
            if r:
                return [(l['rows'], l['cols']) for l in r['layers']]
    return [(0, 0)] * 4


def kappa_table():
    sh = shapes()
    say('## Results', '', '### κ of the trained networks', '',
        f'Median (smallest–largest) over the networks of each data set:', '',
        '| data | networks | ' + ' | '.join(
            f'{n}: Ŵ {r}×{c}' for n, (r, c) in zip(UNITS + ('output',), sh)) + ' |',
        '|---|---:|---:|---:|---:|---:|')
    allk2 = []
    for k, name in SETS:
        ks = [[l['kappa'] for l in cond_rec(k, s)['layers']] for s in SEEDS[k]
              if cond_rec(k, s)]
        if not ks:
            continue
        allk2 += [x[1] for x in ks]
        cells = []
        for i in range(4):
            v = [x[i] for x in ks]
            d = 1 if i < 3 else 2
            cells.append(f'{f(st.median(v), d)} ({rng(v, d)})')
        say(f'| {name} | {len(ks)} | ' + ' | '.join(cells) + ' |')
    if not allk2:
        return
    over10 = sum(1 for x in allk2 if x > 10)
    (r1, c1), (r2, c2) = sh[0], sh[1]
    say('', f'The first convolution reads one channel through 5×5 kernels: its Ŵ has {r1} rows '
        f'for {c1} channels, so at most {r1} channels are independent and {c1 - r1} of them '
        f'are, in Ŵ, exact combinations of the others whatever training does (the section on '
        f'wide layers below). The second convolution\'s Ŵ is tall ({r2}×{c2}) and well '
        f'conditioned: its κ '
        f'lies between {f(min(allk2), 1)} and {f(max(allk2), 1)} in the {len(allk2)} networks, '
        + ('so at τ = 10 and above Algorithm 3 never touches the layer that does most of the '
           'work.' if over10 == 0 else
           f'above 10 in {over10} of them.'), '')


def scope_rows(k, scope, stage):
    """Per τ: the networks' comparisons of one scope."""
    rows = []
    for tau in taus_of(k, scope):
        cs = []
        for s in SEEDS[k]:
            r = cmp_rec(k, s, scope)
            c = r and row_of(r, tau)
            if c and stage in c['accuracy']:
                cs.append(c)
        rows.append((tau, cs))
    return rows


def removed_of(c, scope):
    if scope == 'all':
        return c['removed']
    return next(l['n_before'] - l['keep'] for l in c['layers'] if str(l['layer']) == scope)


def compare_tables(k, name, stats):
    for stage, sname in (('squeezed', 'right after the squeeze'),
                         ('compensated', 'squeezed with compensation')):
        say(f'**{name}, {sname}** (before: '
            f'{mean_sd([cond_before(k, s) for s in CSEEDS[k]])} %):', '',
            '| layers squeezed | τ | networks removing | units removed | QR | norm | random | '
            'QR vs norm: W–T–L | QR vs random: W–T–L | draws above QR |',
            '|---|---:|---:|---|---:|---:|---:|---|---|---:|')
        for scope, sc_name in SCOPES:
            for tau, cs in scope_rows(k, scope, stage):
                act = [c for c in cs if c['removed'] > 0]
                if not cs:
                    continue
                if not act:
                    say(f'| {sc_name} | {tau:g} | 0 of {len(cs)} | — | | | | | | |')
                    continue
                qr = [acc_of(c, stage, 'qr') for c in act]
                nm = [acc_of(c, stage, 'norm') for c in act]
                rd = [acc_of(c, stage, 'random') for c in act]
                above = sum(1 for c in act for x in draws_of(c, stage)
                            if x > acc_of(c, stage, 'qr'))
                ndraw = sum(len(draws_of(c, stage)) for c in act)
                rem = [removed_of(c, scope) for c in act]
                if scope == 'all':
                    per = [[l['n_before'] - l['keep'] for l in c['layers']] for c in act]
                    remt = ' / '.join(f(st.mean(x[i] for x in per), 1) for i in range(3))
                else:
                    remt = f'{f(st.mean(rem), 1)} of {act[0]["n"][int(scope)]}'
                dn = [a - b for a, b in zip(qr, nm)]
                dr = [a - b for a, b in zip(qr, rd)]
                stats.append({'set': k, 'scope': scope, 'tau': tau, 'stage': stage,
                              'n': len(act), 'norm': wtl(dn), 'random': wtl(dr),
                              'above': above, 'ndraw': ndraw, 'qr': st.mean(qr),
                              'nm': st.mean(nm), 'rd': st.mean(rd), 'rem': st.mean(rem),
                              'units': sum(act[0]['n'][1:4]) if scope == 'all'
                              else act[0]['n'][int(scope)]})
                say(f'| {sc_name} | {tau:g} | {len(act)} of {len(cs)} | {remt} | '
                    f'{mean_sd(qr)} | {mean_sd(nm)} | {mean_sd(rd)} | {wtl_text(dn)} | '
                    f'{wtl_text(dr)} | {above} of {ndraw} |')
        say('')


def cond_before(k, s):
    r = cmp_rec(k, s, 'all')
    return r['comparisons'][0]['acc_before'] if r else None


def compare_section(stats):
    say('### Algorithm 3 against the norm rule and random choice, layer by layer', '',
        'Test accuracy in percent, mean ± standard deviation over the networks in which '
        'Algorithm 3 removed something at that τ (random: the mean of the draws of each '
        'network, then over the networks). *Units removed*: the mean over those networks '
        '(all at once: conv 1 / conv 2 / dense). Every criterion removes the very counts '
        'Algorithm 3 decided in that network. *W–T–L*: over those networks, how often QR was '
        'above, equal to and below the other rule (random: the mean of its draws), with the '
        'exact two-sided sign test over the networks that differ; *draws above QR*: random '
        'draws better than QR in their network, of all draws. Rows where no network lost a '
        'unit say so. Each p is that row\'s own test: over the many rows below, a few p < '
        '0.05 are expected by chance alone.', '')
    for k, name in SETS:
        if CSEEDS[k]:
            compare_tables(k, name, stats)


def retrain_section():
    rs = seeds_of('retrain.json')
    if not rs:
        return
    say('### Retrained one epoch after the squeeze', '',
        f'Every layer at once, {seeds_text(rs)} (random: the mean of the '
        f'{load("mnist-s%d-retrain.json" % rs[0])["retrain_draws"]} draws retrained in each '
        f'network); mean ± sd over the seeds, and QR against each rule network by network. '
        f'With {count_word(len(rs))} networks no sign test can go below p = '
        f'{sign_p(len(rs), 0):.2g}: too few for a test, the counts are given as they are.',
        '', '| data | τ | removed | before | QR | norm | random | QR comp. | norm comp. | '
        'random comp. | QR vs norm (plain; comp.) | QR vs random (plain; comp.) |',
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|')
    for k, name in SETS:
        recs = [load(f'{k}-s{s}-retrain.json') for s in rs]
        recs = [r for r in recs if r]
        if not recs:
            continue
        for i, c0 in enumerate(recs[0]['comparisons']):
            cs = [r['comparisons'][i] for r in recs]

            def a(stage, crit):
                return [st.mean(c['accuracy'][stage]['random']['draws'][:r['retrain_draws']])
                        if crit == 'random' else c['accuracy'][stage][crit]
                        for c, r in zip(cs, recs)]
            cells = [mean_sd(a(s_, c_)) for s_ in ('retrained', 'compensated_retrained')
                     for c_ in ('qr', 'norm', 'random')]
            vs = []
            for other in ('norm', 'random'):
                parts = []
                for s_ in ('retrained', 'compensated_retrained'):
                    w, t, l = wtl([x - y for x, y in zip(a(s_, 'qr'), a(s_, other))])
                    parts.append(f'{w}–{t}–{l}')
                vs.append('; '.join(parts))
            rem = [c['fraction_removed'] * 100 for c in cs]
            say(f'| {name} | {c0["tau"]:g} | {f(st.mean(rem), 1)} % | '
                f'{mean_sd([c["acc_before"] for c in cs])} | ' + ' | '.join(cells) +
                f' | {vs[0]} | {vs[1]} |')
    say('', '(*removed*: the share of the hidden units, channels and neurons alike.)', '')


def wide_section():
    r1, c1 = shapes()[0]
    say('### Wide layers: what κ and p count, and what the reading changes', '',
        f'The first convolution\'s Ŵ is {r1}×{c1}: whatever the weights, {c1 - r1} of its '
        f'{c1} columns are '
        'combinations of the others. The paper reports finite κ for its own wide layers (its '
        'MNIST networks read 200 coefficients with 300 or 600 neurons, and it gives κ = 4, '
        'p = 0 for such a first layer): κ over the min(rows, cols) singular values. condnet '
        'counts so by default (`--wide paper`), which keeps the paper\'s tables '
        '(`docs/results-mnist.md`, `docs/results-adult.md`) as they are. Under that reading '
        'the two algorithms differ on a wide layer once κ > τ: Algorithm 1 removes p, the '
        f'values below σ₁/τ among the {r1}, and leaves the surplus; Algorithm 3\'s pivoted QR '
        f'has only {r1} diagonal entries, keeps at most {r1} channels and so removes the '
        f'surplus too. `--wide zero` counts the {c1 - r1} missing singular values as zeros: '
        f'κ = ∞, p = {c1 - r1} + the values below σ₁/τ, and both algorithms remove at least '
        f'the {c1 - r1} from every wide layer '
        'at every τ (`tests/test_cond_wide.c` checks both readings on a dense and a '
        'convolution layer). Per data set, means over the networks:', '',
        '| data | τ | κ ≤ τ in | Algorithm 1 removes: p (paper) | p (zero) | Algorithm 3 '
        'removes (paper) | Algorithm 3 removes (zero) | accuracy after (paper) | accuracy '
        'after (zero) |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|')
    for k, name in SETS:
        taus = sorted(set(taus_of(k, 'zero1')) | set(taus_of(k, '1')), reverse=True)
        for tau in taus:
            pp, pz, ap, az, accp, accz, under = [], [], [], [], [], [], 0
            for s in SEEDS[k]:
                cr = cond_rec(k, s)
                if not cr:
                    continue
                l1 = cr['layers'][0]
                sv = l1['sv']
                small = sum(1 for x in sv if x < sv[0] / tau)
                surplus = max(0, l1['cols'] - l1['rows'])
                pp.append(small)
                pz.append(surplus + small)
                over = l1['kappa'] > tau
                under += not over
                z = cmp_rec(k, s, 'zero1')
                zc = z and row_of(z, tau)
                p1 = cmp_rec(k, s, '1')
                pc = p1 and row_of(p1, tau)
                # the readings differ only in the test κ > τ: where the
                # paper's κ is over τ both decide alike
                if not pc and zc:
                    pc = zc if over else None
                    if not over:
                        ap.append(0)
                        accp.append(zc['acc_before'])
                if not zc and pc and over:
                    zc = pc
                if pc:
                    ap.append(removed_of(pc, '1'))
                    accp.append(acc_of(pc, 'squeezed', 'qr'))
                if zc:
                    az.append(removed_of(zc, '1'))
                    accz.append(acc_of(zc, 'squeezed', 'qr'))
            if not pp:
                continue
            nn = len(pp)

            def mm(v, d=1):
                return f(st.mean(v), d) if len(v) == nn else '—'
            say(f'| {name} | {tau:g} | {under} of {nn} | {mm(pp)} | {mm(pz)} | {mm(ap)} | '
                f'{mm(az)} | {mm(accp, 2)} | {mm(accz, 2)} |')
    say('', '(Means over the networks. *κ ≤ τ in*: the networks whose first convolution has '
        'κ within τ under the paper\'s reading, where Algorithm 3 leaves it whole; '
        '*accuracy after*: the test accuracy after Algorithm 3 on the first convolution '
        'alone, without compensation. Where κ > τ the two readings make the same squeeze.)',
        '')
    alg1_section()


def alg1_parse(k, sfx):
    t = text(f'{k}-alg1{sfx}.txt')
    if not t:
        return None
    it = re.findall(r'^iter +(\d+) +Σn +(\d+) +max κ +([\d.inf]+) +test acc +([\d.]+) % '
                    r'+widths ([\d-]+) +([\d.]+) s$', t, re.M)
    status = re.search(r'^status: (.*)$', t, re.M)
    return {'iters': it, 'status': status.group(1) if status else '?',
            'load': load_series(f'{k}-alg1{sfx}.txt')}


def alg1_section():
    say('**Algorithm 1 from the over-wide start** (`--tau 10 --eta 1`, every iteration '
        'trains one epoch from fresh weights), under each reading:', '',
        '| data | reading | iterations | units, start → end (conv 1, conv 2, dense) | conv 1 '
        'per iteration | max κ per iteration | test accuracy, first → last |',
        '|---|---|---:|---|---|---|---|')
    for k, name in SETS:
        for sfx, rd in (('', 'paper'), ('-zero', 'zero')):
            a = alg1_parse(k, sfx)
            if not a or not a['iters']:
                continue
            it = a['iters']
            w0 = it[0][4].split('-')[1:4]
            w1 = it[-1][4].split('-')[1:4]
            c1 = ', '.join(x[4].split('-')[1] for x in it)
            mk = ', '.join('∞' if x[2] == 'inf' else x[2] for x in it)
            say(f'| {name} | {rd} | {len(it) - 1} | {", ".join(w0)} → {", ".join(w1)} | {c1} | '
                f'{mk} | {it[0][3]} → {it[-1][3]} % |')
    say('')


def kept_section():
    say('### One squeeze kept, and what it costs to run', '',
        '`condnet squeeze --tau 5 --compensate --retrain 1` on the seed-1 networks. With '
        'compensation the cascade decides otherwise than without: the fold changes the next '
        'layer\'s weights, so a later layer\'s κ at decision differs, and so does what goes.',
        '', '| data | kept (conv 1, conv 2, dense) | parameters | multiply-adds | test '
        'accuracy: before → squeezed → retrained | without compensation (same τ) |',
        '|---|---|---:|---:|---|---|')
    for k, name in SETS:
        r = load(f'{k}-squeeze.json')
        if not r:
            continue
        kept = ', '.join(str(l['n_after']) for l in r['layers'][:3])
        nb = ', '.join(str(l['n_before']) for l in r['layers'][:3])
        cb, ca = r['cost_before'], r['cost_after']
        o = r['other_network']
        say(f'| {name} | {kept} of {nb} | {ca["parameters"]:,} '
            f'({ca["parameters"] / cb["parameters"]:.3f}) | '
            f'{ca["multiply_adds_per_sample"]:,} '
            f'({ca["multiply_adds_per_sample"] / cb["multiply_adds_per_sample"]:.3f}) | '
            f'{f(r["acc_before_squeeze"])} → {f(r["acc_squeezed"])} → '
            f'{f(r["acc_retrained"])} % | {o["removed"]} removed instead of {r["removed"]}: '
            f'{f(o["acc_squeezed"])} % |')
    say('')
    speed_section()


def speed_parse(k):
    t = text(f'{k}-speed.txt')
    if not t:
        return None, None
    rows = re.findall(r'^(\S+\.model) +(\d+) +(\d+) +([\d.]+) +([\d.]+) +([\d.]+) +([\d.]+) '
                      r'+([\d.]+) +([\d.]+)$', t, re.M)
    ld = re.search(r'^load ([\d.]+) at the start, ([\d.]+) at the end', t, re.M)
    return rows, ld


def speed_section():
    data = {k: speed_parse(k) for k, _ in SETS}
    if not any(v[0] for v in data.values()):
        return
    loads = [float(x) for v in data.values() if v[1] for x in v[1].groups()]
    say('Forward time (µs per image, best of 20 interleaved rounds, one thread; seed 1; '
        f'load {rng(loads, 1)} at the start and end of the runs):', '',
        '| network | ' + ' | '.join(f'{n} batch 1 | batch 256 | multiply-adds; time 1; 256'
                                     for k, n in SETS if data[k][0]) + ' |',
        '|---|' + '---:|---:|---|' * sum(1 for k, _ in SETS if data[k][0]))
    names = []
    for k, _ in SETS:
        for r in data[k][0] or []:
            lab = re.sub(r'^\w+-', '', r[0][:-6])
            if lab not in names:
                names.append(lab)

    def label(x):
        m = re.match(r's\d+$', x)
        if m:
            return 'as trained'
        m = re.match(r'qr-([\d.]+)$', x)
        if m:
            return f'QR at τ {m.group(1)}'
        return 'τ 5, compensated (kept above)' if x == 'squeezed' else x
    for lab in names:
        cells = []
        for k, _ in SETS:
            rows = data[k][0]
            if not rows:
                continue
            base = rows[0]
            r = next((x for x in rows if re.sub(r'^\w+-', '', x[0][:-6]) == lab), None)
            if not r:
                cells.append('| | ')
                continue
            cells.append(f'{f(float(r[3]))} | {f(float(r[5]))} | '
                         f'{int(r[2]) / int(base[2]):.2f}; {float(r[7]):.2f}; '
                         f'{float(r[8]):.2f}')
        say(f'| {label(lab)} | ' + ' | '.join(cells) + ' |')
    say('')


def dead_section():
    say('### Dead units', '', '| data (seed 1) | dead: conv 1, conv 2, dense | dead units QR '
        'keeps at each τ (all layers) | the norm rule at the same counts |', '|---|---|---|---|')
    for k, name in SETS:
        t = text(f'{k}-dead.txt')
        if not t:
            continue
        m = re.search(r'conv 1 (\d+) of (\d+), conv 2 (\d+) of (\d+), dense (\d+) of (\d+)', t)
        qr, nm, taus = [], [], []
        for line in re.findall(r'^tau (\S+): (.*)$', t, re.M):
            taus.append(line[0])
            pairs = re.findall(r'\((\d+) of its \d+ dead; norm (\d+)\)', line[1])
            qr.append(sum(int(a) for a, _ in pairs))
            nm.append(sum(int(b) for _, b in pairs))
        say(f'| {name} | {m.group(1)} of {m.group(2)}, {m.group(3)} of {m.group(4)}, '
            f'{m.group(5)} of {m.group(6)} | ' +
            ', '.join(f'{q} (τ {t_})' for q, t_ in zip(qr, taus)) + ' | ' +
            ', '.join(str(x) for x in nm) + ' |')
    say('', 'A relu unit that never fires on any test image has a column of Ŵ like any '
        'other: its weights are not small, only its pre-activation is always negative; κ '
        'cannot see it.', '')


def lenet_section():
    ls = sorted(glob.glob(path('lenet10-s*-train.txt')),
                key=lambda p: int(re.search(r'-s(\d+)-', p).group(1)))
    if not ls:
        return
    acc, secs, loads = [], [], []
    for p in ls:
        m = re.search(r'^test accuracy: ([\d.]+) %', open(p).read(), re.M)
        acc.append(float(m.group(1)))
        b = os.path.basename(p)
        secs.append(wall(b))
        loads += load_series(b)
    seeds = [int(re.search(r'-s(\d+)-', p).group(1)) for p in ls]
    say('### LeNet-5, ten epochs', '',
        f'conv 6@5×5, pool, conv 16@5×5, pool, 120, 84, 10 (relu) trained ten epochs on '
        f'MNIST\'s pixels from {seeds_text(seeds)}: test accuracy '
        f'{mean_sd(acc)} % (mean ± sd; ' +
        ', '.join(f'{a:.2f}' for a in acc) + f' %; {sum(1 for a in acc if a >= 98.8)} of '
        f'{len(acc)} at 98.8 % or more), each in {rng(secs, 0)} s of wall time, data '
        f'loading included, at a load of {rng(loads, 1)}.', '')


def tally(stats, scope, stage, other):
    """Over the rows of one scope and stage: the network-τ cases QR was above,
    equal to and below the other rule, and the τ where it was ahead or behind
    with p < 0.05 in the sign test over the networks of both data sets."""
    rows = [x for x in stats if x['scope'] == scope and x['stage'] == stage]
    w = sum(x[other][0] for x in rows)
    t = sum(x[other][1] for x in rows)
    l = sum(x[other][2] for x in rows)
    taus = sorted({x['tau'] for x in rows}, reverse=True)
    pooled = []
    for tau in taus:
        at = [x for x in rows if x['tau'] == tau]
        pooled.append((sum(x[other][0] for x in at), sum(x[other][2] for x in at),
                       sum(x['n'] for x in at)))
    sw = sum(1 for a, b, _ in pooled if a > b and sign_p(a, b) < 0.05)
    sl = sum(1 for a, b, _ in pooled if b > a and sign_p(a, b) < 0.05)
    most = max((n for _, _, n in pooled), default=0)
    return {'w': w, 't': t, 'l': l, 'sw': sw, 'sl': sl, 'rows': len(pooled), 'most': most}


def too_few(t):
    """No row of the tally has networks enough for its sign test to reach
    p < 0.05, whatever the outcome."""
    return sign_p(t['most'], 0) >= 0.05


def verdict(t):
    """QR against a rule, from a tally."""
    if t['rows'] == 0:
        return 'nothing removed'
    if too_few(t):
        return 'too few networks'
    if t['sw'] > t['sl'] and t['w'] > t['l']:
        return 'QR ahead'
    if t['sl'] > t['sw'] and t['l'] > t['w']:
        return 'QR behind'
    return 'neither ahead'


def claims(stats):
    say('## Where the claim holds, and where it does not', '')
    say('**It holds as a construction.** With a channel in the place of a neuron, Ŵ, κ, '
        'p_i, the pivoted QR, the removal and its cascade through the next convolution, a '
        'pool or the flatten, compensation, Algorithm 1\'s loop and Algorithm 2\'s scaling '
        'all carry over without a new idea, and exactly (above). condnet runs all three '
        'algorithms on such networks from the command line and on the screen.', '')
    say('**Against the simple rules, layer by layer.** The comparison tables above, summed '
        'over both data sets and every τ at which Algorithm 3 removed something: the '
        'network-τ cases where QR was above, equal to and below the other rule, and of the '
        'τ those where QR was ahead or behind with p < 0.05 in the exact two-sided sign test '
        'over the networks of both data sets at that τ (each network a pair: QR and the '
        'other rule on it). A verdict is *QR ahead* (or *behind*) when it leads (trails) in '
        'more cases and at more τ with p < 0.05 than the other way round, *too few networks* '
        'when no τ has networks enough for its test to reach p < 0.05 whatever they show '
        '(the test needs six that differ, all one way), else *neither ahead*. Sums over τ '
        'count a network once per τ: they show the direction, the tests at each τ the '
        'strength.', '',
        '| layers squeezed | compensation | vs random: above–equal–below | τ ahead; behind | '
        'verdict | vs norm: above–equal–below | τ ahead; behind | verdict |',
        '|---|---|---|---|---|---|---|---|')
    verdicts = {}
    for scope, sc_name in SCOPES:
        for stage, sname in (('squeezed', 'no'), ('compensated', 'yes')):
            r = tally(stats, scope, stage, 'random')
            n = tally(stats, scope, stage, 'norm')
            if r['rows'] == 0:
                continue
            verdicts[(scope, stage)] = (verdict(r), verdict(n))
            say(f'| {sc_name} | {sname} | {r["w"]}–{r["t"]}–{r["l"]} | {r["sw"]}; {r["sl"]} of '
                f'{r["rows"]} | {verdict(r)} | {n["w"]}–{n["t"]}–{n["l"]} | {n["sw"]}; '
                f'{n["sl"]} of {n["rows"]} | {verdict(n)} |')
    say('')

    say(restated(stats, verdicts), '')
    retrain_claim()
    shape_claims(stats)
    wide_claim()
    buys_claim()


def restated(stats, verdicts):
    """The conclusion, from the table of the tallies."""
    def which(i, v):
        out = []
        for s0, sc in SCOPES:
            st_ = [('plain' if stage == 'squeezed' else 'compensated')
                   for stage in ('squeezed', 'compensated')
                   if (s0, stage) in verdicts and verdicts[(s0, stage)][i] == v]
            if st_:
                out.append(f'{sc} ({" and ".join(st_)})')
        return ', '.join(out) if out else 'none'

    def direction(other):
        out = []
        for s0, sc in SCOPES:
            parts = []
            for stage, sn in (('squeezed', 'plain'), ('compensated', 'compensated')):
                t = tally(stats, s0, stage, other)
                if t['rows']:
                    parts.append(f'{t["w"]} of {t["w"] + t["l"]} {sn}')
            if parts:
                out.append(f'{sc} {", ".join(parts)}')
        return '; '.join(out)
    most = max((tally(stats, s0, stage, 'norm')['most'] for s0, _ in SCOPES
                for stage in ('squeezed', 'compensated')), default=0)
    txt = ('So, restated from the table: where QR and the other rule differ, QR was the '
           'better in: against random choice of as many units, ' + direction('random') +
           '; against the norm rule at the same counts, ' + direction('norm') + '. ')
    if most and sign_p(most, 0) >= 0.05:
        return txt + (
            f'With at most {count_word(most)} networks at a τ, no sign test can go '
            f'below p = {sign_p(most, 0):.2g} even if every network goes one way: the seeds '
            f'compared are too few for a test, and these counts give a direction, not a '
            f'result. A case counts one network at one τ, so the sums over τ are not '
            f'independent either.')
    return txt + (
        f'By the tests at each τ, against random choice QR is ahead for '
        f'{which(0, "QR ahead")}; behind for {which(0, "QR behind")}; neither for '
        f'{which(0, "neither ahead")}. Against the norm rule QR is ahead for '
        f'{which(1, "QR ahead")}; behind for {which(1, "QR behind")}; neither for '
        f'{which(1, "neither ahead")}.')


def retrain_claim():
    rs = seeds_of('retrain.json')
    if not rs:
        return
    accs, befores, comps = [], [], {}
    for k, name in SETS:
        for s in rs:
            r = load(f'{k}-s{s}-retrain.json')
            if not r:
                continue
            for c in r['comparisons']:
                for stage in ('retrained', 'compensated_retrained'):
                    a = c['accuracy'][stage]
                    v = [a['qr'], a['norm'],
                         st.mean(a['random']['draws'][:r['retrain_draws']])]
                    comps.setdefault((k, c['tau']), []).append(v)
                befores.append((k, c['acc_before']))
    say('**After one epoch of retraining** the choice matters little: ' + '; '.join(
        f'on {name} at τ {tau:g} every criterion comes back to '
        f'{rng([x for v in comps[(k, tau)] for x in v], 2)} % (before '
        f'{rng([b for kk, b in befores if kk == k], 2)} %)'
        for k, name in SETS for (kk, tau) in sorted(comps, key=lambda x: (x[0], -x[1]))
        if kk == k) + f' ({count_word(len(rs))} seeds: too few for a test).', '')


def scope_mean(stats, k, scope, tau, stage, key):
    for x in stats:
        if (x['set'], x['scope'], x['tau'], x['stage']) == (k, scope, tau, stage):
            return x[key]
    return None


def shape_claims(stats):
    k2 = [cond_rec(k, s)['layers'][1]['kappa'] for k, _ in SETS for s in SEEDS[k]
          if cond_rec(k, s)]
    if not k2:
        return
    per = {}
    for k, _ in SETS:
        for s in SEEDS[k]:
            r = cmp_rec(k, s, 'all')
            for c in (r or {}).get('comparisons', []):
                per.setdefault((k, c['tau']), []).append(
                    [l['n_before'] - l['keep'] for l in c['layers']])
    kept = {k: load(f'{k}-squeeze.json') for k, _ in SETS}
    sh = shapes()
    gone2 = [f'{kept[k]["layers"][1]["n_before"] - kept[k]["layers"][1]["n_after"]} of its '
             f'{sh[1][1]} '
             f'channels on {name} (κ {f(kept[k]["layers"][1]["kappa_before"], 1)} as given, '
             f'{f(kept[k]["layers"][1]["kappa_decision"], 1)} after the first layer\'s fold), back '
             f'to {f(kept[k]["acc_retrained"])} % after an epoch of retraining'
             for k, name in SETS if kept[k]]
    say('**κ of a convolution layer says more about its shape than about its channels.** '
        f'The first convolution\'s Ŵ ({sh[0][0]} rows, {sh[0][1]} columns) cannot have more '
        f'than {sh[0][0]} independent channels, so part of its κ is set by its shape before '
        f'any training; the second convolution\'s tall Ŵ ({sh[1][0]} rows) has κ '
        f'{f(min(k2), 1)}–{f(max(k2), 1)} however its {sh[1][1]} channels are used, so Algorithm 3 leaves it whole at every τ above '
        'that, though it does most of the multiply-adds' +
        ('; the compensated squeeze at τ = 5 removed ' +
         ' and '.join(gone2) if gone2 else '') + '. A linear dependence among the '
        'pre-activations is not a redundancy after relu and a max pool, and a relu unit that '
        'never fires is invisible to κ (the dead units above).', '')
    parts = []
    t25 = [x for (k, tau), v in per.items() if tau == 25 for x in v]
    if t25:
        other = sum(1 for x in t25 if x[1] or x[2])
        parts.append(f'the paper\'s τ of 25 removes {rng([x[0] for x in t25], 0)} first-layer '
                     f'channels and ' + ('nothing else' if other == 0 else
                                         f'something else in {other} of {len(t25)} networks'))
    t5 = [(name, per[(k, 5)]) for k, name in SETS if per.get((k, 5))]
    if t5:
        parts.append('τ = 5 removes on average ' + '; '.join(
            f'{f(st.mean(x[0] for x in v), 1)} of {sh[0][1]}, {f(st.mean(x[1] for x in v), 1)} '
            f'of {sh[1][1]} and {f(st.mean(x[2] for x in v), 1)} of {sh[2][1]} units on {name}'
            for name, v in t5))
    kc = [f'{kept[k]["removed"]} units where the plain one removed '
          f'{kept[k]["other_network"]["removed"]} on {name}' for k, name in SETS if kept[k]]
    if kc:
        parts.append('and with compensation the cascade itself changes, the fold rewriting the '
                     'next layer\'s weights and its κ: the compensated squeeze at τ = 5 '
                     'removed ' + ' and '.join(kc))
    if parts:
        say('**τ does not mean the same for every layer.** One threshold cuts the three '
            'hidden layers very differently: ' + '; '.join(parts) + '.', '')


def gap(k, layer, tau):
    """Over the networks of k: Algorithm 1's p of one layer at τ (the SVD's
    count, as the layer is given) and what Algorithm 3 on that layer alone
    removed."""
    pp, a3 = [], []
    for s in SEEDS[k]:
        cr = cond_rec(k, s)
        r = cmp_rec(k, s, str(layer))
        c = r and row_of(r, tau)
        if cr and c:
            sv = cr['layers'][layer - 1]['sv']
            pp.append(sum(1 for x in sv if x < sv[0] / tau))
            a3.append(removed_of(c, str(layer)))
    return pp, a3


def wide_claim():
    rows = []
    surplus = max(0, shapes()[0][1] - shapes()[0][0])
    for k, name in SETS:
        pp, a3 = gap(k, 1, 10)
        dp, d3 = gap(k, 3, 10)
        if pp:
            rows.append(f'on {name} at τ = 10 Algorithm 1 would remove p = {f(st.mean(pp), 1)} '
                        f'first-layer channels on average (p = {f(st.mean(pp) + surplus, 1)} under '
                        f'`--wide zero`) and Algorithm 3 removed {f(st.mean(a3), 1)}' +
                        (f'; on the tall dense layer p = {f(st.mean(dp), 1)} against '
                         f'{f(st.mean(d3), 1)} removed' if dp else ''))
    a1 = {}
    for k, name in SETS:
        for sfx, rd in (('', 'paper'), ('-zero', 'zero')):
            a = alg1_parse(k, sfx)
            if a and a['iters']:
                a1[(k, rd)] = a['iters']
    ends = [f'{len(a1[(k, "paper")]) - 1} iterations to {a1[(k, "paper")][-1][4].split("-")[1]} '
            f'channels under the paper\'s reading and {len(a1[(k, "zero")]) - 1} to '
            f'{a1[(k, "zero")][-1][4].split("-")[1]} under zero on {name}'
            for k, name in SETS if (k, 'paper') in a1 and (k, 'zero') in a1]
    if not rows:
        return
    say('**Wide layers.** Under the paper\'s reading the two algorithms part on the first '
        f'convolution by its surplus of {surplus} on top of what parts them on any layer, the SVD\'s '
        'count against the QR\'s threshold and its κ loop: ' + '; '.join(rows) + '. Under '
        '`--wide zero` both count the surplus, at every τ, also where the paper\'s κ is within '
        'τ (the wide-layer table gives what that costs before retraining), and what is left '
        'between them is that general difference' +
        ('; from the over-wide start Algorithm 1 took ' + '; '.join(ends) if ends else '') +
        '. The default stays the paper\'s, which reproduces its tables.', '')


def buys_claim():
    parts = []
    for k, name in SETS:
        r = load(f'{k}-squeeze.json')
        rows, _ = speed_parse(k)
        sq = next((x for x in rows or [] if x[0].endswith('squeezed.model')), None)
        if r:
            cb, ca = r['cost_before'], r['cost_after']
            parts.append(
                f'on {name} the compensated squeeze at τ = 5 kept '
                f'{ca["parameters"] / cb["parameters"] * 100:.0f} % of the parameters and '
                f'{ca["multiply_adds_per_sample"] / cb["multiply_adds_per_sample"] * 100:.0f} % '
                f'of the multiply-adds' +
                (f', ran a batch of 256 in {float(sq[8]):.2f} of the time' if sq else '') +
                f', and came back to {f(r["acc_retrained"])} % with one epoch of retraining '
                f'({f(r["acc_before_squeeze"])} % before)')
    if parts:
        txt = '; '.join(parts)
        say('**What it buys.** ' + txt[0].upper() + txt[1:] + '. What the conditioning adds beyond '
            'the choice of units is a rule for how many go, layer by layer.', '')


def not_covered():
    rs = seeds_of('retrain.json')
    rr = load(f'mnist-s{rs[0]}-retrain.json') if rs else None
    r0 = cmp_rec('mnist', CSEEDS['mnist'][0], 'all') if CSEEDS['mnist'] else None
    taus = taus_of('mnist', 'all')
    retr = (f'one epoch of retraining (on {count_word(len(rs))} seeds, at τ '
            f'{" and ".join(format(c["tau"], "g") for c in rr["comparisons"])}, '
            f'{count_word(rr["retrain_draws"])} random draws)' if rr else 'the comparisons not retrained')
    say('## What this study does not cover', '',
        f'{count_word(len(SEEDS["mnist"])).capitalize()} seeds trained and one network shape '
        f'per data set, ' + ' and '.join(f'{count_word(len(CSEEDS[k]))} of them compared on '
                                          f'{name}' for k, name in SETS) +
        ' (the comparisons ran on those alone); ' + (f'τ from {max(taus):g} down to {min(taus):g}; ' if taus else '') +
        f'{retr}; '
        f'{r0["draws"] if r0 else "?"} random draws per τ; no residual network, no stride or '
        f'dilation (condnet has none), no data set beyond the two MNIST sets. Algorithm 2 (β '
        f'scaling of channels and widths together) is implemented and tested but was not part '
        f'of the study.', '')


def main():
    intro()
    carries_over()
    params, macs, shape = net_costs()
    how_run(params, macs, shape)
    kappa_table()
    stats = []
    compare_section(stats)
    retrain_section()
    wide_section()
    kept_section()
    dead_section()
    lenet_section()
    claims(stats)
    not_covered()
    text_ = '\n'.join(out).rstrip('\n') + '\n'
    sys.stdout.write(re.sub(r'\n{3,}', '\n\n', text_))


if __name__ == '__main__':
    main()
