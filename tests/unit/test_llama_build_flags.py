"""The set-up builds llama.cpp for the instruction sets the CPU has, and never for one it lacks."""
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "llama_build_flags.py"
_spec = importlib.util.spec_from_file_location("llama_build_flags", SCRIPT)
flags_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(flags_module)

# Abridged /proc/cpuinfo texts of three kinds of x86 machine.
AVX512_EPYC = """processor\t: 0
vendor_id\t: AuthenticAMD
flags\t\t: fpu sse sse2 ssse3 fma sse4_1 sse4_2 avx f16c avx2 bmi2 avx512f avx512dq avx512cd avx512bw avx512vl avx512vbmi avx512_vnni avx512_bf16
processor\t: 1
flags\t\t: fpu sse sse2
"""
AVX2_LAPTOP = "processor\t: 0\nflags\t\t: fpu sse sse2 sse4_2 avx f16c fma avx2 bmi2 avx_vnni\n"
OLD_AVX_ONLY = "processor\t: 0\nflags\t\t: fpu sse sse2 sse4_2 avx\n"


def options(args: str) -> dict[str, str]:
    return dict(arg.removeprefix("-D").split("=") for arg in args.split())


def test_an_avx512_cpu_gets_its_avx512_extensions():
    chosen = options(flags_module.cmake_args(flags_module.cpu_flags(AVX512_EPYC)))
    assert chosen["GGML_AVX512"] == chosen["GGML_AVX512_VNNI"] == chosen["GGML_AVX512_BF16"] == "ON"
    assert chosen["GGML_AVX2"] == chosen["GGML_FMA"] == "ON"
    assert chosen["GGML_AVX_VNNI"] == "OFF"  # not in its flags
    assert chosen["GGML_NATIVE"] == "OFF" and chosen["LLAVA_BUILD"] == "OFF"


def test_an_avx2_cpu_gets_no_avx512():
    chosen = options(flags_module.cmake_args(flags_module.cpu_flags(AVX2_LAPTOP)))
    assert chosen["GGML_AVX2"] == "ON" and chosen["GGML_AVX_VNNI"] == "ON"
    assert {chosen[k] for k in chosen if k.startswith("GGML_AVX512")} == {"OFF"}


def test_a_cpu_without_avx2_is_not_built_for_it():
    chosen = options(flags_module.cmake_args(flags_module.cpu_flags(OLD_AVX_ONLY)))
    assert chosen["GGML_AVX"] == "ON"
    assert chosen["GGML_AVX2"] == chosen["GGML_FMA"] == chosen["GGML_F16C"] == chosen["GGML_BMI2"] == "OFF"


@pytest.mark.parametrize("partial", ["avx512f avx512bw", "avx512f avx512cd avx512vl avx512dq"])
def test_avx512_needs_every_subset_ggml_compiles_with(partial):
    chosen = options(flags_module.cmake_args(frozenset(partial.split())))
    assert chosen["GGML_AVX512"] == "OFF"


def test_an_unreadable_cpu_keeps_the_portable_build():
    assert flags_module.cmake_args(flags_module.cpu_flags("")) == flags_module.DEFAULT_ARGS


def test_the_script_prints_the_args_for_a_given_cpuinfo(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(AVX2_LAPTOP, encoding="utf-8")
    printed = subprocess.run([sys.executable, str(SCRIPT), str(cpuinfo)], capture_output=True, text=True, check=True)
    assert options(printed.stdout.strip())["GGML_AVX2"] == "ON"
    assert options(printed.stdout.strip())["GGML_AVX512"] == "OFF"
