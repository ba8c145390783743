//! `focuscheck run`: the concrete interpreter on given inputs and choices.

use super::*;
use crate::interp::{self, Outcome, RunError};
use crate::ir::pointers::{is_heap_object, is_internal, pointer_leaves};
use crate::ir::{cond, NodeKind, UnitKind, VarId};
use std::collections::{BTreeMap, HashSet};

#[derive(Args)]
pub struct RunArgs {
    /// The Cimple file to run.
    file: PathBuf,
    #[command(flatten)]
    front: FrontArgs,
    /// An input value, e.g. `--input x=3`, `--input a[2]=-1`, `--input main::x=0`.
    #[arg(long = "input", value_name = "NAME=VALUE")]
    inputs: Vec<String>,
    /// Values for `if (*)`/`while (*)` (0 or 1) and `nondet()` results, in the
    /// order the run needs them, e.g. `--choices 1,0,1`.
    #[arg(long, value_name = "V,V,...", allow_hyphen_values = true)]
    choices: Option<String>,
    /// `--choices` read from a file (separated by commas, spaces or
    /// newlines): a run of 100,000 choices does not fit a command line.
    #[arg(long, value_name = "PATH", conflicts_with = "choices")]
    choices_file: Option<std::path::PathBuf>,
    /// Draw missing inputs and choices at random from this seed.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Give missing inputs and choices this value (the nearest one their
    /// type allows), e.g. `--fill 0`; `--seed` takes precedence.
    #[arg(long, value_name = "V", allow_hyphen_values = true)]
    fill: Option<i64>,
    /// Print every statement executed.
    #[arg(long)]
    trace: bool,
    /// An error condition over globals or `proc::local` (may repeat); default
    /// `error` when a variable of that name exists.
    #[arg(long = "error", value_name = "EXPR")]
    errors: Vec<String>,
    /// Give up after this many steps.
    #[arg(long, default_value_t = 10_000_000, value_name = "N")]
    max_steps: u64,
    /// Call this procedure (no arguments) before the entry, as `diff --init`.
    #[arg(long, value_name = "NAME")]
    init: Option<String>,
    /// Follow a violation witness (format 2.0, YAML): each
    /// `__VERIFIER_nondet_*` value is the one its waypoint gives (others take
    /// `--fill`, default 0); says whether the run confirms the witness.
    #[arg(long, value_name = "PATH", conflicts_with_all = ["choices", "choices_file", "seed", "init"])]
    witness: Option<std::path::PathBuf>,
    /// `main`'s arguments after `--`, `argv[0]` first (as `execv` takes
    /// them): `-- prog a aaaaaaaa` gives `argc` 3 and the strings.
    #[arg(last = true, value_name = "ARGV")]
    argv: Vec<std::ffi::OsString>,
}

/// An integer (decimal or `0x`), or a floating value as C writes it
/// (`0.5f`, `1e-3`, `nanf`: its bits, for a `float` or `double` draw).
fn parse_value(s: &str) -> Option<i64> {
    let s = s.trim();
    if let Some(bits) = crate::ir::float::parse_value_word(s) {
        return Some(bits);
    }
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        return i64::from_str_radix(h, 16).ok();
    }
    if let Some(h) = s.strip_prefix("-0x") {
        return i64::from_str_radix(h, 16).ok().map(|v| -v);
    }
    s.parse().ok()
}

