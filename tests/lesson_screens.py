"""lesson_screens.py LESSON: the screens a lesson shows, in the order the
right arrow shows them, one a line, as lesson.c reads the file:

    KEY<TAB>CAPTION<TAB>DECIMALS<TAB>SHOWS

KEY is what the screen's header says ("3" after three actions, "4p" with
the proposal of the fourth, a squeeze); CAPTION the caption it shows, its
paragraphs joined by a space; DECIMALS the numbers with a decimal point
its claims (#=) state, which the screen must show outside the caption;
SHOWS what its "#shows:" lines name, parted by ";", which the screen must
show outside the caption too (the caption's words for what is on the
view: a chart's line τ, the marks !, ≈ or ×). An empty field is "-"."""
import sys

ACTIONS = ('data', 'opts', 'net', 'load', 'eta', 'tau', 'train', 'alg1-step', 'alg1-run',
           'sweep', 'squeeze', 'sched', 'save', 'undo', 'seed', 'neuron', 'layer', 'inputs')


def main(path):
    kinds, caps, claims, pcaps, pclaims = [], [[]], [[]], [[]], [[]]
    shows, pshows = [[]], [[]]
    prop = False
    for line in open(path, encoding='utf-8'):
        line = line.strip()
        if line.startswith('#:'):
            caps[-1].append(line[2:].strip())
            prop = False
        elif line.startswith('#proposal:'):
            pcaps[-1].append(line[len('#proposal:'):].strip())
            prop = True
        elif line.startswith('#shows:'):
            (pshows if prop else shows)[-1].extend(
                w.strip() for w in line[len('#shows:'):].split(';') if w.strip())
        elif line.startswith('#='):
            (pclaims if prop else claims)[-1].extend(line[2:].split())
        elif line and not line.startswith('#') and line.split()[0] in ACTIONS:
            kinds.append(line.split()[0])
            for lst in (caps, claims, pcaps, pclaims, shows, pshows):
                lst.append([])
            prop = False
    setup = kinds.index('net') + 1 if 'net' in kinds else kinds.index('load') + 1
    while setup < len(kinds) and kinds[setup] in ('tau', 'eta', 'opts') and not caps[setup]:
        setup += 1
    caps[setup] = [c for k in range(setup + 1) for c in caps[k]]
    claims[setup] = [c for k in range(setup + 1) for c in claims[k]]
    shows[setup] = [c for k in range(setup + 1) for c in shows[k]]

    def decimals(cl):
        out = []
        for c in cl:
            for v in c.split('=', 1)[1].split(','):
                if '.' in v and v.replace('.', '').replace('-', '').isdigit():
                    out.append(v)
        return ' '.join(out)

    def field(words):
        return words or '-'

    def shown(pos):  # the caption in force after pos actions, with its claims
        for k in range(pos, setup - 1, -1):
            if caps[k] or claims[k]:
                return ' '.join(caps[k]), field(decimals(claims[k])), field(';'.join(shows[k]))
        return '', '-', '-'

    n = len(kinds)
    for pos in range(setup, n + 1):
        cap, dec, sh = shown(pos)
        print('%d\t%s\t%s\t%s' % (pos - setup, cap, dec, sh))
        if pos < n and kinds[pos] == 'squeeze':
            if pcaps[pos]:
                cap, dec = ' '.join(pcaps[pos]), field(decimals(pclaims[pos]))
                sh = field(';'.join(pshows[pos]))
            print('%dp\t%s\t%s\t%s' % (pos - setup + 1, cap, dec, sh))


main(sys.argv[1])
