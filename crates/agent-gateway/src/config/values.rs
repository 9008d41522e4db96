//! Values read from text: durations and host names.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// `path` made absolute with its directory's symbolic links resolved (the file may not exist yet).
pub(super) fn absolute(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?;
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Some(std::fs::canonicalize(parent).ok()?.join(name))
}

/// `--memory-ttl`: `never`, or a whole number of seconds, optionally with `s`, `m`, `h` or `d`.
pub(super) fn ttl(text: &str) -> Result<Option<Duration>, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("never") {
        return Ok(None);
    }
    let (number, unit) = match text.find(|c: char| !c.is_ascii_digit()) {
        Some(at) => text.split_at(at),
        None => (text, "s"),
    };
    let scale = match unit.trim() {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 24 * 3600,
        _ => 0,
    };
    match number.parse::<u64>() {
        Ok(n) if n > 0 && scale > 0 => Ok(Some(Duration::from_secs(n.saturating_mul(scale)))),
        _ => Err(format!("--memory-ttl {text}: give a duration such as 3600, 90m, 12h or 30d, or never")),
    }
}

/// Host-name entries, lowercase without a trailing dot.
pub(super) fn hosts(entries: Vec<String>, flag: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.trim().trim_end_matches('.').to_ascii_lowercase();
        // `[::1]` as written in a URL is the address `::1`.
        let entry = entry.strip_prefix('[').and_then(|e| e.strip_suffix(']')).map_or(entry.clone(), str::to_string);
        if entry.is_empty() {
            continue;
        }
        if entry != "*" && entry.contains(['/', '@', ' ', '*']) {
            return Err(format!("{flag} {entry}: give a host name or an IP address, without scheme or path"));
        }
        out.push(entry);
    }
    Ok(out)
}
