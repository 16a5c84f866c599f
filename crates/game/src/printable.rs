//! Text that others wrote (a player's name or command, a reason quoting
//! what a program printed, a log's fields), made safe to print: every
//! control character escaped, so that a carriage return or a terminal's
//! escape sequence cannot overwrite or fake a line, and shortened with an
//! ellipsis where it would not fit. The same text in a CSV cell cannot be
//! read as a spreadsheet's formula, and in a chart's SVG holds no character
//! XML forbids. A name in a file's name is cut to a length every file
//! system takes.

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
        let escaped: Vec<char> =
            if c.is_control() || reorders(c) || no_character(c) { c.escape_debug().collect() } else { vec![c] };
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

/// Whether `c` is one of the two code points that are no character, which
/// XML forbids even escaped: an SVG holding one does not open.
const fn no_character(c: char) -> bool {
    matches!(c, '\u{FFFE}' | '\u{FFFF}')
}

/// `text` (a name, a reason, a command: never a number) as a CSV field on
/// one line: its control characters escaped as [`printable`] does; a `'`
/// before it when it starts as a spreadsheet's formula would (`=`, `+`,
/// `-`, `@`, as OWASP advises against CSV injection: a name `=HYPERLINK(..)`
/// must not run in the instructor's spreadsheet); then quoted, its quotes
/// doubled, when it holds a comma or a quote. A number is written as it is,
/// not through this: `+38` and `-49.5` must stay numbers.
#[must_use]
pub fn csv_field(text: &str) -> String {
    let mut text = printable(text, usize::MAX);
    // Tab and carriage return are on OWASP's list too; escaped above, they
    // never start the text.
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        text.insert(0, '\'');
    }
    if text.contains([',', '"']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text }
}

/// How many bytes of a name a file's name derived from it holds at most: a
/// game's folder joins an opening and two names, and must stay well under
/// the 255 bytes a file system allows a file's name (143 on an encrypted
/// home folder), whatever the names given.
pub const FILE_NAME: usize = 60;

/// How many bytes of a long name [`file_name`] keeps before its hash.
const KEPT: usize = 40;

/// `name` (letters, digits, `-`, `_` and `.`, as players are named) as
/// part of a file's name: as it is when it has at most [`FILE_NAME`] bytes,
/// so that the names of every folder written so far stay; else its first
/// 40 bytes, `~` and 16 hexadecimal digits of a hash of the whole, so that
/// two long names that begin alike still differ, and the same name always
/// gives the same file name. No player's name holds `~`, so a cut name is
/// never another player's.
#[must_use]
pub fn file_name(name: &str) -> String {
    if name.len() <= FILE_NAME {
        return name.to_owned();
    }
    let mut end = KEPT;
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}~{:016x}", &name[..end], fnv1a(name.as_bytes()))
}

/// The 64-bit FNV-1a hash of `bytes`: fixed by its definition, so the same
/// on every machine and in every version of the program (a tournament
/// resumed elsewhere writes where it wrote).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
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
        assert_eq!(printable("no\u{fffe}char\u{ffff}", NAME), "no\\u{fffe}char\\u{ffff}", "XML forbids them");
    }

    #[test]
    fn a_csv_text_field_is_never_a_formula_and_stays_one_field_on_one_line() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a, b"), "\"a, b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\nlines"), "two\\nlines");
        for formula in ["=1+2", "+1", "-2", "@SUM(A1)", "=HYPERLINK(\"http://x\")"] {
            let field = csv_field(formula);
            assert!(field.starts_with('\'') || field.starts_with("\"'"), "{formula} gave {field}");
        }
        assert_eq!(csv_field("=1+2"), "'=1+2");
        assert_eq!(csv_field("=A1,B1"), "\"'=A1,B1\"");
        assert_eq!(csv_field("\t=1"), "\\t=1", "a tab is escaped, so nothing follows it as a formula");
        assert_eq!(csv_field("me-2"), "me-2", "only the first character counts");
    }

    #[test]
    fn a_long_name_is_cut_for_a_file_and_keeps_apart_from_its_kin() {
        assert_eq!(file_name("me"), "me");
        let sixty = "x".repeat(FILE_NAME);
        assert_eq!(file_name(&sixty), sixty, "names that fit keep their files");
        let (long, longer) = ("L".repeat(200), format!("{}2", "L".repeat(200)));
        let (cut, other) = (file_name(&long), file_name(&longer));
        assert!(cut.starts_with(&"L".repeat(KEPT)) && cut.len() == KEPT + 17, "{cut}");
        assert_ne!(cut, other, "a shared beginning is not the same name");
        assert_eq!(file_name(&long), cut, "the same name, the same file");
        assert_eq!(file_name(&"é".repeat(100)).len(), 40 + 17, "cut between characters");
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c, "FNV-1a's published value");
    }
}
