"""The llama.cpp build for each CPU: its features from /proc/cpuinfo, the CMake options, the build key."""

from __future__ import annotations

from flowagent.models.local.cpu import LLAMA_CPP_PYTHON_VERSION, CpuBuild, cpu_build

_COMMON_FLAGS = (
    "fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx "
    "pdpe1gb rdtscp lm constant_tsc rep_good nopl cpuid pni pclmulqdq ssse3 cx16 sse4_1 sse4_2 x2apic movbe popcnt "
    "aes xsave rdrand hypervisor lahf_lm abm"
)
XEON_SAPPHIRE_RAPIDS = f"""processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Platinum 8480+
flags\t\t: {_COMMON_FLAGS} fma avx f16c bmi1 avx2 bmi2 erms avx512f avx512dq rdseed adx avx512ifma clflushopt avx512cd \
sha_ni avx512bw avx512vl xsaveopt avx_vnni avx512_bf16 avx512vbmi umip avx512_vbmi2 gfni vaes avx512_vnni \
avx512_bitalg avx512_vpopcntdq amx_bf16 avx512_fp16 amx_tile amx_int8
bogomips\t: 4000.00

processor\t: 1
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Platinum 8480+
flags\t\t: {_COMMON_FLAGS} fma avx f16c avx2 amx_tile
"""
AMD_ZEN3 = f"""processor\t: 0
vendor_id\t: AuthenticAMD
model name\t: AMD EPYC 7763 64-Core Processor
flags\t\t: {_COMMON_FLAGS} fma f16c avx bmi1 avx2 bmi2 sha_ni clzero xsaveerptr vaes vpclmulqdq
"""
AMD_ZEN4 = f"""processor\t: 0
vendor_id\t: AuthenticAMD
model name\t: AMD EPYC 9654 96-Core Processor
flags\t\t: {_COMMON_FLAGS} fma f16c avx bmi1 avx2 bmi2 avx512f avx512dq avx512ifma avx512cd avx512bw avx512vl \
avx512_bf16 avx512vbmi avx512_vbmi2 gfni vaes avx512_vnni avx512_bitalg avx512_vpopcntdq
"""


def _options(build: CpuBuild) -> dict[str, str]:
    pairs = [arg.removeprefix("-D").split("=") for arg in build.cmake_args.split()]
    assert all(len(pair) == 2 for pair in pairs), build.cmake_args
    return dict((name, value) for name, value in pairs)


def test_an_intel_xeon_with_amx_gets_avx512_and_vnni_but_never_amx() -> None:
    build = cpu_build(XEON_SAPPHIRE_RAPIDS)
    options = _options(build)
    assert build.model == "Intel(R) Xeon(R) Platinum 8480+"
    assert options["GGML_NATIVE"] == "OFF"  # a native build would switch AMX on (llama.cpp issue 20824)
    assert {options[o] for o in ("GGML_AMX_TILE", "GGML_AMX_INT8", "GGML_AMX_BF16")} == {"OFF"}
    for on in ("GGML_AVX", "GGML_AVX2", "GGML_FMA", "GGML_F16C", "GGML_BMI2", "GGML_AVX512", "GGML_AVX512_VNNI",
               "GGML_AVX_VNNI", "GGML_AVX512_VBMI", "GGML_AVX512_BF16"):
        assert options[on] == "ON", on
    assert "amx" not in " ".join(build.features)
    assert {"avx512", "avx512_vnni", "avx_vnni"} <= set(build.features)


def test_an_amd_zen3_gets_avx2_only() -> None:
    build = cpu_build(AMD_ZEN3)
    options = _options(build)
    assert build.features == ("avx", "avx2", "fma", "f16c", "bmi2")
    assert [name for name, value in options.items() if value == "ON"] == [
        "GGML_AVX", "GGML_AVX2", "GGML_FMA", "GGML_F16C", "GGML_BMI2",
    ]  # fmt: skip


def test_an_amd_zen4_gets_avx512_vnni_and_bf16() -> None:
    options = _options(cpu_build(AMD_ZEN4))
    for on in ("GGML_AVX2", "GGML_AVX512", "GGML_AVX512_VNNI", "GGML_AVX512_BF16", "GGML_AVX512_VBMI"):
        assert options[on] == "ON", on
    assert options["GGML_AVX_VNNI"] == "OFF"  # Zen 4 has AVX-512 VNNI, not the VEX-encoded AVX-VNNI
    assert {options[o] for o in ("GGML_AMX_TILE", "GGML_AMX_INT8", "GGML_AMX_BF16")} == {"OFF"}


def test_avx512_needs_all_five_foundation_flags() -> None:
    without_bw = AMD_ZEN4.replace(" avx512bw ", " ")
    assert _options(cpu_build(without_bw))["GGML_AVX512"] == "OFF"


def test_different_cpus_get_different_build_keys_and_the_same_cpu_the_same_key() -> None:
    keys = {text: cpu_build(text).key for text in (XEON_SAPPHIRE_RAPIDS, AMD_ZEN3, AMD_ZEN4, "")}
    assert len(set(keys.values())) == 4, keys
    assert cpu_build(AMD_ZEN3).key == keys[AMD_ZEN3]
    # The model name does not matter, only what is built: another Zen 3 part shares the wheel.
    other = AMD_ZEN3.replace("EPYC 7763 64-Core", "Ryzen 9 5950X 16-Core")
    assert cpu_build(other).key == keys[AMD_ZEN3]
    assert keys[AMD_ZEN3].startswith(f"{LLAMA_CPP_PYTHON_VERSION}-")


def test_no_cpuinfo_builds_without_vector_extensions() -> None:
    build = cpu_build("")
    assert (build.model, build.features) == ("unknown CPU", ())
    assert "=ON" not in build.cmake_args
