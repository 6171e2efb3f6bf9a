"""The BLAS kernels of the peers condnet is measured against: imports each
module named on the command line (numpy, torch), then asks every OpenBLAS
the process has loaded for its version and the kernels it picked
(openblas_get_config, openblas_get_corename), as OPENBLAS_CORETYPE and the
CPU decide. One line per module.

    /usr/bin/python3 bench/peer_kernels.py numpy torch"""
import ctypes
import importlib
import re
import sys


def blas_libraries():
    """The shared objects of BLAS or LAPACK the process has mapped."""
    found = []
    with open("/proc/self/maps") as maps:
        for line in maps:
            m = re.search(r"(/\S*(?:blas|lapack)\S*\.so[.0-9]*)$", line.strip())
            if m and m.group(1) not in found:
                found.append(m.group(1))
    return found


def openblas(path):
    """(config, core) of the OpenBLAS at path, or None when it is another BLAS."""
    try:
        lib = ctypes.CDLL(path)
        lib.openblas_get_config.restype = ctypes.c_char_p
        lib.openblas_get_corename.restype = ctypes.c_char_p
        return (lib.openblas_get_config().decode(), lib.openblas_get_corename().decode())
    except (OSError, AttributeError):
        return None


def main():
    for name in sys.argv[1:]:
        try:
            mod = importlib.import_module(name)
        except ImportError:
            print(f"{name}: not installed")
            continue
        seen = set()
        said = []
        for path in blas_libraries():
            got = openblas(path)
            if got and got not in seen:
                seen.add(got)
                said.append(f"{got[0].split(' NO_')[0]}, {got[1]} kernels")
        extra = ""
        if name == "torch":
            m = re.search(r"CPU capability usage: (\S+)", mod.__config__.show())
            extra = f"; its own vector code: {m.group(1)}" if m else ""
        blas = "; ".join(said) if said else "no OpenBLAS loaded"
        print(f"{name} {mod.__version__}: {blas}{extra}")


main()