pub fn cmd_run(ui: &Ui, args: &RunArgs) -> i32 {
    // A run checks the contracts as `check` does.
    let cfg = Config::front(args.front.lower_options(), &args.errors, true);
    let Some(Loaded {
        program: p,
        users: conditions,
        ..
    }) = load_file(ui, &args.file, &cfg)
    else {
        return EXIT_USAGE;
    };
    let mut inputs = BTreeMap::new();
    for kv in &args.inputs {
        let Some((k, v)) = kv.split_once('=') else {
            ui.error(&format!("`--input {kv}`: expected NAME=VALUE"));
            return EXIT_USAGE;
        };
        let Some(v) = parse_value(v) else {
            ui.error(&format!(
                "`--input {kv}`: `{v}` is not a number (an integer, or a floating value such as `0.5f`)"
            ));
            return EXIT_USAGE;
        };
        inputs.insert(k.trim().replace(' ', ""), v);
    }
    let argv = crate::views::argv_words::Argv::of(&p);
    if !args.argv.is_empty() {
        let Some(a) = &argv else {
            ui.error("arguments after `--`: the entry does not read `argv` (a `main(int argc, char **argv)` that uses it does)");
            return EXIT_USAGE;
        };
        use std::os::unix::ffi::OsStrExt;
        let words: Vec<Vec<u8>> = args.argv.iter().map(|w| w.as_bytes().to_vec()).collect();
        inputs.extend(a.inputs(&words));
    }
    let mut choices = Vec::new();
    let from_file = match &args.choices_file {
        None => None,
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => Some(text.split_whitespace().collect::<Vec<_>>().join(",")),
            Err(e) => {
                ui.error(&format!("`--choices-file`: cannot read {}: {e}", path.display()));
                return EXIT_USAGE;
            }
        },
    };
    if let Some(c) = args.choices.as_ref().or(from_file.as_ref()) {
        for part in c.split(',').filter(|s| !s.trim().is_empty()) {
            match parse_value(part) {
                Some(v) => choices.push(v),
                None => {
                    ui.error(&format!(
                        "`--choices`: `{part}` is not a number (an integer, or a floating value such as `0.5f`)"
                    ));
                    return EXIT_USAGE;
                }
            }
        }
    }
    let cfg = interp::Config {
        inputs,
        choices,
        seed: args.seed,
        fill: args.fill,
        max_steps: args.max_steps,
        conditions: conditions.clone(),
        watch: None,
    };
    let init = match &args.init {
        None => None,
        Some(g) => match p.proc_by_name(g) {
            Some(id) if p.proc(id).params.is_empty() => Some(id),
            Some(_) => {
                ui.error(&format!(
                    "`--init {g}`: the procedure takes arguments; `--init` calls it without"
                ));
                return EXIT_USAGE;
            }
            None => {
                ui.error(&format!("`--init {g}`: no procedure of that name in {}", p.source.name));
                return EXIT_USAGE;
            }
        },
    };
    let followed = match &args.witness {
        None => None,
        Some(w) => match super::follow_witness::load(&p, w, args.fill.unwrap_or(0)) {
            Ok(l) => Some((w, l)),
            Err(e) => {
                ui.error(&e);
                return EXIT_USAGE;
            }
        },
    };
    let made = match &followed {
        None => interp::run_after(&p, &cfg, init).map(|r| (r, None)),
        Some((_, l)) => interp::run_following(&p, &cfg, &l.follow).map(|(r, at)| (r, Some(at))),
    };
    let (run, progress) = match made {
        Ok(r) => r,
        Err(e) => {
            ui.error(&run_error_message(&p, &e));
            return EXIT_USAGE;
        }
    };
    let file = &p.source;
    outln!("{}: run of `{}`", file.name, p.proc(p.entry).name);
    show_inputs(&run, argv.as_ref());
    if !run.choices.is_empty() {
        outln!(
            "choices: {}",
            crate::views::text::drawn_choices_line(
                &crate::views::text::run_words(&run, &[], &run.choices).1,
                args.seed
            )
        );
    }
    if args.trace {
        outln!("trace:");
        out!("{}", render_trace(&p, &run.trace));
    }
    match (&followed, &progress) {
        (Some((w, l)), Some(at)) => {
            // A rejected run stopped at the waypoint, not at its end.
            if at.rejected.is_none() {
                show_outcome(ui, &p, &run, args, &conditions);
            }
            let (said, code) = super::follow_witness::verdict(&p, w, l, &run, at);
            outln!("{said}");
            code
        }
        _ => show_outcome(ui, &p, &run, args, &conditions),
    }
}

/// The run's inputs: `main`'s arguments as C writes them, the others
/// by name (those it never reads counted, not listed).
fn show_inputs(run: &interp::Run, argv: Option<&crate::views::argv_words::Argv>) {
    if run.inputs.is_empty() {
        return;
    }
    // The values the run never reads are counted, not listed.
    let unread: std::collections::HashSet<&String> = run.unused_inputs.iter().collect();
    let (words, _) = crate::views::text::run_words(run, &run.inputs, &[]);
    // `main`'s arguments as C writes them, not char by char.
    let said = argv.and_then(|a| Some((a, a.words(&run.inputs)?)));
    if let Some((_, w)) = &said {
        outln!("arguments: {}", crate::views::argv_words::describe(w));
    }
    let shown: Vec<String> = words
        .iter()
        .filter(|(k, _)| !unread.contains(k))
        .filter(|(k, _)| !said.as_ref().is_some_and(|(a, _)| a.is_argument(k)))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let argued = run
        .inputs
        .iter()
        .filter(|(k, _)| said.as_ref().is_some_and(|(a, _)| a.is_argument(k)));
    let more = run.inputs.len() - shown.len() - argued.count();
    let mut line = shown.join(" ");
    match (more, shown.is_empty()) {
        (0, _) => {}
        (_, true) => line = format!("{more} never read (any value does)"),
        (_, false) => line.push_str(&format!(" ({more} more never read, any value does)")),
    }
    if !line.is_empty() {
        outln!("inputs: {line}");
    }
}

