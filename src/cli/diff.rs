//! `focuscheck diff REF NEW`: is the changed version still equivalent to the
//! reference, and if not, where is the change that breaks it?

use super::args::{BudgetArgs, ShowArgs};
use super::*;
use crate::analysis::{CheckOptions, Verdict};
use crate::context::conditions::Property;
use crate::diff::{self, DiffOptions, Observe, Part, Product};
use crate::interp;
use crate::ir::{NodeKind, VarKind};
use crate::views::diff::{DiffDoc, DiffFileDoc, Observations};
use crate::views::text::{shell_word, LineNames, View};
use crate::views::{self};
use std::sync::Arc;

#[derive(Args)]
pub struct DiffArgs {
    /// The reference version.
    reference: PathBuf,
    /// The changed version.
    new: PathBuf,
    /// The procedure both versions must agree on.
    #[arg(long, value_name = "NAME")]
    entry: String,
    #[command(flatten)]
    pp: super::args::PpArgs,
    /// A procedure run first in both versions (e.g. one that sets tables).
    #[arg(long, value_name = "NAME")]
    init: Option<String>,
    /// What must agree: the entry's return value, or every global either
    /// version writes.
    #[arg(long, value_enum, default_value_t = Observe::Return)]
    observe: Observe,
    /// How uninitialised globals start (see `check --help`).
    #[arg(long, value_enum, value_name = "MODE")]
    globals: Option<crate::ir::GlobalsMode>,
    #[command(flatten)]
    budget: BudgetArgs,
    /// `text` or `json`.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    format: DiffFormat,
    #[command(flatten)]
    show: ShowArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Text,
    Json,
}

/// Lines of the product named by version.
struct DiffLines<'a>(&'a Product);

impl LineNames for DiffLines<'_> {
    fn label(&self, line: u32) -> String {
        if let Some(l) = self.0.arguments_line(line) {
            return l.to_string();
        }
        let l = self.0.local_line(line);
        match self.0.part_of_line(line) {
            Part::New => l.to_string(),
            Part::Ref => format!("ref:{l}"),
            Part::Harness => format!("product:{l}"),
        }
    }

    fn place(&self, line: u32) -> (String, u32) {
        if let Some(l) = self.0.arguments_line(line) {
            return (self.0.new_name.clone(), l);
        }
        let l = self.0.local_line(line);
        match self.0.part_of_line(line) {
            Part::New => (self.0.new_name.clone(), l),
            Part::Ref => (self.0.ref_name.clone(), l),
            Part::Harness => ("(product)".into(), l),
        }
    }

    fn text(&self, line: u32, s: &str) -> String {
        match self.0.part_of_line(line) {
            Part::New => s.to_string(),
            Part::Ref => diff::strip(s),
            Part::Harness => harness_text(s),
        }
    }

    fn shown(&self, line: u32) -> bool {
        self.0.part_of_line(line) != Part::Harness
    }
}

/// A text of the harness in the versions' terms: `__new_result` is NEW's
/// result, `__ref_f` is REF's `f`, a call without that prefix is NEW's.
fn harness_text(s: &str) -> String {
    let t = s
        .replace("__new_result", "NEW's result")
        .replace("__reference_result", "REF's result");
    let mut out = String::new();
    let mut rest = t.as_str();
    while let Some(k) = rest.find(diff::PREFIX) {
        out.push_str(&rest[..k]);
        out.push_str("REF's ");
        rest = &rest[k + diff::PREFIX.len()..];
    }
    out.push_str(rest);
    match out.strip_prefix("Called ") {
        Some(call) if !call.starts_with("REF's ") => format!("Called NEW's {call}"),
        _ => out,
    }
}

