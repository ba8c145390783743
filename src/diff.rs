//! `focuscheck diff`: a changed program against its reference, as one
//! product program.
//!
//! The product is one source text: NEW unchanged (so its line numbers hold),
//! then REF with its functions and globals renamed apart (`__ref_` in front,
//! token by token), then a harness that gives REF's copies of the inputs
//! NEW's values (globals of one name and shape are one input; so are the
//! entry's parameters), runs `--init` and the entry in REF, then in NEW, and
//! asserts that the observations agree.
//! REF's own failures end a path without error (outside the reference's
//! domain); NEW's failures and the final assertion are divergences.

use crate::diag::{Class, Diag};
use crate::facts::Analysis;
use crate::ir::lower::LowerOptions;
use crate::ir::pointers::{is_heap_object, is_internal, pointer_leaves};
use crate::ir::{GlobalsMode, Program, Var, VarInit, VarKind};
use crate::syntax::ast::{self, RetType};
use crate::syntax::source::{SourceFile, Span};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

pub mod harness;

/// What the two versions must agree on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Observe {
    /// The entry's return value.
    Return,
    /// Every global either version writes.
    Globals,
}

#[derive(Clone, Debug)]
pub struct DiffOptions {
    pub entry: String,
    /// `-D`, `-U`, `-I`.
    pub pp: crate::syntax::preprocess::PpOptions,
    pub init: Option<String>,
    pub observe: Observe,
    pub globals: Option<GlobalsMode>,
}

/// Which version a line of the product belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    New,
    Ref,
    Harness,
}

/// The product program and how its lines map back.
pub struct Product {
    pub program: Program,
    /// Lines `1..=new_lines` are NEW's own.
    pub new_lines: u32,
    /// REF's line 1 is the product's line `ref_first`.
    pub ref_first: u32,
    pub harness_first: u32,
    /// Byte ranges of the parts in the product text.
    pub ref_bytes: std::ops::Range<u32>,
    pub harness_bytes: std::ops::Range<u32>,
    /// The harness's setup of the entry's arguments (`harness.rs`), whose
    /// checks (its accesses to a pointer's array) never fail.
    pub setup_bytes: std::ops::Range<u32>,
    /// Its lines, and the line of NEW's entry.
    pub setup_lines: std::ops::Range<u32>,
    pub entry_line: u32,
    pub new_name: String,
    pub ref_name: String,
    /// Names of the entry's parameters as inputs of the product.
    pub params: Vec<String>,
    /// REF's renamed inputs that the harness sets from NEW's (not inputs of
    /// their own).
    pub copied: Vec<String>,
    /// Globals compared at the end (`--observe globals`).
    pub observed: Vec<String>,
    /// Globals a version writes that the other lacks (or shapes
    /// differently): they cannot be compared.
    pub unobserved: Vec<String>,
}

impl Product {
    /// A harness line that sets up the entry's arguments is shown as the
    /// line of NEW's entry, where its parameters are declared.
    pub fn arguments_line(&self, line: u32) -> Option<u32> {
        self.setup_lines.contains(&line).then_some(self.entry_line)
    }

    pub fn part_of_line(&self, line: u32) -> Part {
        if line < self.ref_first {
            Part::New
        } else if line < self.harness_first {
            Part::Ref
        } else {
            Part::Harness
        }
    }

    pub fn part_of(&self, span: Span) -> Part {
        if self.harness_bytes.contains(&span.lo) {
            Part::Harness
        } else if self.ref_bytes.contains(&span.lo) {
            Part::Ref
        } else {
            Part::New
        }
    }

    /// A product line in its version's numbering.
    pub fn local_line(&self, line: u32) -> u32 {
        match self.part_of_line(line) {
            Part::New => line,
            Part::Ref => line + 1 - self.ref_first,
            Part::Harness => line + 1 - self.harness_first,
        }
    }
}

pub use crate::ir::product::strip_reference as strip;
pub use crate::ir::product::REFERENCE_PREFIX as PREFIX;

/// Problems building the product: diagnostics against one of the files.
pub struct DiffError {
    pub file: Arc<SourceFile>,
    pub diags: Vec<Diag>,
}

