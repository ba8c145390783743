"""What a focuscheck binary's command line offers, for the benchmarks that
run a newer and an older binary side by side."""
import functools
import subprocess


@functools.lru_cache(maxsize=None)
def all_fss(binary, sub):
    """`["--all-fss"]` if the binary's `sub` command has it (a newer binary
    lists only the highest ranked FSSs by default; an older one lists every
    FSS and lacks the option), else `[]`."""
    try:
        proc = subprocess.run([binary, sub, "--help"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return ["--all-fss"] if "--all-fss" in proc.stdout else []
