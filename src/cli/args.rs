//! Argument groups several commands share (clap `#[command(flatten)]`):
//! one definition, one help text, one meaning.

use super::options;
use crate::analysis::step;
use crate::context::conditions::Property;
use crate::engines::{self, VcPlan};
use crate::views::text::View;
use clap::Args;
use std::time::Duration;

/// Which error conditions (`check`, `verify`).
#[derive(Args, Clone)]
pub struct CondArgs {
    /// An error condition over globals or `proc::local`, e.g. `--error
    /// 'getlock::error'` (may repeat). Default: `error` when a global or
    /// entry local of that name exists.
    #[arg(long = "error", value_name = "EXPR")]
    pub errors: Vec<String>,
    /// Which errors to report: `all`, SV-COMP's `unreach-call`
    /// (reach_error and __VERIFIER_assert only), `user` (the `--error`
    /// conditions only) or `no-overflow` (signed arithmetic overflow only).
    #[arg(long, value_enum, default_value_t = Property::All)]
    pub property: Property,
}

/// What the Datalog engine may spend (`check`, `diff`).
#[derive(Args, Clone)]
pub struct BudgetArgs {
    /// Loop iterations (per path and loop entry) explored exactly before
    /// what the loop changes is widened to unknown values (variables
    /// assigned only constants never are); also the recursion depth.
    #[arg(long, default_value_t = step::DEFAULT_UNROLL, value_name = "K")]
    pub unroll: u32,
    /// Give up on a file after this many seconds (its open conditions
    /// become `unknown`; the JSON says `truncated`). Exploration, the
    /// counterexample search, the VC engine and the explanation each get a
    /// share of it.
    #[arg(long, value_name = "SECONDS", value_parser = options::seconds, default_value = options::DEFAULT_TIMEOUT)]
    pub timeout: Option<Duration>,
    /// Give up exploring after this many states (default 2,000,000; under
    /// `--engine auto`, once the VC engine has had its turn, what it left
    /// open is explored up to 400,000 states unless this is given).
    #[arg(long, value_name = "N", value_parser = options::count)]
    pub max_states: Option<usize>,
    /// Give up exploring when the process's resident memory exceeds this
    /// (e.g. 512M, 4G, or 25% of the machine's; default: half of it). The
    /// limit is for the whole process: with several jobs, the files being
    /// checked when it is reached are all cut short.
    #[arg(long, value_name = "SIZE", value_parser = options::memory)]
    pub max_memory: Option<u64>,
}

impl BudgetArgs {
    pub fn step_options(&self, summaries: bool) -> step::Options {
        step::Options {
            unroll: self.unroll,
            summaries,
            max_states: self.max_states.map_or(step::DEFAULT_MAX_STATES, |n| n as u64),
            timeout: self.timeout,
            memory: options::memory_budget(self.max_memory),
            exact_loops: false,
            stop_at_error: false,
            narrow: false,
        }
    }
}

/// How the VC engine runs inside `check` (`--engine vc`, and `auto` for
/// what the Datalog engine leaves open).
#[derive(Args, Clone)]
pub struct VcPlanArgs {
    /// The loop unrolling bounds the VC engine tries, in order, for
    /// counterexamples (each follows every loop that many times).
    #[arg(long, value_name = "K,...", value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..),
          default_values_t = engines::VC_UNROLL)]
    pub vc_unroll: Vec<u32>,
    /// The k of the VC engine's k-induction mode (its proofs of loops).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..),
          default_value_t = engines::VC_K)]
    pub vc_k: u32,
    /// The VC engine inlines calls this deep; deeper (and deeper
    /// recursive) calls havoc their result and the globals they may write.
    #[arg(long, default_value_t = crate::vc::INLINE_DEPTH, value_name = "D")]
    pub inline_depth: u32,
}

impl VcPlanArgs {
    /// The plan of these options (the rest as `VcPlan::default`).
    pub fn plan(&self) -> VcPlan {
        VcPlan {
            unroll: self.vc_unroll.clone(),
            k: self.vc_k,
            inline_depth: self.inline_depth,
            ..VcPlan::default()
        }
    }