fn load_version(file: &Arc<SourceFile>, opts: &DiffOptions) -> Result<Program, DiffError> {
    let lo = LowerOptions {
        entry: opts.entry.clone(),
        globals: opts.globals,
        overflow_checks: false,
        pp: opts.pp.clone(),
        ..Default::default()
    };
    let (p, diags) = crate::load(file.clone(), &lo);
    match p {
        // The harness calls the entry (after `--init`): not a whole
        // program's run, so no case of a split is cut.
        Some(mut p) => {
            crate::ir::narrow::restore(&mut p);
            Ok(p)
        }
        None => Err(DiffError {
            file: file.clone(),
            diags: diags.into_iter().filter(|d| d.is_error()).collect(),
        }),
    }
}

/// Globals a version's `--init` and entry may write.
fn written_globals(p: &Program, opts: &DiffOptions) -> BTreeSet<String> {
    let a = Analysis::new(p);
    let mut out = BTreeSet::new();
    let mut procs = vec![p.entry];
    if let Some(g) = opts.init.as_deref().and_then(|g| p.proc_by_name(g)) {
        procs.push(g);
    }
    for f in procs {
        for v in &a.proc_mod[f.index()] {
            if p.var(*v).kind == VarKind::Global {
                out.insert(p.var(*v).name.clone());
            }
        }
    }
    out
}

/// The tags `struct T` names in `text` (its definitions and uses alike).
fn struct_tags(text: &str) -> BTreeSet<String> {
    let words: Vec<&str> = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .filter(|w| w[0] == "struct" && !w[1].starts_with(|c: char| c.is_ascii_digit()))
        .map(|w| w[1].to_string())
        .collect()
}

/// `text` with every identifier in `names` prefixed, outside comments,
/// strings and character literals. Lines are unchanged.
pub fn rename_identifiers(text: &str, names: &BTreeSet<String>) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut copied = 0;
    scan_identifiers(text, &mut |at, word| {
        if names.contains(word) {
            out.push_str(&text[copied..at]);
            out.push_str(PREFIX);
            copied = at;
        }
    });
    out.push_str(&text[copied..]);
    out
}

