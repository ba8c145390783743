//! The per-run state of the explorer: the interned ids of states, and the
//! budgets.
//!
//! Budgets are kept out of the transfer functions' results: the state
//! budget admits states (a state enters the graph only when admitted, so
//! `--max-states N` gives at most N states), and wall-clock time and memory
//! are watched by a thread outside the rules, which raises a stop signal
//! that the rules read (no rule reads a clock). A run that ends without a
//! stop and within the state budget has the same graph whatever order
//! Ascent evaluates the rules in; a cut run is never "safe".

use super::explore::State;
use super::state::Tables;
use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Reads the process's resident memory in bytes.
pub type ReadMemory = fn() -> Option<u64>;

pub const TIME_LIMIT: &str = "the time limit (--timeout) was reached";
pub const STATE_LIMIT: &str = "the state limit (--max-states) was reached";
/// `STATE_LIMIT` of `auto`'s exploration after the VC engine's turn.
pub const HANDOVER_LIMIT: &str =
    "the state limit after the VC engine's turn (400,000 states; give --max-states for more) was reached";
pub const MEMORY_LIMIT: &str = "the memory limit (--max-memory) was reached";
/// Never shown: a run that stops at its first error is discarded, or
/// kept with `EXACT_ERROR_ONLY`.
pub const ERROR_REACHED: &str = "an error state was reached";
/// The exact exploration kept for its error (`explore_exact_first`).
pub const EXACT_ERROR_ONLY: &str = "the state limit (--max-states) was reached before any error state \
     with loops widened; explored exactly, the program reaches an error state, and that exploration \
     stops there";

/// A stop signal raised from outside the rules, with its reason; the first
/// reason stays.
#[derive(Default)]
pub struct Stop(OnceLock<&'static str>);

impl Stop {
    pub fn raise(&self, why: &'static str) {
        let _ = self.0.set(why);
    }

    pub fn get(&self) -> Option<&'static str> {
        self.0.get().copied()
    }
}

/// The explorer's state for one run.
pub struct Run<'w> {
    pub t: Tables,
    max_states: u64,
    admitted: RefCell<HashSet<State>>,
    hit: Cell<Option<&'static str>>,
    stop: &'w Stop,
}

impl<'w> Run<'w> {
    pub fn new(max_states: u64, stop: &'w Stop) -> Run<'w> {
        Run {
            t: Tables::default(),
            max_states,
            admitted: RefCell::default(),
            hit: Cell::new(None),
            stop,
        }
    }

    /// Whether the run was told to stop (time or memory): then no state is
    /// expanded any more.
    pub fn stopped(&self) -> bool {
        match self.stop.get() {
            Some(why) => {
                self.note(why);
                true
            }
            None => false,
        }
    }

    /// Stops the run from inside (see `Options::stop_at_error`).
    pub fn raise(&self, why: &'static str) {
        self.stop.raise(why);
    }

    fn note(&self, why: &'static str) {
        if self.hit.get().is_none() {
            self.hit.set(Some(why));
        }
    }

    /// Whether state `s` is in the graph: an admitted state stays admitted;
    /// a new one is admitted while the state budget lasts and no stop was
    /// raised.
    pub fn admit(&self, s: State) -> bool {
        let mut admitted = self.admitted.borrow_mut();
        if admitted.contains(&s) {
            return true;
        }
        if self.stopped() {
            return false;
        }
        if admitted.len() as u64 >= self.max_states {
            self.note(STATE_LIMIT);
            return false;
        }
        admitted.insert(s);
        true
    }

    /// The state budget is used up: no new state will be admitted.
    pub fn full(&self) -> bool {
        self.admitted.borrow().len() as u64 >= self.max_states
    }

    /// Successors were left out because the state budget is used up.
    pub fn refuse(&self) {
        self.note(STATE_LIMIT);
    }

    /// Why the run was cut short, if it was.
    pub fn hit(&self) -> Option<&'static str> {
        self.hit.get().or_else(|| self.stop.get())
    }

    /// The ids the run interned, for the phases after it.
    pub fn into_tables(self) -> Tables {
        self.t
    }
}

/// Runs `f` while a watchdog thread raises `stop` once `deadline` passes or
/// the resident memory goes over the limit; the thread ends with `f`.
pub fn watched<R>(
    stop: &Stop,
    deadline: Option<Instant>,
    memory: Option<(u64, ReadMemory)>,
    f: impl FnOnce() -> R,
) -> R {
    if deadline.is_none() && memory.is_none() {
        return f();
    }
    let (done, wait) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || loop {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                stop.raise(TIME_LIMIT);
                return;
            }
            if let Some((limit, resident)) = memory {
                if resident().is_some_and(|r| r > limit) {
                    stop.raise(MEMORY_LIMIT);
                    return;
                }
            }
            let nap = match deadline {
                Some(d) => d
                    .saturating_duration_since(Instant::now())
                    .min(Duration::from_millis(20)),
                None => Duration::from_millis(20),
            };
            match wait.recv_timeout(nap) {
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                _ => return,
            }
        });
        let r = f();
        let _ = done.send(());
        r
    })
}
