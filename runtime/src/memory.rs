//! The memory limit of a solve: how much this process holds, how much the machine has, and
//! sizes as people write them (`8G`, `512M`).

/// Bytes this process holds in memory now (its resident set), where the system says.
pub fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Gives the memory the allocator holds free back to the system, so that the resident set
/// ([`resident_bytes`]) measures what is held after a solve forgets its tables (glibc keeps
/// freed pages otherwise, and the set only grows). Elsewhere nothing.
pub fn return_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only releases free memory of the allocator's own arenas.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The machine's memory in bytes, where the system says.
pub fn total_bytes() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The default memory limit of a solve: three quarters of the machine's memory, so that a
/// solve stops with a message before the system's out-of-memory killer ends it.
pub fn default_limit() -> Option<u64> {
    total_bytes().map(|t| t / 4 * 3)
}

/// Parses a size: a number of bytes, or a number with `K`, `M`, `G` or `T` (powers of
/// 1024; a trailing `B` or `iB` is allowed).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let t = ["iB", "ib", "B", "b"]
        .iter()
        .find_map(|unit| t.strip_suffix(unit))
        .unwrap_or(t);
    let (digits, shift) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(format!("`{text}` is not a size (use e.g. 8G, 512M)")),
            };
            (&t[..i], shift)
        }
        _ => (t, 0),
    };
    let n: u64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a size (use e.g. 8G, 512M)"))?;
    n.checked_mul(1 << shift)
        .filter(|&b| b > 0)
        .ok_or_else(|| format!("`{text}` is not a usable size"))
}

/// A size in the units people read (`1.5 GiB`).
pub fn show_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = "bytes";
    for u in UNITS {
        if value < 1024.0 {
            break;
        }
        value /= 1024.0;
        unit = u;
    }
    if unit == "bytes" {
        format!("{bytes} bytes")
    } else {
        format!("{value:.1} {unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_as_written() {
        assert_eq!(parse_size("8G"), Ok(8 << 30));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("512MiB"), Ok(512 << 20));
        assert_eq!(parse_size("100kb"), Ok(100 << 10));
        assert_eq!(parse_size("1000"), Ok(1000));
        for bad in ["", "G", "8X", "-1G", "0", "99999999999T"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert_eq!(show_size(3 << 29), "1.5 GiB");
        assert_eq!(show_size(100), "100 bytes");
    }

    #[test]
    fn this_process_and_machine_have_sizes_on_linux() {
        if cfg!(target_os = "linux") {
            let rss = resident_bytes().expect("statm");
            let total = total_bytes().expect("meminfo");
            assert!(rss > 0 && rss < total);
            assert!(default_limit().expect("limit") < total);
        }
    }
}
