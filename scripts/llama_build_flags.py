"""The CMake flags scripts/setup.sh builds llama-cpp-python with: the instruction sets this CPU has.

PyPI serves llama-cpp-python only as source, so it is always built on the machine that runs it.
Built for what the CPU has, prompts read faster: AVX-512 took a prompt token from 15.6 to 12.3 ms
on the 2-core development machine (BENCHMARKS.md, session 19). Each set is switched on or off
explicitly, so the build never uses an instruction the CPU lacks (`-march=native` would also do
that, but builds slower and hides what was chosen).

Standard library only: it runs before the virtual environment has anything in it.
Usage: python3 scripts/llama_build_flags.py [CPUINFO]   (prints the CMAKE_ARGS string)
"""
from __future__ import annotations

import platform
import sys
from pathlib import Path

# Used where the CPU cannot be read (not Linux, or not x86): the portable AVX2 build of before.
DEFAULT_ARGS = "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DLLAVA_BUILD=OFF"

# AMX is left out on purpose: the development VM lists amx_tile / amx_int8, but its kernel does not
# grant the tile state, and a build with GGML_AMX_INT8 died with SIGILL at its first `tilezero`
# (BENCHMARKS.md, session 38). A CPU flag is not proof that the instructions may run.
# ggml option → the /proc/cpuinfo flags it needs (ggml/src/ggml-cpu/CMakeLists.txt: GGML_AVX512
# compiles with -mavx512f -mavx512cd -mavx512vl -mavx512dq -mavx512bw).
_OPTIONS = (
    ("GGML_SSE42", ("sse4_2",)),
    ("GGML_AVX", ("avx",)),
    ("GGML_AVX2", ("avx2",)),
    ("GGML_BMI2", ("bmi2",)),
    ("GGML_FMA", ("fma",)),
    ("GGML_F16C", ("f16c",)),
    ("GGML_AVX_VNNI", ("avx_vnni",)),
    ("GGML_AVX512", ("avx512f", "avx512cd", "avx512vl", "avx512dq", "avx512bw")),
    ("GGML_AVX512_VBMI", ("avx512f", "avx512vbmi")),
    ("GGML_AVX512_VNNI", ("avx512f", "avx512_vnni")),
    ("GGML_AVX512_BF16", ("avx512f", "avx512_bf16")),
)


def cpu_flags(cpuinfo: str) -> frozenset[str]:
    """The instruction-set flags of the first processor listed in a /proc/cpuinfo text."""
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return frozenset(value.split())
    return frozenset()


def cmake_args(flags: frozenset[str]) -> str:
    """CMAKE_ARGS for an x86-64 CPU with these flags; the portable default when none are known."""
    if not flags:
        return DEFAULT_ARGS
    chosen = [f"-D{option}={'ON' if all(f in flags for f in needs) else 'OFF'}" for option, needs in _OPTIONS]
    return " ".join(["-DGGML_NATIVE=OFF", *chosen, "-DLLAVA_BUILD=OFF"])


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else Path("/proc/cpuinfo")
    x86 = platform.machine().lower() in ("x86_64", "amd64") or len(argv) > 1
    try:
        text = source.read_text(encoding="utf-8", errors="replace") if x86 else ""
    except OSError:
        text = ""
    print(cmake_args(cpu_flags(text)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
