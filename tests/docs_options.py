#!/usr/bin/env python3
"""docs_options.py - holds condnet's options to their documentation (run by
tests/docs.sh; prints "ok - ..." and "FAIL - ..." lines, exits 1 on a failure).

Everything is read from the program and the documents, nothing listed here:
the commands from `condnet --help`, each command's options and forms from its
`--help` (an option's entry is a line "  --NAME [VALUE]  text"), and from
man/condnet.1 each command's section (.SS "condnet CMD": its .TP entries and
its line "Common options: ...", which names groups of COMMON OPTIONS, options,
and after "but" the options it does not take), COMMON OPTIONS' groups, the
SYNOPSIS and the EXAMPLES; from README.md its code. It checks that
  - every option a command's --help lists is accepted there: the command with
    the option (and what its form needs) and --dry-run exits 0;
  - every option some command lists is an unknown option for the commands
    that do not list it;
  - the man page documents for each command exactly the options its --help
    lists, and the options of "Every command" are in every --help;
  - the SYNOPSIS holds exactly the forms the commands' --help give;
  - every option README.md and the man page's EXAMPLES name after a command
    is one that command lists.

The options of data/fetch (FETCH), which README describes too, are read
from its --help.

usage: docs_options.py CONDNET MAN README WORKDIR FETCH
"""
import os
import re
import subprocess
import sys

CONDNET, MAN, README, WORK, FETCH = sys.argv[1:6]
failures = 0
os.makedirs(WORK, exist_ok=True)


def ok(what):
    print("ok - " + what)


def fail(what, detail=""):
    global failures
    failures += 1
    print("FAIL - " + what)
    for line in detail.rstrip("\n").split("\n") if detail else []:
        print("  | " + line)