/// The overall verdict: equivalent (every condition safe), differs (one
/// confirmed), or unknown; with the index of the result that decides it.
/// Disagreeing observations come before failures of the new version alone.
fn overall(report: &crate::check::Report, product: &Product) -> (&'static str, String, Option<usize>) {
    let p = &product.program;
    let in_harness = |r: &crate::analysis::CondReport| {
        report
            .condition(r)
            .site()
            .is_some_and(|s| product.part_of(p.site(s).span) == Part::Harness)
    };
    let unsafe_at = |harness: bool| {
        report
            .results
            .iter()
            .position(|r| r.verdict == Verdict::Unsafe && in_harness(r) == harness)
    };
    if let Some(i) = unsafe_at(true).or_else(|| unsafe_at(false)) {
        let r = &report.results[i];
        let what = if in_harness(r) {
            "the two versions disagree".to_string()
        } else {
            format!(
                "the new version fails where the reference does not: {}",
                report.condition(r).describe(p)
            )
        };
        return ("differs", format!("{what} ({})", r.reason), Some(i));
    }
    if let Some(i) = report.results.iter().position(|r| r.verdict == Verdict::Unknown) {
        return ("unknown", report.results[i].reason.clone(), Some(i));
    }
    ("equivalent", "no input makes the versions disagree".into(), None)
}

pub fn cmd_diff(ui: &Ui, args: &DiffArgs) -> i32 {
    let (Some(reference), Some(new)) = (read_source(ui, &args.reference), read_source(ui, &args.new)) else {
        return EXIT_USAGE;
    };
    let opts = DiffOptions {
        entry: args.entry.clone(),
        init: args.init.clone(),
        observe: args.observe,
        globals: args.globals,
        pp: args.pp.options(),
    };
    let product = match diff::product(&new, &reference, &opts) {
        Ok(p) => p,
        Err(e) => {
            ui.diagnostics(&e.file, &e.diags);
            return EXIT_USAGE;
        }
    };
    let p = &product.program;
    let report = crate::pipeline::check(p, &[], &product_config(args, &product), std::time::Instant::now()).report;
    let (verdict, why, decided_by) = overall(&report, &product);
    // The confirmed difference, replayed on each version alone.
    let cx = decided_by
        .map(|i| &report.results[i])
        .filter(|r| r.verdict == Verdict::Unsafe)
        .and_then(|r| r.counterexample.as_ref());
    let outputs = cx.map(|cx| observations(&product, &reference, &new, &opts, cx));
    let lines = DiffLines(&product);
    let versions = [load_version(&reference, &opts), load_version(&new, &opts)];
    let files = [args.reference.as_path(), args.new.as_path()];
    let replay = |cx: &crate::analysis::witness::Counterexample| replay_commands(&product, files, &opts, &versions, cx);
    match args.format {
        DiffFormat::Text => {
            outln!(
                "{} against {} (entry {}{}, observing {}): {verdict}",
                product.new_name,
                product.ref_name,
                args.entry,
                args.init.as_ref().map(|g| format!(", after {g}")).unwrap_or_default(),
                match args.observe {
                    Observe::Return => "the return value",
                    Observe::Globals => "the globals either version writes",
                }
            );
            outln!("  {why}");
            if !product.unobserved.is_empty() {
                outln!(
                    "  not compared (written by one version, absent from or shaped differently in the other): {}",
                    product.unobserved.join(", ")
                );
            }
            if let Some(o) = &outputs {
                outln!("  on these inputs: {}", o.inputs);
                outln!("  {}: {}", product.ref_name, o.reference);
                outln!("  {}: {}", product.new_name, o.new);
            }
            let next = |v: View, n: Option<usize>| {
                let mut c = format!(
                    "focuscheck diff {} {} --entry {}",
                    args.reference.display(),
                    args.new.display(),
                    args.entry
                );
                if let Some(g) = &args.init {
                    c.push_str(&format!(" --init {g}"));
                }
                c.push_str(match v {
                    View::Reduced => " --view reduced",
                    View::Fss => " --view fss",
                    View::Full => " --view full",
                });
                if let Some(n) = n {
                    c.push_str(&format!(" --fss {n}"));
                }
                c
            };
            out!(
                "{}",
                views::text::report(
                    p,
                    &report,
                    &views::text::TextOptions {
                        lines: &lines,
                        color: ui.color_out,
                        stats: args.show.stats,
                        view: args.show.view,
                        fss: args.show.fss,
                        project: args.show.project.clone(),
                        next: &next,
                        diff: true,
                        replay: &replay,
                        full_trace: args.show.full_trace,
                        all_fss: args.show.all_fss,
                        verbose: args.show.verbose,
                    }
                )
            );
        }
        DiffFormat::Json => {
            let check = views::json::file_doc_with(p, &report, &args.show.project, &args.show.listing());
            let version = |line| {
                let part = match product.part_of_line(line) {
                    Part::New => "new",
                    Part::Ref => "reference",
                    Part::Harness => "product",
                };
                (product.local_line(line), part)
            };
            let doc = DiffFileDoc::new(
                &check,
                &lines,
                &version,
                DiffDoc {
                    reference: product.ref_name.clone(),
                    new: product.new_name.clone(),
                    entry: args.entry.clone(),
                    init: args.init.clone(),
                    verdict,
                    reason: why,
                    decided_by,
                    observations: outputs,
                    analysed_lines: analysed_lines(&new, &opts),
                    observed: product.observed.clone(),
                    unobserved: product.unobserved.clone(),
                },
            );
            outln!("{}", crate::views::documents::sorted_json(&doc, true));
        }
    }
    match verdict {
        "equivalent" => EXIT_OK,
        _ => EXIT_ERROR_FOUND,
    }
}

