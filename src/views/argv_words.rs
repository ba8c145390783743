//! `main`'s arguments (`ir/mem/argv.rs`) as the words of a command line,
//! and back: a run's `argc`, each string's size and its chars are inputs
//! (`argc`, `argv[i]@entry::(bytes)`, `argv[i]@entry[j]`); as words they
//! read `argc = 2, argv = {"a", "aaaaaaaa"}` and replay as
//! `focuscheck run FILE -- a aaaaaaaa` (`argv[0]` first, as `execv` takes
//! them).

use crate::ir::Program;
use std::collections::BTreeMap;

/// More words or longer ones than this are left as `--input`s (a huge
/// `argc` or string length, which the model holds only the start of).
const MOST: i64 = 4096;

/// Where a program's arguments are among its inputs.
pub struct Argv {
    /// The name of the input `argc`.
    pub argc: String,
    /// The strings the model holds, `argv[0]` ..
    held: usize,
    /// The chars of each it holds.
    chars: usize,
}

fn size_name(i: usize) -> String {
    format!("argv[{i}]@entry::(bytes)")
}

fn char_name(i: usize, j: usize) -> String {
    format!("argv[{i}]@entry[{j}]")
}

impl Argv {
    /// The arguments of `p`'s entry, when it is `main` reading `argv`.
    pub fn of(p: &Program) -> Option<Argv> {
        let entry = p.proc(p.entry);
        let names: Vec<String> = p.input_slots().into_iter().map(|s| s.name).collect();
        if entry.name != "main" || !names.contains(&size_name(0)) {
            return None;
        }
        let argc = p.input_name(*entry.params.first()?, None);
        let held = (0..).take_while(|&i| names.contains(&size_name(i))).count();
        let chars = (0..).take_while(|&j| names.contains(&char_name(0, j))).count();
        Some(Argv { argc, held, chars })
    }

    /// Whether the input `name` is one of the arguments.
    pub fn is_argument(&self, name: &str) -> bool {
        name == self.argc || name.starts_with("argv[") && name.contains("]@entry")
    }

    /// The words of a run's arguments (an argument the model does not
    /// hold, or the chars past those it holds, any: `a`), or none when
    /// they are too many or too long to write.
    pub fn words(&self, inputs: &[(String, i64)]) -> Option<Vec<Vec<u8>>> {
        let values: BTreeMap<&str, i64> = inputs.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let argc = *values.get(self.argc.as_str())?;
        if !(1..=MOST).contains(&argc) {
            return None;
        }
        let mut words = Vec::new();
        for i in 0..argc as usize {
            if i >= self.held {
                words.push(Vec::new());
                continue;
            }
            let size = *values.get(size_name(i).as_str())?;
            if !(1..=MOST).contains(&size) {
                return None;
            }
            let word = (0..size as usize - 1)
                .map(|j| match values.get(char_name(i, j).as_str()) {
                    Some(&c) if j < self.chars => c as u8,
                    _ => b'a',
                })
                .collect();
            words.push(word);
        }
        Some(words)
    }

    /// The inputs that make `words` the run's arguments: `argc`, and each
    /// held string's size and chars (NUL from its terminator on; the
    /// strings past `argc` empty).
    pub fn inputs(&self, words: &[Vec<u8>]) -> Vec<(String, i64)> {
        let mut out = vec![(self.argc.clone(), words.len() as i64)];
        for i in 0..self.held {
            let word: &[u8] = words.get(i).map_or(&[], |w| w.as_slice());
            out.push((size_name(i), word.len() as i64 + 1));
            for j in 0..self.chars {
                let c = word.get(j).map_or(0, |&b| b as i8 as i64);
                out.push((char_name(i, j), c));
            }
        }
        out
    }
}

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
