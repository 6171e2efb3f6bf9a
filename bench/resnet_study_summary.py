#!/usr/bin/env python3
"""bench/resnet_study_summary.py - docs/results-resnet.md from the records of
bench/resnet-study (docs/resnet-study/): every table and every number of its
prose is computed here from the records, nothing typed by hand. `bench/resnet-study
summary` runs it; tests/resnet_study.sh runs it on the committed records and
compares with the document.

    resnet_study_summary.py RECORDS_DIR > docs/results-resnet.md

Standard library only. The counting of wins, ties and losses and the exact
two-sided sign test are bench/cnn_study_summary.py's."""
import glob
import json
import os
import re
import statistics as st
import sys

sys.dont_write_bytecode = True  # the source tree may be read-only (make distcheck)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cnn_study_summary import count_word, f, mean_sd, p_text, sign_p, wtl  # noqa: E402

D = sys.argv[1] if len(sys.argv) > 1 else 'docs/resnet-study'
SETS = {'fashion': 'Fashion-MNIST', 'mnist': 'MNIST'}
CRITS = ('qr', 'norm', 'random')
NAME = re.compile(r'^(?P<set>[a-z]+)-(?P<w>w[\d-]+)-s(?P<s>\d+)-(?P<scope>all|g\d+)-t(?P<tau>[\d.]+)'
                  r'-(?P<crit>qr|norm|random)(?P<comp>-comp)?(?P<re>-retrain)?\.json$')
out = []


def say(*lines):
    out.extend(lines)


def text(name):
    p = os.path.join(D, name)
    return open(p).read() if os.path.exists(p) else None


# ---- the records ----

def records():
    """R[(set, w)][seed][(scope, tau, crit, comp, retrained)] = record."""
    R = {}
    for p in sorted(glob.glob(os.path.join(D, '*.json'))):
        m = NAME.match(os.path.basename(p))
        if not m:
            continue
        key = (m['scope'], m['tau'], m['crit'], bool(m['comp']), bool(m['re']))
        R.setdefault((m['set'], m['w']), {}).setdefault(int(m['s']), {})[key] = \
            json.load(open(p))
    for p in glob.glob(os.path.join(D, '*-train.txt')):
        m = re.match(r'^([a-z]+)-(w[\d-]+)-s(\d+)-train\.txt$', os.path.basename(p))
        if m:
            R.setdefault((m[1], m[2]), {}).setdefault(int(m[3]), {})
    return R


R = records()


def fam(k):
    """'Fashion-MNIST, ResNet-8 8-16-32'"""
    return f'{SETS.get(k[0], k[0])}, ResNet-8 {k[1][1:]}'


def prefix(k, s):
    return f'{k[0]}-{k[1]}-s{s}'


def taus(k, scope='all'):
    v = {key[1] for s in R[k] for key in R[k][s] if key[0] == scope}
    return sorted(v, key=float, reverse=True)


def groups_of(k):
    v = {key[0] for s in R[k] for key in R[k][s] if key[0] != 'all'}
    return sorted(v, key=lambda g: int(g[1:]))


def torch_acc(k, s):
    t = text(f'{prefix(k, s)}-train.txt') or ''
    e = re.findall(r'^epoch (\d+): test accuracy ([\d.]+) %', t, re.M)
    return (int(e[-1][0]), float(e[-1][1])) if e else (None, None)


def acc(k, s, scope, tau, crit, comp, retrained=False):
    """The test accuracy of one variant, None where it was not run."""
    r = R[k][s].get((scope, tau, crit, comp, retrained))
    q = qr_rec(k, s, scope, tau)
    if r is None or q is None or removed(q) == 0:
        return None
    return r['test_accuracy'] if retrained else r['test_accuracy_after']


def qr_rec(k, s, scope, tau):
    return R[k][s].get((scope, tau, 'qr', False, False))


def removed(r):
    return sum(g['removed'] for g in r['groups'])


def units(r):
    return sum(g['units'] for g in r['groups'] if 'left_because' not in g)