/// Calls `f` with the position and text of every identifier of `text`,
/// outside comments, strings, character literals and numbers.
fn scan_identifiers(text: &str, f: &mut dyn FnMut(usize, &str)) {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = text[i..].find('\n').map(|k| i + k).unwrap_or(b.len());
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = text[i + 2..].find("*/").map(|k| i + 2 + k + 2).unwrap_or(b.len());
        } else if c == b'"' || c == b'\'' {
            let mut j = i + 1;
            while j < b.len() && b[j] != c && b[j] != b'\n' {
                if b[j] == b'\\' {
                    j += 1;
                }
                j += 1;
            }
            i = (j + 1).min(b.len());
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            f(i, &text[i..j]);
            i = j;
        } else if c.is_ascii_digit() {
            // A number (and its suffix) is one word: never an identifier.
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
        } else {
            i += text[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
}

/// Functions the lowering treats as builtins: never renamed.
fn is_builtin(name: &str) -> bool {
    name.starts_with("__VERIFIER_")
        || matches!(
            name,
            "reach_error" | "abort" | "exit" | "assert" | "assume" | "assume_abort_if_not" | "nondet"
        )
}

fn global_vars(p: &Program) -> impl Iterator<Item = &Var> {
    p.globals
        .iter()
        .map(|&g| p.var(g))
        .filter(|v| v.kind == VarKind::Global)
}

/// A global's elements as C spells them: `g`, `s.f`, or `g[0]`, `g[1]`,
/// ... for an array, `a[0].f`, ... for a field of an array of structs.
fn elements<'a>(p: &'a Program, v: &'a Var) -> impl Iterator<Item = String> + 'a {
    let name = v.name.as_str();
    let at = index_at(p, v);
    (0..v.slots()).map(move |k| match v.len {
        None => name.to_string(),
        Some(_) => format!("{}[{k}]{}", &name[..at], &name[at..]),
    })
}

/// Where an index goes in an array global's name.
fn index_at(p: &Program, v: &Var) -> usize {
    p.memory.index_at.get(&v.name).copied().unwrap_or(v.name.len())
}

fn line_count(text: &str) -> u32 {
    text.lines().count() as u32
}

/// The entry's parameters as the harness names them: as in NEW's source,
/// so assumptions and inputs read as there, unless `taken` (a global or
/// function the harness may name is called that).
fn harness_params(new_fn: &ast::Function, ref_fn: &ast::Function, taken: &dyn Fn(&str) -> bool) -> Vec<harness::Param> {
    new_fn
        .params
        .iter()
        .zip(&ref_fn.params)
        .filter_map(|(q, r)| Some((q.name.as_ref()?.name.clone(), q, r)))
        .map(|(name, q, r)| harness::Param {
            name: if taken(&name) { format!("{name}__in") } else { name },
            new_ty: q.ctype.clone(),
            ref_ty: harness::renamed(&r.ctype),
        })
        .collect()
}

/// The harness's runs of `--init` and the entry, REF's first, and its
/// assertion that the observations `same` agree.
fn calls(opts: &DiffOptions, returns: bool, ref_args: &[String], new_args: &[String], same: &[String]) -> String {
    let mut h = String::new();
    for (prefix, args) in [(PREFIX, ref_args), ("", new_args)] {
        if let Some(g) = &opts.init {
            h.push_str(&format!("  {prefix}{g}();\n"));
        }
        let call = format!("{prefix}{}({})", opts.entry, args.join(", "));
        match (returns, prefix.is_empty()) {
            (true, false) => h.push_str(&format!("  __reference_result = {call};\n")),
            (true, true) => h.push_str(&format!("  __new_result = {call};\n")),
            (false, _) => h.push_str(&format!("  {call};\n")),
        }
    }
    h.push_str(&format!("  assert({});\n}}\n", same.join(" && ")));
    h
}

/// Builds the product of `new` against `reference`.
pub fn product(new: &Arc<SourceFile>, reference: &Arc<SourceFile>, opts: &DiffOptions) -> Result<Product, DiffError> {
    let pn = load_version(new, opts)?;
    let pr = load_version(reference, opts)?;
    let fail = |file: &Arc<SourceFile>, span: Span, msg: String| DiffError {
        file: file.clone(),
        diags: vec![Diag::error(Class::Semantic, span, msg).with_label("here")],
    };
    // The entry must have one signature in both.
    let en = pn.proc(pn.entry);
    let er = pr.proc(pr.entry);
    let new_ast = crate::syntax::parse_source(new, &opts.pp, &mut Vec::new()).ast;
    let ref_ast = crate::syntax::parse_source(reference, &opts.pp, &mut Vec::new()).ast;
    let (Some(new_fn), Some(ref_fn)) = (
        harness::entry_fn(&new_ast, &opts.entry),
        harness::entry_fn(&ref_ast, &opts.entry),
    ) else {
        return Err(fail(new, en.span, format!("no function `{}`", opts.entry)));
    };
    if new_fn.params.len() != ref_fn.params.len() || (en.ret == RetType::Void) != (er.ret == RetType::Void) {
        return Err(fail(
            reference,
            er.span,
            format!("`{}` has a different signature in the two versions", opts.entry),
        ));
    }
    if opts.observe == Observe::Return && en.ret == RetType::Void {
        return Err(fail(
            new,
            en.span,
            format!("`{}` returns nothing; compare with `--observe globals`", opts.entry),
        ));
    }
    if let Some(g) = &opts.init {
        for (p, f) in [(&pn, new), (&pr, reference)] {
            if p.proc_by_name(g).is_none() {
                return Err(fail(
                    f,
                    Span::new(0, 0),
                    format!("no function `{g}` to run first (`--init`)"),
                ));
            }
        }
    }
    let mut written = written_globals(&pn, opts);
    written.extend(written_globals(&pr, opts));
    for (text, file) in [(&new.text, new), (&reference.text, reference)] {
        let mut reserved = None;
        scan_identifiers(text, &mut |at, word| {
            let taken = [PREFIX, "__fc_"].iter().any(|w| word.starts_with(w))
                || ["__new_result", "__reference_result"].contains(&word);
            if taken && reserved.is_none() {
                reserved = Some(at);
            }
        });
        if let Some(at) = reserved {
            let span = Span::new(at, at + 2);
            return Err(fail(
                file,
                span,
                "names starting with `__ref_`/`__fc_` are reserved by `diff`".into(),
            ));
        }
    }
    // REF's names to rename: its functions (builtins aside) and all its
    // globals (C allows one definition with an initialiser per name).
    let new_globals: BTreeMap<&str, &Var> = global_vars(&pn).map(|v| (v.name.as_str(), v)).collect();
    let mut rename: BTreeSet<String> = pr.procs.iter().map(|f| f.name.clone()).collect();
    rename.extend(pr.left_out.iter().map(|f| f.name.clone()));
    // Struct tags too: C allows one definition per tag.
    rename.extend(struct_tags(&reference.text));
    rename.retain(|n| !is_builtin(n));
    // A struct global's leaves (`s.f`) are renamed by renaming `s`.
    rename.extend(global_vars(&pr).map(|v| v.name.split('.').next().unwrap_or(&v.name).to_string()));
    // Globals both versions declare with one shape: REF's copy of an input
    // starts with NEW's value, so the two share their inputs. The memory
    // model's own storage is not the source's: a `malloc`'d object is named
    // by its call's line, and its initial contents, indeterminate in C, are
    // each version's own.
    // Nor are pointers: each version numbers its objects its own way.
    let pointers = |p: &Program| -> BTreeSet<String> {
        pointer_leaves(p)
            .into_iter()
            .flat_map(|(t, o)| [p.var(t).name.clone(), p.var(o).name.clone()])
            .collect()
    };
    let (new_pointers, ref_pointers) = (pointers(&pn), pointers(&pr));
    let paired: Vec<(&Var, &Var)> = global_vars(&pr)
        .filter(|r| !is_heap_object(&r.name) && !is_internal(&r.name) && !ref_pointers.contains(&r.name))
        .filter_map(|r| {
            new_globals
                .get(r.name.as_str())
                .filter(|n| n.len == r.len && index_at(&pn, n) == index_at(&pr, r))
                .filter(|n| !new_pointers.contains(&n.name))
                .map(|n| (*n, r))
        })
        .collect();
    let mut text = new.text.clone();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let new_lines = line_count(&text);
    text.push_str("/* ---- reference version ---- */\n");
    let ref_first = new_lines + 2;
    let ref_start = text.len() as u32;
    let mut ref_text = rename_identifiers(&reference.text, &rename);
    if !ref_text.ends_with('\n') {
        ref_text.push('\n');
    }
    text.push_str(&ref_text);
    let ref_end = text.len() as u32;
    text.push_str("/* ---- product of the two versions (generated) ---- */\n");
    let harness_first = ref_first + line_count(&ref_text) + 1;
    let harness_start = text.len() as u32;
    // The harness.
    if opts.observe == Observe::Return && new_fn.ret_mem.is_some() {
        return Err(fail(
            new,
            en.span,
            format!(
                "`{}` returns a pointer or a struct, which two versions cannot compare; compare with `--observe globals`",
                opts.entry
            ),
        ));
    }
    let ref_globals: BTreeSet<&str> = global_vars(&pr).map(|v| v.name.as_str()).collect();
    let root = |g: &str| g.split(['.', '[']).next().unwrap_or(g).to_string();
    let taken = |name: &str| {
        new_globals.keys().any(|g| root(g) == name)
            || ref_globals.iter().any(|g| root(g) == name)
            || pn.procs.iter().any(|f| f.name == name)
            || pn.left_out.iter().any(|f| f.name == name)
    };
    let params = harness_params(new_fn, ref_fn, &taken);
    let (setup, ref_args, new_args) =
        harness::setup(&params, &new_ast, crate::ir::mem::PARAM_ELEMS).map_err(|msg| fail(new, en.span, msg))?;
    let mut h = String::new();
    let returns = en.ret != RetType::Void;
    if returns {
        h.push_str("int __new_result = 0;\nint __reference_result = 0;\n");
    }
    h.push_str(&format!("void __fc_diff({}) {{\n", harness::signature(&params)));
    h.push_str(&setup);
    // REF's copies of inputs start like NEW's: the same inputs.
    for (n, r) in &paired {
        if n.init == VarInit::Input && r.init == VarInit::Input {
            for e in elements(&pn, n) {
                h.push_str(&format!("  {PREFIX}{e} = {e};\n"));
            }
        }
    }
    // Where the harness's own setup ends: its accesses never fail.
    let setup_end = h.len() as u32;
    let mut same: Vec<String> = Vec::new();
    match opts.observe {
        Observe::Return => same.push("__new_result == __reference_result".into()),
        Observe::Globals => {
            for (n, _) in paired.iter().filter(|(n, _)| written.contains(&n.name)) {
                same.extend(elements(&pn, n).map(|e| format!("{e} == {PREFIX}{e}")));
            }
        }
    }
    if same.is_empty() {
        same.push("1".into());
    }
    h.push_str(&calls(opts, returns, &ref_args, &new_args, &same));
    text.push_str(&h);
    let harness_end = text.len() as u32;
    let file = Arc::new(SourceFile::new(format!("{} vs {}", new.name, reference.name), text));
    let lo = LowerOptions {
        entry: "__fc_diff".into(),
        globals: Some(opts.globals.unwrap_or(pn.globals_mode)),
        overflow_checks: false,
        ..Default::default()
    };
    let (program, diags) = crate::load(file.clone(), &lo);
    let Some(program) = program else {
        return Err(DiffError {
            file,
            diags: diags.into_iter().filter(|d| d.is_error()).collect(),
        });
    };
    Ok(Product {
        program,
        new_lines,
        ref_first,
        harness_first,
        ref_bytes: ref_start..ref_end,
        harness_bytes: harness_start..harness_end,
        setup_bytes: harness_start..harness_start + setup_end,
        setup_lines: harness_first..harness_first + line_count(&h[..setup_end as usize]),
        entry_line: new.line_col(new_fn.span.lo).line,
        new_name: new.name.clone(),
        ref_name: reference.name.clone(),
        copied: paired
            .iter()
            .filter(|(n, r)| n.init == VarInit::Input && r.init == VarInit::Input)
            .map(|(n, _)| format!("{PREFIX}{}", n.name))
            .chain(harness::copies(&params))
            .collect(),
        params: params.into_iter().map(|q| q.name).collect(),
        observed: match opts.observe {
            Observe::Return => Vec::new(),
            Observe::Globals => paired
                .iter()
                .filter(|(n, _)| written.contains(&n.name))
                .map(|(n, _)| n.name.clone())
                .collect(),
        },
        // Not the models' own (`strtok::(saved)`, a result's `::(ret)`):
        // each version keeps its own, and the user wrote none of them.
        unobserved: written
            .iter()
            .filter(|g| !paired.iter().any(|(n, _)| &n.name == *g) && !crate::ir::pointers::is_internal(g))
            .cloned()
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renaming_spares_comments_strings_and_other_words() {
        let names: BTreeSet<String> = ["f", "g"].iter().map(|s| s.to_string()).collect();
        let t = "int g; // g here\nint f(int gx) { return g + f(1) + 'g' + 1g; } /* f */ \"f\"";
        assert_eq!(
            rename_identifiers(t, &names),
            "int __ref_g; // g here\nint __ref_f(int gx) { return __ref_g + __ref_f(1) + 'g' + 1g; } /* f */ \"f\""
        );
    }
}

#[cfg(test)]
mod product_tests {
    use super::*;

    fn file(name: &str, text: &str) -> Arc<SourceFile> {
        Arc::new(SourceFile::new(name, text))
    }

    fn opts(entry: &str, observe: Observe) -> DiffOptions {
        DiffOptions {
            pp: Default::default(),
            entry: entry.into(),
            init: None,
            observe,
            globals: Some(GlobalsMode::Input),
        }
    }

    fn build(reference: &str, new: &str, o: &DiffOptions) -> Product {
        match product(&file("new.c", new), &file("ref.c", reference), o) {
            Ok(p) => p,
            Err(e) => panic!("no product: {:?}", e.diags),
        }
    }

    fn text(p: &Product) -> &str {
        &p.program.source.text
    }

    #[test]
    fn the_reference_is_renamed_apart_and_new_keeps_its_lines() {
        let reference = "int limit = 5;\nint seen;\nint f(int x) { seen = x; return x < limit; }\n";
        let new = "int limit = 5;\nint seen;\nint f(int x) {\n  seen = x;\n  return x <= limit;\n}\n";
        let p = build(reference, new, &opts("f", Observe::Return));
        let t = text(&p);
        // NEW first and unchanged: its line 5 is the product's line 5.
        assert!(t.starts_with(new));
        assert_eq!(p.program.source.line_text(5).trim(), "return x <= limit;");
        // REF's function and globals carry the prefix; builtins do not.
        assert!(t.contains("int __ref_f(int x) { __ref_seen = x; return x < __ref_limit; }"));
        assert!(t.contains("int __ref_limit = 5;"));
        assert_eq!(p.part_of_line(5), Part::New);
        assert_eq!(p.part_of_line(p.ref_first), Part::Ref);
        assert_eq!(p.local_line(p.ref_first + 2), 3);
    }

    #[test]
    fn inputs_are_shared_and_parameters_passed_to_both() {
        let reference = "int mode;\nint out;\nvoid step(int x) { out = x + mode; }\n";
        let new = "int mode;\nint out;\nvoid step(int x) { out = mode + x; }\n";
        let p = build(reference, new, &opts("step", Observe::Globals));
        let t = text(&p);
        // REF's copy of the input `mode` starts with NEW's value.
        assert!(t.contains("__ref_mode = mode;"), "{t}");
        assert_eq!(p.copied, vec!["__ref_mode".to_string(), "__ref_out".to_string()]);
        // One parameter value for both calls, under the parameter's name.
        assert!(t.contains("__ref_step(x);") && t.contains("  step(x);"), "{t}");
        // Only what a version writes is compared.
        assert_eq!(p.observed, vec!["out".to_string()]);
        assert!(t.contains("assert(out == __ref_out);"), "{t}");
        // The product's only inputs are NEW's (REF's copies are set).
        let names: Vec<String> = p.program.input_slots().into_iter().map(|s| s.name).collect();
        assert!(names.contains(&"mode".to_string()) && names.contains(&"x".to_string()));
    }

    #[test]
    fn a_parameter_named_like_a_global_is_renamed_in_the_harness() {
        let src = "int x;
int out;
void step(int x) { out = x; }
";
        let p = build(src, src, &opts("step", Observe::Globals));
        let t = text(&p);
        // `x` in the harness must still mean the global when it is copied.
        assert!(t.contains("  step(x__in);") && t.contains("__ref_x = x;"), "{t}");
    }

    #[test]
    fn a_global_written_by_only_one_version_is_not_compared() {
        let reference = "int out;\nvoid step(int x) { out = x; }\n";
        let new = "int out;\nint log_count;\nvoid step(int x) { out = x; log_count = log_count + 1; }\n";
        let p = build(reference, new, &opts("step", Observe::Globals));
        assert_eq!(p.observed, vec!["out".to_string()]);
        assert_eq!(p.unobserved, vec!["log_count".to_string()]);
    }

    #[test]
    fn reserved_names_in_comments_and_strings_are_words_of_text() {
        let src = "/* __ref_ and __fc_ in a comment */\nint f(int a) { return a; } // __new_result\n";
        let p = build(src, src, &opts("f", Observe::Return));
        assert!(text(&p).contains("__reference_result = __ref_f(a);"), "{}", text(&p));
    }

    #[test]
    fn pointer_and_struct_parameters_are_given_to_each_version() {
        let src = "struct S { int a; int b; };\nint f(int *p, struct S s) { return p ? *p + s.b : s.a; }\n";
        let p = build(src, src, &opts("f", Observe::Return));
        let t = text(&p);
        // NEW's pointer is the harness's own parameter; REF's is a copy.
        assert!(t.contains("void __fc_diff(int * p) {"), "{t}");
        assert!(t.contains("__ref_p = calloc(16, sizeof(int));"), "{t}");
        assert!(t.contains("__ref_p[15] = p[15];"), "{t}");
        assert!(
            t.contains("struct __ref_S __ref_s;\n  __ref_s.a = s.a;\n  __ref_s.b = s.b;"),
            "{t}"
        );
        assert!(t.contains("__reference_result = __ref_f(__ref_p, __ref_s);"), "{t}");
        assert!(t.contains("__new_result = f(p, s);"), "{t}");
        assert_eq!(p.params, vec!["p".to_string(), "s".to_string()]);
        assert_eq!(p.copied, vec!["__ref_s".to_string()]);
    }

    #[test]
    fn mismatched_signatures_and_reserved_names_are_errors() {
        let o = opts("f", Observe::Return);
        let e = product(
            &file("new.c", "int f(int a, int b) { return a; }\n"),
            &file("ref.c", "int f(int a) { return a; }\n"),
            &o,
        );
        let msg = format!("{:?}", e.err().expect("an error").diags);
        assert!(msg.contains("different signature"), "{msg}");
        let e = product(
            &file("new.c", "int __ref_x;\nint f(int a) { return a; }\n"),
            &file("ref.c", "int f(int a) { return a; }\n"),
            &o,
        );
        let msg = format!("{:?}", e.err().expect("an error").diags);
        assert!(msg.contains("reserved"), "{msg}");
        let o = opts("g", Observe::Return);
        let e = product(&file("new.c", "void g() { }\n"), &file("ref.c", "void g() { }\n"), &o);
        let msg = format!("{:?}", e.err().expect("an error").diags);
        assert!(msg.contains("--observe globals"), "{msg}");
    }
}