def run(args, stdin=subprocess.DEVNULL):
    p = subprocess.run([CONDNET] + args, cwd=WORK, stdin=stdin, capture_output=True,
                       text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def show(args):
    return "condnet " + " ".join(a if a and " " not in a else repr(a) for a in args)


# ---- the program's side -------------------------------------------------

rc, top, err = run(["--help"])
commands = re.findall(r"^  ([a-z][a-z0-9]*)  +\S", top.split("Commands:", 1)[1], re.M)
if not commands:
    fail("condnet --help lists the commands", top + err)
    sys.exit(1)

ENTRY = re.compile(r"^  (?:-[A-Za-z], )?(--[a-z][a-z0-9-]*)(?: (\S+))?(?:  |$)")
helps, listed, usages = {}, {}, {}
for cmd in commands:
    rc, out, err = run([cmd, "--help"])
    if rc != 0:
        fail(f"condnet {cmd} --help exits 0 (exit {rc})", err)
        continue
    helps[cmd] = out
    opts = {}
    for line in out.split("\n"):
        m = ENTRY.match(line)
        if m:
            opts.setdefault(m.group(1), m.group(2))
    listed[cmd] = opts
    forms = []
    for line in out.split("\n"):
        m = re.match(r"^(?:Usage: |       )(condnet\b.*)$", line)
        if m:
            forms.append(m.group(1).strip())
        elif forms:
            break
    usages[cmd] = forms
    if not forms:
        fail(f"condnet {cmd} --help begins with its Usage: line(s)", out[:400])
universe = sorted({o for opts in listed.values() for o in opts})

# Values for options and the words of a form: by command and option, by
# option, else by what the help calls the value. An option new to the
# program with an unusual value needs a line here; the failure says so.
SAMPLE = {
    "--data": "synthetic", "--inputs": "qr", "--shape": "1x8x8", "--points": "50", "--noise": "0.1", "--data-dir": "data", "--features": "8", "--label-col": "0",
    "--limit": "20", "--val-frac": "0.2", "--val-per-class": "5", "--early-stop": "2",
    "--layers": "8", "--act": "tanh", "--act-scale": "0.5", "--load": "m.model",
    "--seed": "3", "--batch": "10", "--lr": "0.01", "--threads": "1", "--cond-path": "gsl",
    "--wide": "zero", "--only-layers": "1", "--only-groups": "1",
    "--schedule": "cosine", "--warmup": "1", "--save": "out.model", "--json": "out.json",
    "--csv": "out.csv", "--tau": "10", "--eta": "1", "--round": "2", "--max-iter": "2",
    "--beta LIST": "1.0,1.2", "--beta B": "1.2", "--q": "2", "--max-extend": "1",
    "--final-epochs": "1", "--jobs": "1", "--trial": "0", "--plan": "plan.txt",
    "--criterion": "norm", "--keep-counts": "8", "--draws": "2", "--retrain-draws": "1",
    "--plot": "cmp", "--retrain": "1", "--epochs": "1", "--npy": "npydir",
    "--onnx": "m.onnx", "--layout": "torch", "--split": "train", "--input": "in.csv",
    "--npy-out": "npyout", "--report": "report.md", "--stages": "alg1", "--log": "s.log",
    "--play": "algorithm1", "--delay": "1", "sweep --out FILE.json": "t.json",
    "sweep --out FILE": "t.json", "sweep --out DIR": "trials", "paper --out": "paperdir",
    "predict --out": "answers.csv",
}
BY_VALUE = {"N": "2", "K": "2", "E": "1", "R": "2", "P": "2", "S": "1", "T": "10", "B": "10",
            "F": "0.5", "W": "1", "A": "0.5", "FILE": "f.txt", "DIR": "d", "MODEL": "m.model",
            "LOG": "s.log", "LESSON": "algorithm1", "PLAN": "plan.txt", "PREFIX": "p",
            "FILE.json": "t.json", "FILE.json...": "t.json", "LIST": "1.0,1.2"}


def sample(cmd, opt, value):
    for key in (f"{cmd} {opt} {value}", f"{cmd} {opt}", f"{opt} {value}", opt):
        if key in SAMPLE:
            return SAMPLE[key]
    if value in BY_VALUE:
        return BY_VALUE[value]
    if value and "|" in value:
        return value.split("|")[0] if not value.startswith("-|") else value.split("|")[1]
    return None


def form_args(cmd, form):
    """The arguments a form of the Usage needs: its words outside brackets,
    the first of alternatives, a value for each VALUE."""
    words = form.split()[1:]
    if words and words[0] == cmd:
        words = words[1:]
    args, depth, i, skip_alt = [], 0, 0, False
    while i < len(words):
        w = words[i]
        depth += w.count("[") - w.count("]")
        if "[" in w or "]" in w or depth > 0:
            i += 1
            continue
        if w == "|":
            skip_alt = True
            i += 1
            continue
        if w.startswith("--"):
            # the option's value, when its --help entry shows one
            val = words[i + 1] if listed[cmd].get(w) and i + 1 < len(words) else None
            if skip_alt:
                skip_alt = False
                i += 2 if val else 1
                continue
            args.append(w)
            if val:
                args.append(sample(cmd, w, val) or "x")
                i += 1
        elif "|" in w:
            args.append(w.split("|")[0])
        else:
            args.append(sample(cmd, None, w.rstrip(".")) or BY_VALUE.get(w, w.lower()))
        i += 1
    return args


def companions(msg, opt, base):
    """Options the message of a refusal names, with the word after each ("--data
    spiral" gives spiral), but the refused option, those already given (unless
    the message names another value for one), --help and --dry-run."""
    out = []
    for m in re.finditer(r"(--[a-z][a-z0-9-]*)(?: ([a-z][a-z0-9]*))?", msg):
        name, word = m.group(1), m.group(2)
        given = name in base and not (word and base.index(name) + 1 < len(base)
                                      and base[base.index(name) + 1] != word)
        if name in (opt, "--help", "--dry-run") or given or name in [c[0] for c in out]:
            continue
        out.append((name, word))
    return out


def accepted(cmd, opt, value):
    """None when some form of cmd takes opt with --dry-run, else the last refusal."""
    tried = []
    for form in usages.get(cmd) or [f"condnet {cmd}"]:
        base = form_args(cmd, form)
        args = [cmd, "--dry-run"] + base
        if opt not in base:
            args += [opt]
            if value:
                v = sample(cmd, opt, value)
                if v is None:
                    return (f"tests/docs_options.py has no value for {cmd} {opt} {value}: "
                            "add one to SAMPLE")
                args.append(v)
        rc, out, err = run(args)
        if rc == 0:
            return None
        tried.append((args, rc, err))
    # what the message says the option cannot go with: the form without them
    for args, rc, err in tried:
        named = set(re.findall(r"--[a-z][a-z0-9-]*", err)) - {opt, "--help", "--dry-run"}
        if not named & set(args):
            continue
        kept, skip = [], False
        for k, a in enumerate(args):
            if skip:
                skip = False
                continue
            if a in named and k >= 2:
                skip = bool(listed[cmd].get(a))
                continue
            kept.append(a)
        if run(kept)[0] == 0:
            return None
    # what the message says the option goes with
    for args, rc, err in tried:
        for name, word in companions(err, opt, args):
            if name not in listed[cmd]:
                continue
            v = listed[cmd][name]
            for val in ([word, sample(cmd, name, v)] if v else [None]):
                if v and not val:
                    continue
                if name in args and val:
                    k = args.index(name)
                    tried_args = args[:k + 1] + [val] + args[k + 2:]
                else:
                    tried_args = args + [name] + ([val] if val else [])
                if run(tried_args)[0] == 0:
                    return None
    return "\n".join(f"{show(a)}: exit {r}: {e.strip()}" for a, r, e in tried)


for cmd in listed:
    for opt, value in sorted(listed[cmd].items()):
        if opt == "--help":
            continue
        why = accepted(cmd, opt, value)
        if why is None:
            ok(f"condnet {cmd} takes {opt}, which its --help lists")
        else:
            fail(f"condnet {cmd} --help lists {opt}, but the command refuses it: take it, "
                 f"or list it only where it is taken", why)

# the schedules an entry of --schedule names are taken too (plateau needs a
# validation set, which not every command holds out)
KINDS = {"constant": "constant", "step": "step:1", "cosine": "cosine:2", "plateau": "plateau:2"}
for cmd in listed:
    if "--schedule" not in listed[cmd]:
        continue
    entry = re.search(r"^  --schedule .*?(?=^  -|^\S|\Z)", helps[cmd], re.M | re.S).group(0)
    for kind, spec in KINDS.items():
        if not re.search(r"\b%s\b" % kind, entry) or re.search(r"not %s" % kind, entry):
            continue
        SAMPLE[f"{cmd} --schedule"] = spec
        why = accepted(cmd, "--schedule", "SPEC")
        del SAMPLE[f"{cmd} --schedule"]
        if why is None:
            ok(f"condnet {cmd} takes --schedule {spec}, a schedule its --help names")
        else:
            fail(f"condnet {cmd} --help names the schedule {kind}, but the command refuses "
                 "it", why)

for cmd in listed:
    for opt in universe:
        if opt in listed[cmd]:
            continue
        longer = [o for o in listed[cmd] if o.startswith(opt)]
        if longer:
            ok(f"condnet {cmd} reads {opt} as {longer[0]} (getopt's abbreviation)")
            continue
        rc, out, err = run([cmd, "--dry-run", opt])
        if f"unknown option '{opt}'" in err:
            ok(f"condnet {cmd} refuses {opt}, which its --help does not list")
        else:
            fail(f"condnet {cmd} takes {opt} (it is not an unknown option there), but its "
                 f"--help does not list it: list and document it, or refuse it",
                 f"{show([cmd, '--dry-run', opt])}: exit {rc}: {err.strip()}")

# ---- the manual's side --------------------------------------------------


def deroff(text):
    """roff source as plain words: macros' names and font escapes removed."""
    out = []
    for line in text.split("\n"):
        if line.startswith(".\\\""):
            continue
        line = re.sub(r"^\.[A-Za-z]+ ?", "", line)
        line = re.sub(r"\\f[BIRP]|\\&|\\\(..", "", line).replace("\\e", "\\")
        line = line.replace("\\-", "-").replace('"', "")
        out.append(line)
    return "\n".join(out)


man = open(MAN, encoding="utf-8").read()
sections = {}  # .SH name -> text
for m in re.finditer(r'^\.SH "?([^"\n]+)"?\n(.*?)(?=^\.SH |\Z)', man, re.M | re.S):
    sections[m.group(1)] = m.group(2)


def subsections(text):
    return {m.group(1): m.group(2) for m in re.finditer(
        r'^\.SS "?([^"\n]+)"?\n(.*?)(?=^\.SS |\Z)', text, re.M | re.S)}


def tp_options(text):
    """The options the .TP entries of text define (the line after each .TP)."""
    found = set()
    lines = text.split("\n")
    for i, line in enumerate(lines[:-1]):
        if line == ".TP":
            found |= set(re.findall(r"--[a-z][a-z0-9-]*", deroff(lines[i + 1])))
    return found


groups = {name: tp_options(body) for name, body in
          subsections(sections.get("COMMON OPTIONS", "")).items()}
every = groups.get("Every command", set())
if not every:
    fail('man/condnet.1: COMMON OPTIONS has the group "Every command" (--dry-run, --help)')
for cmd in listed:
    for opt in sorted(every):
        if opt in listed[cmd]:
            ok(f"condnet {cmd} --help lists {opt}, which every command takes")
        else:
            fail(f"condnet {cmd} --help does not list {opt}, which COMMON OPTIONS says every "
                 "command takes")

cmd_sections = subsections(sections.get("COMMANDS", ""))


def common_of(cmd, body):
    """The common options a command's section says it takes."""
    text = re.sub(r"\s+", " ", deroff(body))
    m = re.search(r"Common options: (.*?)\.(?: |$)", text)
    if not m:
        return set()
    said = re.sub(r"\([^)]*\)", "", m.group(1))
    take, _, drop = said.partition(" but ")
    got = set()
    for part, add in ((take, True), (drop, False)):
        names = set(re.findall(r"--[a-z][a-z0-9-]*", part))
        for g in groups:
            if g != "Every command" and re.search(r"\b%s\b" % re.escape(g), part):
                names |= groups[g]
        if re.search(r"\ball\b", part):
            names |= set().union(*groups.values())
        got = got | names if add else got - names
    return got


for cmd in listed:
    body = cmd_sections.get(f"condnet {cmd}")
    if body is None:
        fail(f'man/condnet.1 has a section .SS "condnet {cmd}" for the command {cmd}')
        continue
    own = tp_options(body)
    common = common_of(cmd, body)
    doc = (own | common) - every
    lists = set(listed[cmd]) - every
    for opt in sorted(lists - doc):
        fail(f"condnet {cmd} --help lists {opt}, which man/condnet.1 does not document for "
             f'{cmd}: give it a .TP entry in the section "condnet {cmd}", or name it (or its '
             "group) on the section's line \"Common options:\"")
    for opt in sorted(doc - lists):
        where = "a .TP entry of its section" if opt in own else 'its line "Common options:"'
        fail(f"man/condnet.1 documents {opt} for condnet {cmd} ({where}), but condnet {cmd} "
             "--help does not list it")
    if lists == doc:
        ok(f"man/condnet.1 documents for condnet {cmd} exactly the {len(lists)} options its "
           "--help lists")


def flat(s):
    return re.sub(r"\s+", "", s)


synopsis = [flat(deroff(b)) for b in re.split(r"^\.br\n", sections.get("SYNOPSIS", "").split("\n.PP")[0], flags=re.M)]
synopsis = [s for s in synopsis if s and s != "condnet--help|--version"]
forms = [flat(f) for cmd in commands for f in usages.get(cmd, [])]
if synopsis == forms:
    ok(f"the SYNOPSIS holds the {len(forms)} forms of the commands' --help, in order")
else:
    for f in forms:
        if f not in synopsis:
            fail(f"the SYNOPSIS of man/condnet.1 lacks the form {f!r} of --help")
    for s in synopsis:
        if s not in forms:
            fail(f"the SYNOPSIS of man/condnet.1 has the form {s!r}, which no --help gives")
    if sorted(synopsis) == sorted(forms):
        fail("the SYNOPSIS gives the forms in another order than condnet --help's commands")

# ---- what the documents name --------------------------------------------


def names_ok(where, text):
    """Every option named after `condnet CMD` (or after a bare command name
    at the start of a span) in text is one that command lists."""
    words = text.replace("\\\n", " ").split()
    for i, w in enumerate(words):
        if re.fullmatch(r"(\S*/)?condnet", w):
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if nxt in ("--help", "-h", "--version", "-V"):
                continue
            cmd = nxt if nxt in listed else "tui"
            rest = words[i + (2 if cmd == nxt else 1):]
        elif i == 0 and w in listed and len(words) > 1 and words[1].startswith("--"):
            cmd, rest = w, words[1:]
        else:
            continue
        for r in rest:
            if r in (";", "&&", "||", "|", "<", ">", "do", "done", "then") or \
                    re.fullmatch(r"(\S*/)?condnet", r):
                break
            o = re.match(r"(--[a-z][a-z0-9-]*)", r)
            if not o:
                continue
            if o.group(1) in listed[cmd]:
                ok(f"{where}: condnet {cmd} {o.group(1)}")
            else:
                fail(f"{where}: condnet {cmd} has no option {o.group(1)} (its --help does not "
                     "list it)", text.strip()[:300])


readme = open(README, encoding="utf-8").read()
for m in re.finditer(r"^```(\w*)\n(.*?)^```", readme, re.M | re.S):
    line = readme[:m.start()].count("\n") + 1
    block = m.group(2)
    for var, val in re.findall(r'^(\w+)="([^"]*)"$', block, re.M):
        block = block.replace("$" + var, val)
    for k, l in enumerate(block.split("\n")):
        names_ok(f"README.md:{line + 1 + k}", l)
fetch_help = subprocess.run([FETCH, "--help"], capture_output=True, text=True).stdout
fetch_opts = set(re.findall(r"--[a-z][a-z0-9-]*", fetch_help))
if not fetch_opts:
    fail(f"{FETCH} --help names its options", fetch_help)
text_only = re.sub(r"^```.*?^```", "", readme, flags=re.M | re.S)
for m in re.finditer(r"`([^`\n]+)`", text_only):
    span = m.group(1)
    line = readme[:readme.find(m.group(0))].count("\n") + 1
    if span.startswith("--"):
        for o in re.findall(r"^--[a-z][a-z0-9-]*", span):
            if o not in universe and o not in fetch_opts:
                fail(f"README.md:{line}: `{span}`: neither a command nor data/fetch has the "
                     f"option {o}")
    else:
        names_ok(f"README.md:{line}", span)
examples = sections.get("EXAMPLES", "")
for m in re.finditer(r"^\.EX\n(.*?)^\.EE", examples, re.M | re.S):
    block = deroff(m.group(1))
    for var, val in re.findall(r'^(\w+)="([^"]*)"$', block, re.M):
        block = block.replace("$" + var, val)
    for l in block.replace("\\\n", " ").split("\n"):
        names_ok("man/condnet.1 EXAMPLES", l)

sys.exit(1 if failures else 0)
