//! Option values that clap's own parsers do not check: seconds and sizes.
//! A bad value is a usage error (exit 2) that says what is accepted.

/// The longest `--timeout` accepted: a year, far beyond any useful check,
/// and far inside what a `Duration` holds.
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// `--timeout SECONDS`: a finite number of seconds, more than 0.
pub fn seconds(s: &str) -> Result<std::time::Duration, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds (e.g. 10 or 0.5)"))?;
    if !v.is_finite() || v <= 0.0 || v > MAX_SECONDS {
        return Err(format!(
            "`{s}` is out of range: give a number of seconds more than 0 and at most {MAX_SECONDS} (a year)"
        ));
    }
    Ok(std::time::Duration::from_secs_f64(v))
}

/// The default `--timeout` of `check` and `diff`, per file: a directory
/// with a program whose state space blows up still ends.
pub const DEFAULT_TIMEOUT: &str = "60";

/// A count that must be at least 1 (`--max-states`, `--jobs`, `--fss`).
pub fn count(s: &str) -> Result<usize, String> {
    match s.trim().parse::<u64>() {
        Ok(0) => Err("give a whole number, at least 1".to_string()),
        Ok(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        Err(_) => Err(format!("`{s}` is not a whole number (at least 1)")),
    }
}

/// `--max-memory SIZE`: bytes, with an optional unit `K`, `M`, `G` or `T`
/// (powers of 1024, `B`/`iB` allowed after it), or a percentage of the
/// machine's memory (`50%`).
pub fn memory(s: &str) -> Result<u64, String> {
    let bad = || {
        format!("`{s}` is not a memory size: give bytes with an optional unit (e.g. 512M, 4G) or a percentage of the machine's memory (e.g. 50%)")
    };
    let t = s.trim();
    if let Some(pct) = t.strip_suffix('%') {
        let v: f64 = pct.trim().parse().map_err(|_| bad())?;
        if !v.is_finite() || v <= 0.0 || v > 100.0 {
            return Err(format!(
                "`{s}` is out of range: a percentage more than 0 and at most 100"
            ));
        }
        let total = machine_memory().ok_or_else(|| {
            format!("`{s}`: the machine's memory is unknown (no /proc/meminfo); give a size such as 4G")
        })?;
        return Ok((total as f64 * v / 100.0) as u64);
    }
    let upper = t.to_ascii_uppercase();
    let digits = upper.trim_end_matches("IB").trim_end_matches('B');
    let (num, unit) = match digits.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&digits[..i], c),
        _ => (digits, ' '),
    };
    let shift = match unit {
        ' ' => 0,
        'K' => 10,
        'M' => 20,
        'G' => 30,
        'T' => 40,
        _ => return Err(bad()),
    };
    let v: f64 = num.trim().parse().map_err(|_| bad())?;
    let bytes = v * (1u64 << shift) as f64;
    // At least a megabyte: less cannot even hold the program.
    if !bytes.is_finite() || bytes < (1u64 << 20) as f64 || bytes > u64::MAX as f64 / 2.0 {
        return Err(format!("`{s}` is out of range: give at least 1M"));
    }
    Ok(bytes as u64)
}

/// The machine's memory in bytes (`MemTotal` of /proc/meminfo).
pub fn machine_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The default `--max-memory`: this fraction of the machine's memory.
pub const DEFAULT_MEMORY_FRACTION: f64 = 0.5;

/// The default memory limit, if the machine's memory is known.
pub fn default_memory() -> Option<u64> {
    machine_memory().map(|m| (m as f64 * DEFAULT_MEMORY_FRACTION) as u64)
}

/// The process's resident memory in bytes (`VmRSS` of /proc/self/status).
pub fn resident_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The engine's memory budget: the limit given, or the default.
pub fn memory_budget(given: Option<u64>) -> Option<(u64, crate::analysis::run::ReadMemory)> {
    given
        .or_else(default_memory)
        .map(|limit| (limit, resident_memory as crate::analysis::run::ReadMemory))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_reject_what_is_not_a_duration() {
        for bad in ["nan", "inf", "-inf", "1e20", "-1", "0", "", "ten", "1s"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(seconds("0.5"), Ok(std::time::Duration::from_millis(500)));
        assert_eq!(seconds("10"), Ok(std::time::Duration::from_secs(10)));
    }

    #[test]
    fn memory_sizes_read_units() {
        assert_eq!(memory("512M"), Ok(512 << 20));
        assert_eq!(memory("4G"), Ok(4 << 30));
        assert_eq!(memory("4GiB"), Ok(4 << 30));
        assert_eq!(memory("1.5g"), Ok(3 << 29));
        assert_eq!(memory("2097152"), Ok(2 << 20));
        for bad in ["", "G", "nan", "infG", "-1G", "0", "12X", "1e30T", "0%", "101%", "10K"] {
            assert!(memory(bad).is_err(), "{bad}");
        }
    }
}
