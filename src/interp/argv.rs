//! `main`'s arguments (`ir/mem/argv.rs`) as the inputs of a run: `argc`,
//! each string's size and its chars (`argc`, `argv[i]@entry::(bytes)`,
//! `argv[i]@entry[j]`), read as the words of a command line and back
//! (`argv[0]` first, as `execv` takes them). The views write the words
//! (`views/argv_words.rs`); sampled runs give words (`engines/runs.rs`).

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
