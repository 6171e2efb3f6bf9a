"""screen_check.py SCREEN MODE: what a class reads in the view of a
captured screen (tmux capture-pane; MODE plain or present: where the view
is), checked from outside, as a class would read it:

 - nothing in the view is cut (no text ends in an ellipsis where it was
   cut short, "…" at a row's end or before the scroll marks);
 - every chart's labelled rows say values that fall from the top down,
   and none labels a row beside a threshold line (τ), which holds the
   values between the line and its own;
 - every marker whose value the screen shows elsewhere lies on a row the
   labels allow: above a labelled row it is larger than the label, below
   it smaller (the β sweep's t, v, s and * against its table; view 2's
   widths against its table; view 2's κ against the ! marks of the table,
   above the line τ where a layer is marked, not above it where not).

Prints one line per finding and exits 1 when there is any."""
import re
import sys

NUM = re.compile(r'^-?[0-9]+(\.[0-9]+)?(e-?[0-9]+)?%?$')
LINE = set(' ·┄│─.~|-')
ELLIPSIS = '…'


def value(label):
    if NUM.match(label):
        return float(label.rstrip('%'))
    return None


class Chart:
    """A chart found by its corner └ at (row, col): the axis column, its
    data rows, their labels and the x labels under it."""

    def __init__(self, rows, r, c):
        self.rows, self.bottom, self.axis = rows, r, c
        top = r - 1
        while top - 1 >= 0 and len(rows[top - 1]) > c and rows[top - 1][c] in '┤│≈':
            top -= 1
        self.top = top
        end = c + 1
        while end < len(rows[r]) and rows[r][end] == '─':
            end += 1
        self.right = end  # the data area: columns c + 1 .. end - 1
        self.labels = {}  # row -> text
        for k in range(top, r):
            row = rows[k]
            if row[c] == '┤':
                words = row[:c].split()
                self.labels[k] = words[-1] if words else ''
        self.tau = [k for k, t in self.labels.items() if t in ('τ', 'tau')]

    def numeric(self):
        return sorted((k, value(t)) for k, t in self.labels.items() if value(t) is not None)

    def cell(self, k, x):
        row = self.rows[k]
        return row[x] if x < len(row) else ' '

    def marks_near(self, glyph, x, slack):
        """The rows of glyph in columns x ± slack of the data area, the
        nearest column first."""
        found = []
        for d in range(slack + 1):
            for s in ((0,) if d == 0 else (-1, 1)):
                xx = x + s * d
                if self.axis < xx < self.right:
                    for k in range(self.top, self.bottom):
                        if self.cell(k, xx) == glyph:
                            found.append(k)
            if found:
                return found
        return found

    def xlabels(self):
        """The x labels under the axis: (centre column, text)."""
        out = []
        for k in (self.bottom + 1, self.bottom + 2):
            if k >= len(self.rows):
                break
            row = self.rows[k]
            for m in re.finditer(r'\S+', row):
                if m.start() > self.axis:
                    out.append(((m.start() + m.end() - 1) / 2.0, m.group()))
        return out


def charts(rows, top, bot):
    found = []
    for r in range(top, bot):
        for m in re.finditer('└─', rows[r]):
            found.append(Chart(rows, r, m.start()))
    return found


def check_labels(ch, say):
    nums = ch.numeric()
    for (k1, v1), (k2, v2) in zip(nums, nums[1:]):
        if not v1 > v2:
            say('chart at row %d: the label %g on row %d is not above %g on row %d'
                % (ch.bottom + 1, v1, k1 + 1, v2, k2 + 1))
    for t in ch.tau:
        for k in (t - 1, t + 1):
            if k in ch.labels and value(ch.labels[k]) is not None:
                say('chart at row %d: row %d, beside the line τ, is labelled %s'
                    % (ch.bottom + 1, k + 1, ch.labels[k]))


def check_value(ch, k, v, what, say):
    """A marker of value v on row k against every labelled row."""
    for lk, lv in ch.numeric():
        if lk > k and not v > lv * (1 - 1e-9) - 1e-12:
            say('%s, %g, is drawn above the row labelled %g' % (what, v, lv))
        elif lk < k and not v < lv * (1 + 1e-9) + 1e-12:
            say('%s, %g, is drawn below the row labelled %g' % (what, v, lv))