def diffs(k, scope, tau, comp, other, retrained=False):
    """QR minus the other rule's accuracy, over the seeds where both ran."""
    d = []
    for s in sorted(R[k]):
        a = acc(k, s, scope, tau, 'qr', comp, retrained)
        b = acc(k, s, scope, tau, other, comp, retrained)
        if a is not None and b is not None:
            d.append(a - b)
    return d


def wtl_cell(d):
    if not d:
        return '—'
    w, t, l = wtl(d)
    return f'{w}–{t}–{l} ({p_text(sign_p(w, l))})'


def col(k, scope, tau, crit, comp, retrained=False):
    return [acc(k, s, scope, tau, crit, comp, retrained) for s in sorted(R[k])]


# ---- the machine ----

def machine():
    cpu, kern, runs, loads = set(), set(), [], []
    for p in sorted(glob.glob(os.path.join(D, 'machine-*.txt'))):
        t = open(p).read()
        m = re.search(r'^cpu: +(.*)$', t, re.M)
        if m:
            cpu.add(m[1].strip())
        m = re.search(r'^kernels: +condnet: (.*?) \(condnet --version\)', t, re.M)
        if m:
            kern.add(m[1].strip())
        m = re.search(r'^run: +(.*)$', t, re.M)
        if m:
            runs.append(m[1].strip())
    for p in sorted(glob.glob(os.path.join(D, 'load-*.txt'))):
        for line in open(p):
            v = line.split()
            if len(v) == 4:
                loads.append(float(v[1]))
    return sorted(cpu), sorted(kern), runs, loads


def planned(runs):
    """The networks the runs were asked for: {(set, w): [seeds]}."""
    want = {}
    for r in runs:
        d = re.search(r"DATA='([^']*)'", r)
        s = re.search(r"SEEDS='([^']*)'", r)
        w = re.search(r'WIDTHS=([\d,]+)', r)
        if d and s and w:
            for set_ in d[1].split():
                k = (set_, 'w' + w[1].replace(',', '-'))
                want.setdefault(k, set()).update(int(x) for x in s[1].split())
    return want


# ---- the document ----

def intro(cpu, kern, runs, loads):
    nets = [(k, s) for k in sorted(R) for s in sorted(R[k])]
    say('# A residual network squeezed by conditioning (bench/resnet-study)', '',
        'Written by `bench/resnet-study summary` from the records in `docs/resnet-study/`; '
        'every number below is computed from them. The paper\'s claim tested here: a squeeze '
        'by conditioning (Algorithm 3, the column-pivoted QR of Ŵ) keeps the network\'s '
        'accuracy better than simple rules that remove as many units. On a residual network '
        'a unit is a channel group\'s shared channel (docs/graph-squeeze.md): the QR orders '
        'the columns of each group\'s stacked matrices; the simple rules are the L1 norm of '
        'the filters over the group\'s layers (Li et al., "Pruning Filters for Efficient '
        'ConvNets") and random choice (seeded by the network\'s seed), both at the QR\'s '
        'counts (`--keep-counts` from its record).', '')
    say('**The networks.** The ResNet-8 of `bench/torch_graph.py` (1×28×28 images, a 3×3 '
        'stem and three stages of one basic block each, the second and third striding by 2 '
        'with a 1×1 projection shortcut, global average pooling, a dense layer to 10 '
        'classes), at the stage widths named with each table. PyTorch trained each (batch '
        'norm, Adam at 10⁻³, batches of 128, pixels / 255; `bench/torch_resnet_study.py`) '
        'and exported it to ONNX in evaluation mode, the batch norms folded into the '
        'convolutions; condnet imported the file. PyTorch trains them because a ResNet is '
        'trained with batch normalization in training mode, and the networks to squeeze are '
        'those people train; the export folds each batch norm into its convolution, so '
        'condnet squeezes, and retrains (`condnet train --load … --epochs 1`, Adam at 10⁻³, '
        'batches of 50), the folded convolutions.', '')
    say(f'Networks with records: {len(nets)} (' + '; '.join(
        f'{fam(k)}: {count_word(len(R[k]))}, seed{"s" if len(R[k]) > 1 else ""} '
        f'{", ".join(map(str, sorted(R[k])))}' for k in sorted(R)) + ').', '')
    miss = []
    for k, seeds in sorted(planned(runs).items()):
        lost = sorted(seeds - set(R.get(k, {})))
        if lost:
            miss.append(f'{fam(k)} seed{"s" if len(lost) > 1 else ""} '
                        f'{", ".join(map(str, lost))}')
    for k in sorted(R):
        for s in sorted(R[k]):
            p = prefix(k, s)
            parts = [n for n, fn in (('the inference times', f'{p}-time.txt'),
                                     ('the ONNX and OpenCV check', f'{p}-onnx.json'))
                     if text(fn) is None]
            if not any(key[0] == 'all' for key in R[k][s]):
                parts.insert(0, 'every squeeze')
            if parts:
                miss.append(f'{fam(k)} seed {s}: {", ".join(parts)}')
    if miss:
        say('**Missing** (asked for by a run, no record): ' + '; '.join(miss) + '.', '')
    none = [name for k, name in SETS.items() if not any(x[0] == k for x in R)]
    if none:
        say(f'**Not run:** the records hold no network trained on {" or ".join(none)} '
            f'(`DATA={" ".join(k for k, n in SETS.items() if n in none)}` runs them).', '')
    say('**How it ran.** ' + ' '.join(f'`{r}`.' for r in runs) + ' CPU: ' +
        '; '.join(cpu) + '; OpenBLAS kernels (`condnet --version`): ' + '; '.join(kern) +
        '. The squeezes and the retraining ran on condnet\'s default of 2 threads, the '
        'inference times on 1 (`--threads 1`).' +
        (f' The machine was shared: its 1-minute load, sampled every 30 s through the '
         f'runs, was {f(min(loads), 2)}–{f(max(loads), 2)} (median '
         f'{f(st.median(loads), 2)}) on its 2 cores.' if loads else ''), '')
    say('Torch-Pruning (DepGraph) was not run: it installs from PyPI, and this machine has '
        'no PyPI access.', '')


