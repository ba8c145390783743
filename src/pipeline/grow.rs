//! A larger heap pool where the default one binds: when the user did not
//! give `--heap-instances` and a check leaves a condition open at an
//! allocating call that runs more times than it has objects (a `pool`
//! limit site), the file is lowered again with twice the objects per call
//! and checked again by the Datalog engine within `GROW_STATES` and the
//! same `--timeout` (counted from the same start), up to `POOLS`' last. A
//! list of six nodes, a tree of five keys: unknown at the default 4,
//! decided at 8.
//!
//! A check on a larger pool is taken only when it decides more: fewer
//! conditions unknown, and every condition found unsafe still unsafe (the
//! runs within the smaller pool are runs of the larger one). Both are
//! counts, so which pool a report comes from does not depend on the
//! machine's load, except where the clock cut a check, as anywhere.

use super::{check, load_source, Checked, Config, Loaded};
use crate::analysis::{CheckOptions, Verdict};
use crate::check::Report;
use crate::engines::Engine;
use crate::ir::lower::LowerOptions;
use crate::ir::Program;
use std::collections::BTreeSet;
use std::time::Instant;

/// The pools tried after the default one, in order.
pub const POOLS: [u32; 2] = [8, 16];
/// The states explored on a larger pool, at most.
pub const GROW_STATES: u64 = 20_000;

/// A check, on the pool it was decided with (`Report::heap_instances`
/// says which, when larger than the configuration's: what a replay must
/// be given).
pub struct Grown {
    pub loaded: Loaded,
    pub checked: Checked,
}

/// Checks `loaded` (`check`), then again on larger pools while the pool
/// is what leaves conditions open (`Config::grow_pool`).
pub fn check_growing(loaded: Loaded, cfg: &Config, start: Instant) -> Grown {
    let checked = check(&loaded.program, &loaded.users, cfg, start);
    let mut best = Grown { loaded, checked };
    if !cfg.grow_pool {
        return best;
    }
    let deadline = cfg.check.engine.timeout.map(|t| start + t);
    let mut tried = Vec::new();
    for pool in POOLS.into_iter().filter(|&n| n > cfg.lower.heap_instances) {
        if !pool_binds(&best.loaded.program, &best.checked.report) || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let larger = on_pool(cfg, pool);
        let Ok(loaded) = load_source(best.loaded.file.clone(), &larger) else {
            break;
        };
        // Verdicts first: the explanation is paid for only when taken.
        let verdicts = Config {
            check: CheckOptions {
                explain: false,
                ..larger.check.clone()
            },
            fixes: None,
            ..larger.clone()
        };
        tried.push(pool);
        let probe = check(&loaded.program, &loaded.users, &verdicts, start);
        if !decides_more(
            (&best.loaded.program, &best.checked.report),
            (&loaded.program, &probe.report),
        ) {
            break;
        }
        let mut checked = check(&loaded.program, &loaded.users, &larger, start);
        checked.report.heap_instances = Some(pool);
        best = Grown { loaded, checked };
    }
    best.checked.report.pools_tried = tried;
    best
}

/// `cfg` on a pool of `pool` objects per call, explored by the Datalog
/// engine alone within `GROW_STATES`: a structure the pool bounds is
/// explored in full well within it, and a list of any length stops there
/// at a cost of seconds (the VC engine's share would grow with the pool).
fn on_pool(cfg: &Config, pool: u32) -> Config {
    let mut larger = Config {
        lower: LowerOptions {
            heap_instances: pool,
            ..cfg.lower.clone()
        },
        engine: Engine::Fsum,
        ..cfg.clone()
    };
    let states = &mut larger.check.engine.max_states;
    *states = (*states).min(GROW_STATES);
    larger.check.handover_states = None;
    larger
}

/// Is a condition open at a `pool` limit site (a call that may allocate
/// more objects than it has)?
fn pool_binds(p: &Program, r: &Report) -> bool {
    r.results
        .iter()
        .any(|res| res.verdict != Verdict::Safe && r.condition(res).site().is_some_and(|s| p.site(s).pool))
}

/// Does the second check decide more than the first: fewer unknowns, and
/// every unsafe condition of the first unsafe in the second (conditions
/// named by kind, place and text, the same in both lowerings)?
fn decides_more(first: (&Program, &Report), second: (&Program, &Report)) -> bool {
    let unknown = |r: &Report| r.results.iter().filter(|x| x.verdict == Verdict::Unknown).count();
    let unsafe_ = |(p, r): (&Program, &Report)| -> BTreeSet<String> {
        r.results
            .iter()
            .filter(|x| x.verdict == Verdict::Unsafe)
            .map(|x| {
                let c = r.condition(x);
                let at = c.site().map(|s| p.source.start(p.site(s).span));
                format!("{at:?} {}", c.describe(p))
            })
            .collect()
    };
    unknown(second.1) < unknown(first.1) && unsafe_(first).is_subset(&unsafe_(second))
}