    /// The options that differ from the defaults, as a command line says them.
    pub fn flags(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if self.vc_unroll != engines::VC_UNROLL {
            let list: Vec<String> = self.vc_unroll.iter().map(u32::to_string).collect();
            out.push(("--vc-unroll", list.join(",")));
        }
        if self.vc_k != engines::VC_K {
            out.push(("--vc-k", self.vc_k.to_string()));
        }
        if self.inline_depth != crate::vc::INLINE_DEPTH {
            out.push(("--inline-depth", self.inline_depth.to_string()));
        }
        out
    }
}

/// What to show of an error (`check`, `diff`).
#[derive(Args, Clone)]
pub struct ShowArgs {
    /// What to show of an error: `reduced` (where the fix belongs, the
    /// default), `fss` (every focus-statement sequence with its assumptions)
    /// or `full` (complete counterexamples with concrete inputs).
    #[arg(long, value_enum, default_value_t = View::Reduced)]
    pub view: View,
    /// Show only the FSS of this rank (its reduced form in the reduced view).
    #[arg(long, value_name = "N", conflicts_with = "no_explain", value_parser = options::count)]
    pub fss: Option<usize>,
    /// Show only assumptions over these inputs, e.g. `--project a2,a3`.
    #[arg(long, value_name = "VAR,...", value_delimiter = ',')]
    pub project: Option<Vec<String>>,
    /// Verdicts and counterexamples only: no focus-statement sequences,
    /// Reduce or NEST (faster on large batches).
    #[arg(long)]
    pub no_explain: bool,
    /// Backward steps for further FSSs through the explored graph, after
    /// each counterexample's own FSS (which this budget never cuts). Default:
    /// 200,000 plus 8 per explored state; a cut listing says "incomplete".
    #[arg(long, value_name = "N", conflicts_with = "no_explain", value_parser = options::count)]
    pub explain_steps: Option<usize>,
    /// List the safe conditions too (by default a report lists the unsafe
    /// and unknown ones and counts the safe ones).
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Print relation sizes and rule times.
    #[arg(long)]
    pub stats: bool,
    /// Every step of traces and FSSs; by default, consecutive runs of the
    /// same statements (loop iterations, recursive calls) are folded into
    /// one entry with a count, the first and last runs, and value ranges.
    #[arg(long)]
    pub full_trace: bool,
    /// List every FSS found: by default JSON, SARIF and HTML list the 10
    /// highest ranked (the rest are counted in `fss_omitted`) and the fss
    /// view shows as many.
    #[arg(long)]
    pub all_fss: bool,
}

impl ShowArgs {
    /// How much of an explanation the documents list.
    pub fn listing(&self) -> crate::views::json::Listing {
        crate::views::json::Listing {
            full_trace: self.full_trace,
            all_fss: self.all_fss,
        }
    }
}

/// Preprocessing, as a C compiler's `-D`, `-U` and `-I` (every command
/// that reads C).
#[derive(Args, Clone, Default)]
pub struct PpArgs {
    /// Define a macro before the file, as `#define NAME VALUE` (`-D NAME`
    /// defines it as 1). May repeat.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// Undefine a macro (also a predefined one) before the file. May repeat.
    #[arg(short = 'U', value_name = "NAME")]
    pub undef: Vec<String>,
    /// Search this directory for `#include` files (after the including
    /// file's own for `"..."`, before the shipped headers). May repeat.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<std::path::PathBuf>,
}

impl PpArgs {
    pub fn options(&self) -> crate::syntax::preprocess::PpOptions {
        crate::syntax::preprocess::PpOptions {
            defines: self.define.clone(),
            undefs: self.undef.clone(),
            include_dirs: self.include.clone(),
            read: Some(read_header),
        }
    }

    /// These options as a command line gives them.
    pub fn flags(&self) -> Vec<String> {
        let word = |s: &str| super::check::shell_word(s);
        let mut out: Vec<String> = self.define.iter().map(|d| format!("-D {}", word(d))).collect();
        out.extend(self.undef.iter().map(|u| format!("-U {}", word(u))));
        out.extend(
            self.include
                .iter()
                .map(|i| format!("-I {}", word(&i.display().to_string()))),
        );
        out
    }
}

/// A header's bytes, if `path` is a readable file.
fn read_header(path: &std::path::Path) -> Option<Vec<u8>> {
    path.is_file().then(|| std::fs::read(path).ok()).flatten()
}
