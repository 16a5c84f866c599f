//! Text that others wrote (a player's name or command, a reason quoting
//! what a program printed, a log's fields), made safe to print: every
//! control character escaped, so that a carriage return or a terminal's
//! escape sequence cannot overwrite or fake a line, and shortened with an
//! ellipsis where it would not fit.

/// How many characters of a name a table shows.
pub const NAME: usize = 40;

/// How many characters of a command or a reason a line shows.
pub const LINE: usize = 400;

/// `text` with each control character written as Rust writes it in a
/// string (`\r`, `\n`, `\u{1b}`), and at most `limit` characters of that,
/// then `…` if there was more.
#[must_use]
pub fn printable(text: &str, limit: usize) -> String {
    let mut characters = text.chars().flat_map(|c| {
        let escaped: Vec<char> = if c.is_control() || reorders(c) { c.escape_debug().collect() } else { vec![c] };
        escaped
    });
    let mut shown: String = characters.by_ref().take(limit).collect();
    if characters.next().is_some() {
        shown.push('…');
    }
    shown
}

/// Whether `c` is one of Unicode's bidirectional controls, which reorder
/// the text around them on a terminal or a page (a name ending in U+202E
/// would print the line after it backwards).
const fn reorders(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` as a CSV field on one line: its control characters escaped as
/// [`printable`] does, then quoted, its quotes doubled, when it holds a
/// comma or a quote.
#[must_use]
pub fn csv_field(text: &str) -> String {
    let text = printable(text, usize::MAX);
    if text.contains([',', '"']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// `text` padded with spaces to `width` characters: a width in a format
/// string has a limit (65,535) that a cell has not.
#[must_use]
pub fn padded(text: &str, width: usize) -> String {
    let mut padded = text.to_owned();
    padded.extend(std::iter::repeat_n(' ', width.saturating_sub(text.chars().count())));
    padded
}

/// `text` after spaces to `width` characters.
#[must_use]
pub fn right(text: &str, width: usize) -> String {
    let mut right: String = std::iter::repeat_n(' ', width.saturating_sub(text.chars().count())).collect();
    right.push_str(text);
    right
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_long_text_shortened() {
        assert_eq!(printable("me", NAME), "me");
        assert_eq!(printable("a\rb\nc\u{1b}[2J", NAME), "a\\rb\\nc\\u{1b}[2J");
        assert_eq!(printable("evil\u{202e}txt.exe", NAME), "evil\\u{202e}txt.exe");
        assert_eq!(printable("héllo \"quoted\" \\ kept", NAME), "héllo \"quoted\" \\ kept");
        assert_eq!(printable(&"x".repeat(70_000), 5), "xxxxx…");
        assert_eq!(printable("abcde", 5), "abcde");
        assert_eq!(padded("ab", 4), "ab  ");
        assert_eq!(right("ab", 4), "  ab");
        assert_eq!(padded("y", 65_536 + 10).chars().count(), 65_546, "wider than a format string allows");
    }
}