/// A counterexample of the product split by version: each version's
/// inputs (REF's own without their prefix, its copies with NEW's values)
/// and the choices it consumed, in the order it consumed them.
struct Split {
    inputs: [Vec<(String, i64)>; 2],
    choices: [Vec<i64>; 2],
    /// Per choice: the local of the entry it gave a value at its declaration
    /// (an input when the version runs from that entry).
    locals: [Vec<Option<String>>; 2],
}

fn split(product: &Product, entry: &str, cx: &crate::analysis::witness::Counterexample) -> Split {
    let p = &product.program;
    let mut choices: [Vec<i64>; 2] = [Vec::new(), Vec::new()];
    let mut locals: [Vec<Option<String>>; 2] = [Vec::new(), Vec::new()];
    let mut next = cx.choices.iter();
    for s in &cx.run.trace {
        let node = p.node(s.node);
        let local = match &node.kind {
            NodeKind::Havoc { place, .. }
                if node.span == p.var(place.var).span
                    && diff::strip(&p.proc(node.proc).name) == entry
                    && p.var(place.var).kind == VarKind::Local =>
            {
                Some(p.var(place.var).name.clone())
            }
            _ => None,
        };
        let count = match &node.kind {
            NodeKind::Branch {
                cond: crate::ir::Cond::Nondet,
                ..
            } => 1,
            NodeKind::Havoc { place, .. } => match (&place.index, p.var(place.var).len) {
                (None, Some(n)) => n as usize,
                _ => 1,
            },
            _ => 0,
        };
        let side = if product.part_of(node.span) == Part::Ref { 0 } else { 1 };
        for _ in 0..count {
            if let Some(c) = next.next() {
                choices[side].push(*c);
                locals[side].push(local.clone());
            }
        }
    }
    let copied = |k: &str| is_copied(product, k);
    let of_version = |reference: bool| -> Vec<(String, i64)> {
        let mut out: Vec<(String, i64)> = Vec::new();
        for (k, v) in &cx.inputs {
            match (k.strip_prefix(diff::PREFIX), reference) {
                (Some(own), true) if !copied(k) => {
                    out.retain(|(o, _)| o != own);
                    out.push((own.to_string(), *v));
                }
                (None, _) if !out.iter().any(|(o, _)| o == k) => out.push((k.clone(), *v)),
                _ => {}
            }
        }
        out
    };
    Split {
        inputs: [of_version(true), of_version(false)],
        choices,
        locals,
    }
}

/// REF's copies of NEW's inputs are not inputs of their own.
fn is_copied(product: &Product, k: &str) -> bool {
    product
        .copied
        .iter()
        .any(|c| k == c || k.strip_prefix(c.as_str()).is_some_and(|r| r.starts_with(['[', '.'])))
}

