//! How the report writes numbers for people: times in the unit that suits
//! them, node counts with separators or SI prefixes, three significant
//! digits. (The CSV file keeps plain numbers.)

/// `x` to `digits` significant digits, without trailing zeros.
#[must_use]
pub fn significant(x: f64, digits: i32) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let magnitude = x.abs().log10().floor() as i32;
    let decimals = usize::try_from(digits - 1 - magnitude).unwrap_or(0);
    let text = format!("{x:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}

/// A time in seconds, in s, ms, µs or ns: `12.3 ms`.
#[must_use]
pub fn seconds(seconds: f64) -> String {
    let (scale, unit) = match seconds.abs() {
        s if s >= 1.0 || s == 0.0 => (1.0, "s"),
        s if s >= 1e-3 => (1e3, "ms"),
        s if s >= 1e-6 => (1e6, "µs"),
        _ => (1e9, "ns"),
    };
    format!("{} {unit}", significant(seconds * scale, 3))
}

/// A cost per node, given in seconds, in nanoseconds: `15.6 ns`. Costs per
/// node are tens of nanoseconds, so one unit keeps them comparable.
#[must_use]
pub fn per_node(seconds: f64) -> String {
    format!("{} ns", significant(seconds * 1e9, 3))
}

/// A count with an SI prefix, for axis labels: `1`, `10k`, `2.5M`.
#[must_use]
pub fn count_short(count: f64) -> String {
    let (scale, prefix) = match count.abs() {
        c if c >= 1e9 => (1e-9, "G"),
        c if c >= 1e6 => (1e-6, "M"),
        c if c >= 1e3 => (1e-3, "k"),
        _ => (1.0, ""),
    };
    format!("{}{prefix}", significant(count * scale, 3))
}

/// A count with thousands separators: `1,234,567`.
#[must_use]
pub fn count(count: u64) -> String {
    let digits = count.to_string();
    let mut text = String::with_capacity(digits.len() * 4 / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_people_write_them() {
        let cases: [(String, &str); 14] = [
            (seconds(1.0), "1 s"),
            (seconds(12.345), "12.3 s"),
            (seconds(0.01), "10 ms"),
            (seconds(0.000_123_4), "123 µs"),
            (seconds(1.5e-6), "1.5 µs"),
            (seconds(4.2e-8), "42 ns"),
            (seconds(0.0), "0 s"),
            (significant(0.012_345, 3), "0.0123"),
            (significant(1234.0, 3), "1234"),
            (count_short(1.0), "1"),
            (count_short(10_000.0), "10k"),
            (count_short(2_500_000.0), "2.5M"),
            (count(1_234_567), "1,234,567"),
            (count(999), "999"),
        ];
        for (actual, expected) in cases {
            assert_eq!(actual, expected);
        }
    }
}
