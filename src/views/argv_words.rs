//! `main`'s arguments as words (`interp/argv.rs` reads them off a run's
//! inputs): they read `argc = 2, argv = {"a", "aaaaaaaa"}` and replay as
//! `focuscheck run FILE -- a aaaaaaaa`.

pub use crate::interp::argv::Argv;
use crate::ir::Program;

/// When some of the inputs `names` a run reads are `main`'s arguments:
/// that it reads them, and `why` that stops what is being written.
pub fn reads_arguments(p: &Program, names: &[&str], why: &str) -> Option<String> {
    let a = Argv::of(p)?;
    names
        .iter()
        .any(|n| a.is_argument(n))
        .then(|| format!("the run reads `main`'s arguments (`{}`, `argv`), {why}", a.argc))
}

/// `argc = 2, argv = {"a", "aaaaaaaa"}`: the arguments as C writes them.
pub fn describe(words: &[Vec<u8>]) -> String {
    let strings: Vec<String> = words.iter().map(|w| c_string(w)).collect();
    format!("argc = {}, argv = {{{}}}", words.len(), strings.join(", "))
}

/// A string literal as C writes it: a quote, backslash or a char outside
/// printable ASCII escaped (`"\x01"`, `"\n"`).
pub fn c_string(word: &[u8]) -> String {
    let mut s = String::from("\"");
    for (k, &b) in word.iter().enumerate() {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            0x20..=0x7e => {
                // A hex escape runs on through hex digits: close the
                // literal and open another.
                if k > 0 && !(0x20..=0x7e).contains(&word[k - 1]) && b.is_ascii_hexdigit() {
                    s.push_str("\" \"");
                }
                s.push(b as char)
            }
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s.push('"');
    s
}

/// A word as a shell (bash) reads it back: plain, `'quoted'`, or `$'\x01'`
/// when it holds a char outside printable ASCII.
pub fn shell_word(word: &[u8]) -> String {
    if word.iter().all(|b| (0x20..=0x7e).contains(b)) {
        let text = String::from_utf8_lossy(word);
        return super::text::shell_word(&text);
    }
    let mut s = String::from("$'");
    for &b in word {
        match b {
            b'\'' => s.push_str("\\'"),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s.push('\'');
    s
}

/// ` -- w0 w1 ...`: the words after a `run` command's options.
pub fn command_tail(words: &[Vec<u8>]) -> String {
    let mut s = String::from(" --");
    for w in words {
        s.push(' ');
        s.push_str(&shell_word(w));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_strings_escape_as_c_does() {
        assert_eq!(c_string(b"ab"), "\"ab\"");
        assert_eq!(c_string(&[1]), "\"\\x01\"");
        assert_eq!(c_string(&[1, b'a', b'z']), "\"\\x01\" \"az\"");
        assert_eq!(c_string(b"a\"\\"), "\"a\\\"\\\\\"");
        assert_eq!(shell_word(b""), "''");
        assert_eq!(shell_word(&[0xff, b'\'']), "$'\\xff\\''");
        assert_eq!(
            describe(&[b"t".to_vec(), b"x y".to_vec()]),
            "argc = 2, argv = {\"t\", \"x y\"}"
        );
    }
}