/// The `focuscheck run` commands that replay a counterexample of the
/// product on each version alone (its `--init`, then the entry).
fn replay_commands(
    product: &Product,
    files: [&Path; 2],
    opts: &DiffOptions,
    versions: &[Option<crate::ir::Program>; 2],
    cx: &crate::analysis::witness::Counterexample,
) -> Vec<String> {
    let sp = split(product, &opts.entry, cx);
    let mut out = Vec::new();
    for (k, label) in [(0, "REF"), (1, "NEW")] {
        let Some(pv) = &versions[k] else { continue };
        // The entry's parameters are named as in NEW in the product.
        let params = diff::harness::param_names(&pv.source, &opts.entry);
        // A draw at a declaration of the entry's local is an input when the
        // version runs from the entry.
        let slots = pv.input_slots();
        let mut choices = Vec::new();
        let mut drawn = Vec::new();
        for (v, local) in sp.choices[k].iter().zip(&sp.locals[k]) {
            let slot = local.as_ref().and_then(|l| {
                slots
                    .iter()
                    .find(|s| pv.var(s.var).name == *l && pv.var(s.var).proc == Some(pv.entry))
            });
            match slot {
                Some(s) => drawn.push((s.name.clone(), *v)),
                None => choices.push(*v),
            }
        }
        let known: std::collections::BTreeSet<String> = slots.iter().map(|s| s.name.clone()).collect();
        let inputs: Vec<(String, i64)> = sp.inputs[k]
            .iter()
            .map(|(n, v)| (diff::harness::version_input(n, &product.params, &params), *v))
            .chain(drawn)
            .filter(|(n, _)| known.contains(n))
            .collect();
        // Only what the version's run reads is asked for.
        let init = opts.init.as_deref().and_then(|g| pv.proc_by_name(g));
        let cfg = interp::Config {
            inputs: inputs.iter().cloned().collect(),
            choices: choices.clone(),
            ..interp::Config::default()
        };
        let unused = interp::run_after(pv, &cfg, init)
            .map(|r| r.unused_inputs)
            .unwrap_or_default();
        let mut prefix = format!(
            "focuscheck run {} --entry {}",
            shell_word(&files[k].display().to_string()),
            shell_word(&opts.entry)
        );
        if let Some(g) = &opts.init {
            prefix.push_str(&format!(" --init {}", shell_word(g)));
        }
        if let Some(g) = opts.globals {
            prefix.push_str(&format!(" --globals {}", super::check::value_name(g)));
        }
        let cmd = views::text::replay_command(&prefix, &inputs, &unused, &choices);
        out.push(format!("{label}: {cmd}"));
    }
    out
}

fn observations(
    product: &Product,
    reference: &Arc<SourceFile>,
    new: &Arc<SourceFile>,
    opts: &DiffOptions,
    cx: &crate::analysis::witness::Counterexample,
) -> Observations {
    let sp = split(product, &opts.entry, cx);
    let copied = |k: &str| is_copied(product, k);
    let of_version = |reference: bool| sp.inputs[if reference { 0 } else { 1 }].clone();
    let split = sp.choices.clone();
    let run = |file: &Arc<SourceFile>, choices: &[i64], reference: bool| {
        single_run(file, opts, product, &of_version(reference), choices)
            .unwrap_or_else(|e| (format!("(could not replay: {e})"), Vec::new()))
    };
    let (ref_what, ref_unused) = run(reference, &split[0], true);
    let (new_what, new_unused) = run(new, &split[1], false);
    // An input matters if either version read it.
    let unused: Vec<String> = cx
        .inputs
        .iter()
        .map(|(k, _)| k.clone())
        .filter(|k| match k.strip_prefix(diff::PREFIX) {
            Some(own) => ref_unused.iter().any(|u| u == own),
            None => new_unused.contains(k) && (ref_unused.contains(k) || !of_version(true).iter().any(|(o, _)| o == k)),
        })
        .collect();
    Observations {
        inputs: views::text::inputs_line(&cx.inputs, &unused, &copied),
        reference: ref_what,
        new: new_what,
    }
}