def networks_table():
    say('## The networks', '',
        '| data, network | seed | PyTorch epochs | PyTorch test accuracy | condnet\'s, of the '
        'import | parameters | multiply-adds a sample |', '|---|---:|---:|---:|---:|---:|---:|')
    for k in sorted(R):
        for s in sorted(R[k]):
            e, a = torch_acc(k, s)
            r = next((v for key, v in sorted(R[k][s].items()) if not key[4]), None)
            say(f'| {fam(k)} | {s} | {e if e else "—"} | {f(a) + " %" if a else "—"} | '
                f'{f(r["test_accuracy_before"]) + " %" if r else "—"} | '
                f'{r["params_before"] if r else "—"} | '
                f'{f(r["madds_before"], 0) if r else "—"} |')
    say('')


def cost_cell(k, scope, tau, key):
    v = [qr_rec(k, s, scope, tau)[key] for s in sorted(R[k]) if qr_rec(k, s, scope, tau)]
    return f(st.mean(v), 0) if v else '—'


def whole_section():
    say('## The whole network at each τ', '',
        'Every group squeezed at once. *Removed*: the channels the QR removed, of the '
        'removable channels of all groups (mean over the networks; the other rules remove '
        'as many from each group). Accuracies on the 10,000 test images, mean ± sd over '
        'the seeds. *QR vs …*: the networks where the QR\'s squeeze was more accurate, '
        'equal, less accurate, and the exact two-sided sign test\'s p over those that '
        'differ. A τ at which the QR removed nothing from a network leaves that network '
        'out of the row (the rules at its counts are the network itself).', '')
    for k in sorted(R):
        say(f'### {fam(k)}', '',
            '| τ | compensated | removed | parameters | multiply-adds | before | QR | norm | '
            'random | QR vs norm | QR vs random |',
            '|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
        for tau in taus(k):
            recs = [qr_rec(k, s, 'all', tau) for s in sorted(R[k]) if qr_rec(k, s, 'all', tau)]
            rem = f'{f(st.mean(removed(r) for r in recs), 1)} of {units(recs[0])}'
            before = mean_sd([r['test_accuracy_before'] for r in recs])
            for comp in (False, True):
                say(f'| {tau} | {"yes" if comp else "no"} | {rem} | '
                    f'{cost_cell(k, "all", tau, "params_after")} | '
                    f'{cost_cell(k, "all", tau, "madds_after")} | {before} | ' +
                    ' | '.join(mean_sd(col(k, 'all', tau, c, comp)) for c in CRITS) + ' | ' +
                    ' | '.join(wtl_cell(diffs(k, 'all', tau, comp, o)) for o in ('norm', 'random'))
                    + ' |')
        say('')


def group_section():
    say('## One group at a time', '',
        'Each group squeezed alone (`--only-groups G`), the others left as they are, at '
        'one τ. *Layers*: condnet\'s numbering of the Conv and Gemm layers (`condnet '
        'cond`); *removed*: the QR\'s count, its range over the networks. A group from which '
        'the QR removed nothing in a network leaves that network out of its rows.', '')
    for k in sorted(R):
        for tau in taus(k, groups_of(k)[0]) if groups_of(k) else []:
            say(f'### {fam(k)}, τ {tau}', '',
                '| group | layers | channels | removed | compensated | QR | norm | random | '
                'QR vs norm | QR vs random |', '|---:|---|---:|---:|---|---:|---:|---:|---:|---:|')
            for g in groups_of(k):
                recs = [qr_rec(k, s, g, tau) for s in sorted(R[k]) if qr_rec(k, s, g, tau)]
                if not recs:
                    continue
                q = int(g[1:])
                info = recs[0]['groups'][q - 1]
                rv = [r['groups'][q - 1]['removed'] for r in recs]
                rem = f'{min(rv)}' if min(rv) == max(rv) else f'{min(rv)}–{max(rv)}'
                if max(rv) == 0:
                    say(f'| {q} | {" ".join(map(str, info["layers"]))} | {info["units"]} | '
                        '0 | — | the network itself | | | | |')
                    continue
                for comp in (False, True):
                    say(f'| {q} | {" ".join(map(str, info["layers"]))} | {info["units"]} | '
                        f'{rem} | {"yes" if comp else "no"} | ' +
                        ' | '.join(mean_sd(col(k, g, tau, c, comp)) for c in CRITS) + ' | ' +
                        ' | '.join(wtl_cell(diffs(k, g, tau, comp, o)) for o in ('norm', 'random'))
                        + ' |')
            say('')


def retrain_section():
    rows = [(k, tau, comp) for k in sorted(R) for tau in taus(k) for comp in (False, True)
            if any(acc(k, s, 'all', tau, 'qr', comp, True) is not None for s in R[k])]
    if not rows:
        return
    say('## Retrained one epoch', '',
        'The whole-network squeezes retrained one epoch by condnet (the variants the '
        'compute budget allowed: those below, at the τ below; the others were not '
        'retrained). Test accuracy after the epoch, mean ± sd.', '',
        '| data, network | τ | compensated | QR | norm | random | QR vs norm | QR vs random |',
        '|---|---:|---|---:|---:|---:|---:|---:|')
    for k, tau, comp in rows:
        say(f'| {fam(k)} | {tau} | {"yes" if comp else "no"} | ' +
            ' | '.join(mean_sd(col(k, 'all', tau, c, comp, True)) for c in CRITS) + ' | ' +
            ' | '.join(wtl_cell(diffs(k, 'all', tau, comp, o, True)) for o in ('norm', 'random'))
            + ' |')
    say('')


def times(k, s):
    """{name: (best seconds, load at the best run)}; '' is the network itself."""
    t = text(f'{prefix(k, s)}-time.txt')
    best = {}
    for line in (t or '').splitlines():
        v = line.split()
        name = '' if len(v) == 3 else v[0]
        sec, load = float(v[-2]), float(v[-1])
        if name not in best or sec < best[name][0]:
            best[name] = (sec, load)
    return best


def speed_section():
    say('## Cost and measured inference time', '',
        'Wall time of `condnet eval --threads 1` on the 10,000 test images (reading the '
        'data set included), the best of the runs, and the 1-minute load at that run: the '
        'network, and its QR squeeze of the whole network at each τ. The multiply-adds are '
        'condnet\'s count for one image.', '',
        '| data, network | seed | squeeze | parameters | multiply-adds | time (s) | load |',
        '|---|---:|---|---:|---:|---:|---:|')
    for k in sorted(R):
        for s in sorted(R[k]):
            b = times(k, s)
            if not b:
                continue
            r0 = next((v for key, v in sorted(R[k][s].items()) if not key[4]), None)
            say(f'| {fam(k)} | {s} | none | {r0["params_before"]} | '
                f'{f(r0["madds_before"], 0)} | {f(b[""][0])} | {f(b[""][1])} |')
            for tau in taus(k):
                r = qr_rec(k, s, 'all', tau)
                name = f'-all-t{tau}-qr'
                if r and name in b:
                    say(f'| {fam(k)} | {s} | QR at τ {tau} | {r["params_after"]} | '
                        f'{f(r["madds_after"], 0)} | {f(b[name][0])} | {f(b[name][1])} |')
    say('')


def onnx_section():
    nets, agree, worst, dp, cv, grp = 0, 0, None, 0.0, set(), 0
    for p in sorted(glob.glob(os.path.join(D, '*-onnx.json'))):
        r = json.load(open(p))
        cv.add(r['opencv'])
        for name, v in r['networks'].items():
            nets += 1
            grp += bool(re.search(r'-g\d+-t', name))
            agree += v['same_class'] == r['n']
            worst = v['same_class'] if worst is None else min(worst, v['same_class'])
            dp = max(dp, v['dprob'])
    if not nets:
        return
    say('## Through ONNX and OpenCV', '',
        f'{nets} squeezed networks (' +
        ('those of the whole network, at every τ and by every rule, and those of one group'
         if grp else 'those of the whole network, at every τ and by every rule; not those '
         'of one group, for time') + ') exported by condnet to ONNX and answered '
        f'by OpenCV {", ".join(sorted(cv))}\'s dnn on the 10,000 test images: {agree} of '
        f'them gave condnet\'s class on every image (the fewest images agreeing in one: '
        f'{worst}); the largest difference of a probability from condnet\'s was {dp:.2g}.', '')


def verdict_rows():
    """(where, other, wins, ties, losses) for every row of the comparisons."""
    v = []
    for k in sorted(R):
        for tau in taus(k):
            for comp in (False, True):
                for o in ('norm', 'random'):
                    v.append((k, f'whole, τ {tau}', comp, o, wtl(diffs(k, 'all', tau, comp, o))))
        for g in groups_of(k):
            for tau in taus(k, g):
                for comp in (False, True):
                    for o in ('norm', 'random'):
                        v.append((k, f'group {g[1:]}, τ {tau}', comp, o,
                                  wtl(diffs(k, g, tau, comp, o))))
    return [x for x in v if sum(x[4])]


def claim_section():
    rows = verdict_rows()
    say('## Where the claim holds, and where it does not', '')
    if not rows:
        say('No comparison has records yet.', '')
        return
    nmax = max(sum(x[4]) for x in rows)
    say(f'With at most {count_word(nmax)} network{"s" if nmax > 1 else ""} a row, the exact '
        f'two-sided sign test cannot go below p {sign_p(nmax, 0):.2g} however the networks fall, so no single '
        'row below is significant at 0.05: the statements are of direction, network by '
        'network, and a rerun on other seeds can overturn any of them.', '')
    for o, oname in (('norm', 'the L1 filter norm'), ('random', 'random choice')):
        for comp in (False, True):
            sub = [x for x in rows if x[3] == o and x[2] == comp]
            ahead = [x for x in sub if x[4][0] > x[4][2]]
            behind = [x for x in sub if x[4][2] > x[4][0]]
            w = sum(x[4][0] for x in sub)
            t = sum(x[4][1] for x in sub)
            l_ = sum(x[4][2] for x in sub)
            where = (lambda xs: '; '.join(f'{fam(x[0])}, {x[1]} ({x[4][0]}–{x[4][1]}–{x[4][2]})'
                                          for x in xs) or 'none')
            say(f'**QR against {oname}, {"with" if comp else "without"} compensation.** Over '
                f'every row (network-and-squeeze cases: {w} QR more accurate, {t} equal, {l_} '
                f'less; pooled sign test {p_text(sign_p(w, l_))}, counting a network once per '
                f'row, so not independent): QR ahead in {len(ahead)} of {len(sub)} rows — '
                f'{where(ahead)}. QR behind in {len(behind)} — {where(behind)}.', '')
    tot_w = sum(x[4][0] for x in rows)
    tot_l = sum(x[4][2] for x in rows)
    say(f'In all, the QR was the more accurate in {tot_w} and the less accurate in {tot_l} '
        f'of the {tot_w + tot_l} cases that differ.', '')
    costly()
    say('**So, plainly.** ' + ' '.join(plain(rows, part) for part in ('whole', 'group')), '')


def cases(n):
    return f'{n} case' if n == 1 else f'{n} cases'


def costly():
    """The groups by the accuracy their squeeze alone costs (the mean over the
    rules and the networks, without compensation), the worst first."""
    v = []
    for k in sorted(R):
        for g in groups_of(k):
            for tau in taus(k, g):
                lost = {c: [] for c in CRITS}
                for s in sorted(R[k]):
                    q = qr_rec(k, s, g, tau)
                    for c in CRITS:
                        a = acc(k, s, g, tau, c, False)
                        if a is not None:
                            lost[c].append(q['test_accuracy_before'] - a)
                by = [st.mean(x) for x in lost.values() if x]
                if by:
                    v.append((st.mean(by), max(by) - min(by), k, g, tau))
    v.sort(reverse=True)
    if not v:
        return
    between = v[0][0] - v[-1][0]
    within = max(x[1] for x in v)
    say('**Which channels matter.** Accuracy lost by a group squeezed alone (the mean over '
        'the networks of each rule\'s loss, then over the three rules; without '
        'compensation): ' +
        '; '.join(f'{fam(k)}, group {g[1:]} at τ {tau}: {f(m)} points (the rules '
        f'{f(d)} apart)' for m, d, k, g, tau in v) + '. ' +
        (f'Which group is squeezed matters more than which rule squeezes it: the groups\' '
         f'losses span {f(between)} points, the rules\' within a group at most {f(within)}.'
         if between > within else
         f'Which rule squeezes matters as much as which group: the rules within a group '
         f'differ by up to {f(within)} points, the groups\' losses span {f(between)}.'), '')


def plain(rows, part):
    """One sentence per kind of squeeze: against which rule the claim holds."""
    said = {'holds': [], 'does not hold': [], 'is undecided': []}
    for o, oname in (('norm', 'the L1 norm'), ('random', 'random choice')):
        for comp in (False, True):
            sub = [x for x in rows if x[3] == o and x[2] == comp and x[1].startswith(part)]
            if not sub:
                continue
            w = sum(x[4][0] for x in sub)
            l_ = sum(x[4][2] for x in sub)
            ra = sum(1 for x in sub if x[4][0] > x[4][2])
            rb = sum(1 for x in sub if x[4][2] > x[4][0])
            v = ('holds' if w > l_ and ra > rb else
                 'does not hold' if l_ > w and rb > ra else 'is undecided')
            said[v].append(f'{oname} {"with" if comp else "without"} compensation '
                           f'({cases(w)} for QR, {l_} against)')
    what = ('the whole network squeezed' if part == 'whole' else
            'one group squeezed alone') + ', counting the networks one way or the other'
    parts = [f'{v} against {", ".join(x)}' for v, x in said.items() if x]
    if not parts:
        return ''
    return f'With {what}, the claim ' + '; it '.join(parts) + '.'


def main():
    cpu, kern, runs, loads = machine()
    intro(cpu, kern, runs, loads)
    networks_table()
    whole_section()
    group_section()
    retrain_section()
    speed_section()
    onnx_section()
    claim_section()
    text_ = '\n'.join(out).rstrip('\n') + '\n'
    sys.stdout.write(re.sub(r'\n{3,}', '\n\n', text_))


if __name__ == '__main__':
    main()
