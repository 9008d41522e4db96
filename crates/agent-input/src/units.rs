//! Sizes as a person reads them: bytes in KB and MB (of 1024, as the providers' limits and the
//! playground's file cards count them: Bedrock's "3.75 MB" is 3,932,160 bytes) and pixels.
//!
//! Integer arithmetic only: formatting a float would link `core::fmt`'s float code into the npm
//! package's base module.

const KB: u64 = 1024;
const MB: u64 = 1024 * 1024;
const GB: u64 = 1024 * 1024 * 1024;

/// A byte count: "512 B", "1.5 KB", "3.75 MB", "5.81 MB", "2 GB" — at most two decimals,
/// rounded half up, trailing zeros left out.
pub fn bytes(n: u64) -> String {
    with_decimals(n, 2)
}

/// A size and the limit it is compared with, written so that they differ when the numbers do:
/// more decimals when two decimals would show them equal, the exact counts at last.
///
/// `bytes_against(3_932_161, 3_932_160)` is `("3,932,161 bytes", "3,932,160 bytes")`, where
/// two decimals would say "3.75 MB" twice.
pub fn bytes_against(actual: u64, limit: u64) -> (String, String) {
    for decimals in 2..=3 {
        let (a, l) = (with_decimals(actual, decimals), with_decimals(limit, decimals));
        if a != l || actual == limit {
            return (a, l);
        }
    }
    (exact(actual), exact(limit))
}

/// An image's size: "9000 × 100 px".
pub fn pixels(width: u32, height: u32) -> String {
    format!("{width} \u{d7} {height} px")
}

/// A length in pixels: "8000 px".
pub fn pixel_length(n: u32) -> String {
    format!("{n} px")
}

fn with_decimals(n: u64, decimals: u32) -> String {
    let (unit, name) = match n {
        _ if n < KB => return format!("{n} B"),
        _ if n < MB => (KB, "KB"),
        _ if n < GB => (MB, "MB"),
        _ => (GB, "GB"),
    };
    // In u64 only: u128 division and formatting would add their code to the npm base module.
    let scale = 10u64.pow(decimals);
    let (mut whole, rest) = (n / unit, n % unit);
    let scaled = rest * scale; // rest < 2^30, scale ≤ 1000: no overflow
    let mut fraction = scaled / unit;
    if (scaled % unit) * 2 >= unit {
        fraction += 1;
    }
    if fraction == scale {
        whole += 1;
        fraction = 0;
    }
    if fraction == 0 {
        return format!("{whole} {name}");
    }
    let mut digits = String::with_capacity(decimals as usize);
    let mut place = scale / 10;
    while place > 0 {
        digits.push(char::from(b'0' + u8::try_from(fraction / place % 10).unwrap_or(0)));
        place /= 10;
    }
    format!("{whole}.{} {name}", digits.trim_end_matches('0'))
}

/// "3,932,160 bytes".
fn exact(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 6);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out.push_str(if n == 1 { " byte" } else { " bytes" });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_counts_for_people() {
        let cases: &[(u64, &str)] = &[
            (0, "0 B"),
            (1023, "1023 B"),
            (1024, "1 KB"),
            (1536, "1.5 KB"),
            (10_000, "9.77 KB"),    // 9.765625
            (3_932_160, "3.75 MB"), // Bedrock's image limit
            (4_718_592, "4.5 MB"),  // Bedrock's document limit
            (5 * 1024 * 1024, "5 MB"),
            (6_093_323, "5.81 MB"), // what the playground's file card shows for the same file
            (MB - 1, "1024 KB"),    // 1023.999 KB rounds up, still counted in KB
            (3 * GB / 2, "1.5 GB"),
            (u64::MAX, "17179869184 GB"),
        ];
        for &(n, expected) in cases {
            assert_eq!(bytes(n), expected, "{n}");
        }
    }

    /// The playground's file card (web/src/model/display.rs) writes MB with two decimals of the
    /// same 1024 × 1024 unit; the two agree whenever the card's digits do not end in zero.
    #[test]
    fn agrees_with_the_file_card() {
        for n in (MB..40 * MB).step_by(99_991) {
            let card = {
                let hundredths = (u128::from(n) * 100 * 2 + u128::from(MB)) / (2 * u128::from(MB));
                format!("{}.{:02} MB", hundredths / 100, hundredths % 100)
            };
            if !card.ends_with("0 MB") {
                assert_eq!(bytes(n), card, "{n}");
            }
        }
    }

    #[test]
    fn a_size_over_its_limit_never_reads_as_equal() {
        assert_eq!(bytes_against(6_093_323, 3_932_160), ("5.81 MB".into(), "3.75 MB".into()));
        assert_eq!(bytes_against(3_932_160, 3_932_160), ("3.75 MB".into(), "3.75 MB".into()));
        assert_eq!(bytes_against(3_933_000, 3_932_160), ("3.751 MB".into(), "3.75 MB".into()));
        assert_eq!(bytes_against(3_932_161, 3_932_160), ("3,932,161 bytes".into(), "3,932,160 bytes".into()));
        assert_eq!(bytes_against(1_000, 999), ("1000 B".into(), "999 B".into()));
        for actual in (3_932_161..3_940_000).step_by(7) {
            let (a, l) = bytes_against(actual, 3_932_160);
            assert_ne!(a, l, "{actual}");
        }
    }

    #[test]
    fn pixel_sizes() {
        assert_eq!(pixels(9000, 100), "9000 \u{d7} 100 px");
        assert_eq!(pixel_length(8000), "8000 px");
    }
}