/// Runs one version alone (its `--init`, then the entry) on the inputs and
/// says what it computed.
/// Also gives the inputs the run never read.
fn single_run(
    file: &Arc<SourceFile>,
    opts: &DiffOptions,
    product: &Product,
    inputs: &[(String, i64)],
    choices: &[i64],
) -> Result<(String, Vec<String>), String> {
    let p = load_version(file, opts).ok_or("the version does not load")?;
    let returns = p.proc(p.entry).ret != crate::syntax::ast::RetType::Void;
    let params = diff::harness::param_names(file, &opts.entry);
    let known: std::collections::BTreeSet<String> = p.input_slots().into_iter().map(|s| s.name).collect();
    let cfg = interp::Config {
        inputs: inputs
            .iter()
            .map(|(k, v)| (diff::harness::version_input(k, &product.params, &params), *v))
            .filter(|(k, _)| known.contains(k))
            .collect(),
        choices: choices.to_vec(),
        ..interp::Config::default()
    };
    let init = opts.init.as_deref().and_then(|g| p.proc_by_name(g));
    let run = interp::run_after(&p, &cfg, init).map_err(|e| format!("{e:?}"))?;
    let layout = p.layout();
    let global = |name: &str| -> Option<String> {
        let g = p
            .globals
            .iter()
            .find(|&&g| p.var(g).name == name && p.var(g).kind == VarKind::Global)?;
        let off = layout.offset[g.index()] as usize;
        Some(match p.var(*g).len {
            None => run.globals[off].to_string(),
            Some(n) => format!("{:?}", &run.globals[off..off + n as usize]),
        })
    };
    let what = match &run.outcome {
        interp::Outcome::Error { site, .. } => format!("fails: {}", views::describe_site(&p, *site)),
        interp::Outcome::Halted { .. } => "stops (abort/exit/assumption)".to_string(),
        interp::Outcome::Finished => match opts.observe {
            Observe::Return if returns => format!("returns {}", run.returned.unwrap_or_default()),
            _ => {
                let vals: Vec<String> = product
                    .observed
                    .iter()
                    .filter_map(|g| global(g).map(|v| format!("{g} = {v}")))
                    .collect();
                format!("ends with {}", vals.join(", "))
            }
        },
        other => format!("{other:?}"),
    };
    Ok((what, run.unused_inputs))
}

/// The check of the product program: the Datalog engine, the reference's
/// failures cut, NESTs only in the new version's part.
fn product_config(args: &DiffArgs, product: &Product) -> Config {
    let check = CheckOptions {
        engine: args.budget.step_options(true),
        property: Property::All,
        explain: !args.show.no_explain,
        explain_steps: args.show.explain_steps.map(|n| n as u64),
        cut: vec![product.ref_bytes.clone(), product.setup_bytes.clone()],
        // The new version's text is the product's first part.
        localise: std::iter::once(0..product.ref_bytes.start).collect(),
        counterpart: Some(diff::strip),
        handover_states: args
            .budget
            .max_states
            .map_or(CheckOptions::default().handover_states, |_| None),
        ..CheckOptions::default()
    };
    Config {
        check,
        engine: crate::engines::Engine::Fsum,
        ..Config::default()
    }
}

/// One version alone, as the product's harness calls it (its entry and
/// globals, no overflow checks); `None` when it does not load.
fn load_version(file: &Arc<SourceFile>, opts: &DiffOptions) -> Option<Program> {
    let lower = crate::ir::lower::LowerOptions {
        entry: opts.entry.clone(),
        globals: opts.globals,
        overflow_checks: false,
        ..Default::default()
    };
    let cfg = Config::front(lower, &[], false);
    crate::pipeline::load_source(file.clone(), &cfg).ok().map(|l| l.program)
}

/// Lines of the functions the entry (and `--init`) can reach, in a version.
fn analysed_lines(file: &Arc<SourceFile>, opts: &DiffOptions) -> usize {
    let Some(mut p) = load_version(file, opts) else {
        return 0;
    };
    // `--init` runs too: not the whole program's run that narrowing assumes.
    crate::ir::narrow::restore(&mut p);
    let a = crate::facts::Analysis::new(&p);
    let mut procs: std::collections::BTreeSet<crate::ir::ProcId> = a.reachable_procs.clone();
    if let Some(g) = opts.init.as_deref().and_then(|g| p.proc_by_name(g)) {
        procs.insert(g);
        let mut work = vec![g];
        while let Some(f) = work.pop() {
            for n in p.node_ids() {
                if let NodeKind::Call { callee, .. } = &p.node(n).kind {
                    if p.node(n).proc == f && procs.insert(*callee) {
                        work.push(*callee);
                    }
                }
            }
        }
    }
    let mut lines = std::collections::BTreeSet::new();
    for f in procs {
        let span = p.proc(f).span;
        let (a, b) = (p.line(span), p.source.line_col(span.hi.saturating_sub(1)).line);
        lines.extend(a..=b);
    }
    lines.len()
}