def sweep_table(rows):
    """The β sweep's table: {β: (ε_tr, ε_v, 2ε_v − ε_tr)}."""
    out = {}
    for row in rows:
        m = re.search(r'(\d+\.\d\d)\s+(\d+\.\d\d)\s+(\d+\.\d\d)\s+(-?\d+\.\d\d)\s+\d+( <)?\s*$',
                      row)
        if m:
            out[float(m.group(1))] = tuple(float(m.group(i)) for i in (2, 3, 4))
    return out


def check_sweep(ch, rows, say):
    table = sweep_table(rows)
    if not table:
        return
    for x, text in ch.xlabels():
        try:
            beta = float(text)
        except ValueError:
            continue
        if beta not in table:
            continue
        for glyph, v in zip('tv', table[beta][:2]):
            for k in ch.marks_near(glyph, int(round(x)), 2)[:1]:
                check_value(ch, k, v, 'β %g: %s' % (beta, glyph), say)
        for glyph in 's*':
            for k in ch.marks_near(glyph, int(round(x)), 2)[:1]:
                check_value(ch, k, table[beta][2], 'β %g: %s' % (beta, glyph), say)


def alg1_table(rows, top, bot):
    """View 2's table: {iteration: {layer: (width, marked)}}."""
    head = None
    out = {}
    for r in range(top, bot):
        row = rows[r]
        if row.startswith('layer') and 'it ' in row:
            head = [(m.start(), int(m.group(1))) for m in re.finditer(r'it (\d+)', row)]
            continue
        m = re.match(r'\s+(\d+)(\s+out|\s+[▲▼]+)?\s', row)
        if head and m and not m.group(2) or (head and m and '▼' in (m.group(2) or '')):
            layer = int(m.group(1))
            for (start, it) in head:
                cell = row[start - 3:start + 6]
                w = re.search(r'(\d+)(!?)', cell)
                if w:
                    out.setdefault(it, {})[layer] = (int(w.group(1)), w.group(2) == '!')
        elif head and not m:
            head = None if not row.strip() or not row.startswith(' ') else head
    return out


def check_alg1(ch, rows, top, bot, say):
    table = alg1_table(rows, top, bot)
    title = rows[ch.top - 1] if ch.top > 0 else ''
    if not table:
        return
    xs = {}
    for x, text in ch.xlabels():
        if text.isdigit():
            xs[int(text)] = int(round(x))
    widths = title.lstrip().startswith('n_i')
    kappa = ch.tau and not widths
    for it, layers in table.items():
        if it not in xs:
            continue
        for layer, (n, marked) in layers.items():
            for k in ch.marks_near(str(layer), xs[it], 3)[:1]:
                if widths:
                    check_value(ch, k, n, 'it %d: layer %d\'s width' % (it, layer), say)
                elif kappa:
                    t = ch.tau[0]
                    if marked and k >= t:
                        say('it %d: layer %d, marked ! (κ > τ), is not drawn above τ'
                            % (it, layer))
                    if not marked and k < t:
                        say('it %d: layer %d, not marked (κ ≤ τ), is drawn above τ'
                            % (it, layer))


def check_cuts(rows, top, bot, say):
    for r in range(top, bot):
        row = rows[r].rstrip()
        for m in re.finditer(ELLIPSIS, row):
            after = row[m.end():]
            before = row[:m.start()]
            # "+ …" and "… (" stand for terms the text leaves out on purpose
            if before.endswith('+ ') or before.endswith('- ') or after.startswith(')') \
                    or after.startswith(' (') or before.endswith('· '):
                continue
            if not after.strip() or re.match(r'\s+[◀▶▲▼]', after) or re.match(r'\s{2,}', after):
                say('row %d is cut: %s' % (r + 1, row.strip()))
                break


def view_rows(rows, present):
    """The rows of the view: after the header (and the tabs), the caption
    and, in presentation mode, the narration; before the narration and
    the rows under it (plain)."""
    k = 1 if present else 3
    for lead in ('▸', '↳'):
        if k < len(rows) and rows[k].startswith(lead):
            k += 1
            while k < len(rows) and rows[k].startswith('  '):
                k += 1
    while k < len(rows) and not rows[k].strip():
        k += 1
    bot = k
    while bot < len(rows) and not (not present and rows[bot].startswith('▸')):
        bot += 1
    return k, bot


def main(path, mode):
    rows = open(path, encoding='utf-8').read().split('\n')
    top, bot = view_rows(rows, mode == 'present')
    bad = []

    def say(text):
        bad.append(text)
    check_cuts(rows, top, bot, say)
    for ch in charts(rows, top, bot):
        check_labels(ch, say)
        check_sweep(ch, rows[ch.top:ch.bottom], say)
        check_alg1(ch, rows, top, bot, say)
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2]))