/// The `result:` line of a run (and its globals); the exit code.
fn show_outcome(ui: &Ui, p: &Program, run: &interp::Run, args: &RunArgs, conditions: &[cond::UserCond]) -> i32 {
    let steps = run.trace.len();
    match &run.outcome {
        Outcome::Error { site, node, .. } if p.site(*site).kind == crate::ir::SiteKind::Limit => {
            let beyond = if p.site(*site).vla {
                "declares a variable-length array larger than the model holds (raise --vla-elems)"
            } else if p.site(*site).past_elements() {
                "reaches past the elements the model holds of a parameter's array (raise --param-elems)"
            } else if p.site(*site).pool {
                "allocates more objects at this call than the model has (raise --heap-instances)"
            } else {
                "allocates beyond the heap model (more than --heap-elems elements)"
            };
            ui.error(&format!(
                "the run {beyond} at {}: what it does from there is not modelled",
                p.location(p.node(*node).span)
            ));
            EXIT_USAGE
        }
        Outcome::Error { site, node, index } => {
            outln!(
                "result: error: {} at {} (after {steps} steps)",
                crate::views::describe_error(p, *site, *index),
                p.location(p.node(*node).span)
            );
            if let Some(fact) = crate::views::error_fact(p, run) {
                outln!("fact: {fact}");
            }
            EXIT_ERROR_FOUND
        }
        Outcome::Condition { index, node } => {
            outln!(
                "result: error: condition `{}` holds after {} (after {steps} steps)",
                conditions[*index].text,
                p.location(p.node(*node).span)
            );
            EXIT_ERROR_FOUND
        }
        Outcome::Halted { node } => {
            outln!(
                "result: stopped without error at {} (`{}`)",
                p.location(p.node(*node).span),
                one_line(p.text(p.node(*node).span))
            );
            print_globals(p, &run.globals);
            EXIT_OK
        }
        Outcome::Finished => {
            let returned = run
                .returned
                .map(|v| format!(", `{}` returned {v}", p.proc(p.entry).name))
                .unwrap_or_default();
            outln!("result: finished without error{returned} (after {steps} steps)");
            print_globals(p, &run.globals);
            EXIT_OK
        }
        Outcome::Overflow { node } => {
            ui.error(&format!(
                "arithmetic overflow at {}: values beyond 64 bits are not modelled",
                p.location(p.node(*node).span)
            ));
            EXIT_USAGE
        }
        Outcome::StepLimit => {
            ui.error(&format!(
                "the run did not finish within {} steps (see --max-steps)",
                args.max_steps
            ));
            EXIT_USAGE
        }
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The globals at the end, as C shows them: a pointer as `&a[2]` (its
/// offset leaf with it), the memory model's own variables and the taken
/// locals it keeps in global storage left out.
fn print_globals(p: &Program, globals: &[i64]) {
    let layout = p.layout();
    let pointers = pointer_leaves(p);
    let offsets: HashSet<VarId> = pointers.values().copied().collect();
    let mut parts = Vec::new();
    for &g in &p.globals {
        let var = p.var(g);
        // A taken local lives in global storage but is declared in a body.
        let local = !var.is_static
            && p.procs
                .iter()
                .any(|f| f.span.lo <= var.span.lo && var.span.hi <= f.span.hi);
        // A heap object (`malloc@8`) holds more elements than were allocated.
        if is_internal(&var.name) || offsets.contains(&g) || local || is_heap_object(&var.name) {
            continue;
        }
        let off = layout.offset[g.index()] as usize;
        let name = p.qualified_name(g);
        match (var.len, pointers.get(&g)) {
            (None, Some(o)) => {
                let at = globals[layout.offset[o.index()] as usize];
                parts.push(format!("{name} = {}", p.memory.show(globals[off], at)))
            }
            (None, None) => parts.push(format!("{name} = {}", globals[off])),
            (Some(n), _) => {
                let vals: Vec<String> = globals[off..off + n as usize].iter().map(|v| v.to_string()).collect();
                parts.push(format!("{name} = [{}]", vals.join(", ")));
            }
        }
    }
    if parts.is_empty() {
        outln!("globals: none");
    } else {
        outln!("globals: {}", parts.join(", "));
    }
}

/// Every statement executed, in C: the memory model's own steps (its
/// temporaries, the cases of a dereference's split) are left out but for
/// the object a dereference accessed, and a pointer's value shows as
/// `&a[2]`.
fn render_trace(p: &Program, trace: &[interp::Step]) -> String {
    let pointers = pointer_leaves(p);
    let offsets: HashSet<VarId> = pointers.values().copied().collect();
    let mut out = String::new();
    for (pos, s) in trace.iter().enumerate() {
        let node = p.node(s.node);
        let indent = "  ".repeat(s.depth as usize + 1);
        let loc = p.source.start(node.span);
        let text = one_line(p.text(node.span));
        let line = match &node.kind {
            NodeKind::Branch { .. } if p.is_access_branch(s.node) => {
                match p.access_outcome(s.node, s.outcome.unwrap_or(false)) {
                    Some(what) if !what.is_empty() => format!("`{text}` {what}"),
                    _ => continue,
                }
            }
            NodeKind::Branch { .. } => format!("{text} -> {}", s.outcome.unwrap_or(false)),
            NodeKind::Assign { place, .. } | NodeKind::Havoc { place, .. }
                if p.is_model_write(s.node, place.var) || offsets.contains(&place.var) =>
            {
                continue
            }
            NodeKind::Assign { place, .. } if place.index.is_none() && pointers.contains_key(&place.var) => {
                // The offset leaf is written next.
                let off = trace.get(pos + 1).and_then(|n| match &p.node(n.node).kind {
                    NodeKind::Assign { place: o, .. } if Some(&o.var) == pointers.get(&place.var) => n.value,
                    _ => None,
                });
                match (s.value, off) {
                    (Some(tag), Some(off)) => format!("{text}   [= {}]", p.memory.show(tag, off)),
                    _ => text,
                }
            }
            NodeKind::Assign { place, .. } | NodeKind::Havoc { place, .. } => match s.value {
                Some(v) => format!("{text}   [= {}]", p.value_text(p.var(place.var).ty, v)),
                None => text,
            },
            NodeKind::Call { callee, .. } => format!("call {}", p.proc(*callee).name),
            NodeKind::Return { .. } => match s.value {
                Some(v) => format!("{text}   [returns {v}]"),
                None => text,
            },
            NodeKind::Exit => format!("end of {}", p.proc(node.proc).name),
            NodeKind::Error { .. } | NodeKind::Halt => text,
            NodeKind::Skip { .. } => {
                if p.unit(node.unit).kind == UnitKind::Label && p.text(node.span).starts_with(['w', 'f', 'd']) {
                    format!(
                        "loop head `{}`",
                        one_line(p.text(node.span)).chars().take(40).collect::<String>()
                    )
                } else {
                    continue;
                }
            }
        };
        out.push_str(&format!("{indent}{}:{}  {line}\n", loc.line, loc.col));
    }
    out
}

fn run_error_message(p: &Program, e: &RunError) -> String {
    match e {
        RunError::MissingInput { name, node } => format!(
            "no value for input `{name}`, which {} reads (`{}`): give it with `--input {name}=VALUE`, or use `--seed N` or `--fill V`",
            p.location(p.node(*node).span),
            one_line(p.text(p.node(*node).span))
        ),
        RunError::UnknownInput { name, known } => {
            if known.is_empty() {
                format!("`{name}` is not an input: this program has no inputs")
            } else {
                format!("`{name}` is not an input; the inputs are: {}", known.join(", "))
            }
        }
        RunError::InputOutOfRange { name, value, range } => {
            format!(
                "input `{name}` = {value} is outside its type's range {}..{}",
                range.0, range.1
            )
        }
        RunError::MissingChoice { node, index } => format!(
            "the run needs choice number {} at {} (`{}`): extend `--choices`, or use `--seed N` or `--fill V`",
            index + 1,
            p.location(p.node(*node).span),
            one_line(p.text(p.node(*node).span))
        ),
        RunError::ChoiceOutOfRange {
            node,
            index,
            value,
            range,
        } => format!(
            "choice number {} = {value} at {} is outside {}..{}",
            index + 1,
            p.location(p.node(*node).span),
            range.0,
            range.1
        ),
    }
}
