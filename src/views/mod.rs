//! How results look: text for people, JSON for tools. Views read results;
//! they never compute them.

pub mod argv_words;
pub mod assumptions;
pub mod correctness_witness;
pub mod diagnose;
pub mod diff;
pub mod documents;
pub mod doomed;
pub mod fixes;
pub mod fold;
pub mod harness;
pub mod html;
pub mod json;
pub mod listing;
pub mod loop_entry;
pub mod loop_guard;
pub mod repeats;
pub mod replay;
pub mod sarif;
pub mod snippet;
pub mod testcomp;
pub mod text;
pub mod trace;
pub mod vcs;
pub mod verify;
pub mod violation_witness;
pub mod waypoints;
pub mod witness_assumptions;
pub mod witness_entry;
pub mod wrap;

use crate::ir::{Program, SiteId, SiteKind};

/// What happened at an error site in a run: for a bounds error, the index
/// and the array's size (`index 10 out of bounds for a[10] in `a[i]``).
pub fn describe_error(p: &Program, site: SiteId, index: Option<i64>) -> String {
    let s = p.site(site);
    match (s.kind, index, s.array) {
        (SiteKind::Bounds, Some(i), Some(a)) => {
            let var = p.var(a);
            let name = crate::ir::product::strip_reference(&var.name);
            let text =
                crate::ir::product::strip_reference(&p.text(s.span).split_whitespace().collect::<Vec<_>>().join(" "));
            format!("index {i} out of bounds for {name}[{}] in `{text}`", var.slots())
        }
        _ => describe_site(p, site),
    }
}

/// The fact of a run's error, in a few words: for an access out of
/// bounds the index and the array's size, and the values of the variables
/// the failed check reads (`index 8, `data` has 8 elements`; `y = 10, x = 0`).
pub fn error_fact(p: &Program, run: &crate::interp::Run) -> Option<String> {
    let crate::interp::Outcome::Error { site, index, .. } = &run.outcome else {
        return None;
    };
    let s = p.site(*site);
    let mut parts = Vec::new();
    let shown = |a: crate::ir::VarId| {
        let name = crate::ir::product::strip_reference(&p.var(a).name);
        // A local moved to global storage keeps its procedure's name in front.
        name.rsplit_once("::").map_or(name.clone(), |(_, n)| n.to_string())
    };
    match (s.kind, index, s.array, run.bad_access) {
        (SiteKind::Bounds, Some(i), Some(a), _) => {
            parts.push(format!(
                "index {i}, `{}` has {}",
                shown(a),
                elements(p.var(a).slots() as i64)
            ));
        }
        (SiteKind::Deref, _, _, Some((a, i))) => {
            let slots = p.var(a).slots() as i64;
            let full = crate::ir::product::strip_reference(&p.var(a).name);
            let (name, i, n) = match in_row(p, &full, i, slots) {
                Some((row, j, n)) => (row.rsplit_once("::").map_or(row.clone(), |(_, r)| r.to_string()), j, n),
                None => (shown(a), i, slots),
            };
            parts.push(format!("element {i} of `{name}`, which has {}", elements(n)));
        }
        (SiteKind::Deref, _, _, None) => {
            parts.extend(vla_fact(p, &run.error_values));
            parts.extend(heap_fact(p, run, s.span));
        }
        _ => {}
    }
    if s.kind == SiteKind::DivByZero {
        parts.push("the divisor is 0".to_string());
    }
    if let (SiteKind::Overflow, Some((v, ty))) = (s.kind, run.overflow) {
        let text = p.text(s.span).split_whitespace().collect::<Vec<_>>().join(" ");
        let (lo, hi) = ty.range();
        let bound = if v > hi {
            format!("at most {hi}")
        } else {
            format!("at least {lo}")
        };
        parts.push(format!("`{text}` is {v}; `{}` holds {bound}", ty.c_name()));
    }
    if s.vla {
        // The size is held in a hidden variable (`crate::ir::dims`).
        return run.error_values.first().map(|(_, n)| format!("the size is {n}"));
    }
    let values: Vec<String> = run
        .error_values
        .iter()
        .filter(|(v, _)| {
            // Names of the tool's own (temporaries, the memory model's,
            // `diff`'s results): C reserves `__` for the implementation.
            let var = p.var(*v);
            var.kind != crate::ir::VarKind::Temp
                && !var.name.starts_with("__")
                && !crate::ir::pointers::is_internal(&var.name)
        })
        .map(|(v, x)| {
            let var = p.var(*v);
            let name = crate::ir::product::strip_reference(&var.name);
            match pointer_fact(p, *v, *x, &run.error_values) {
                Some(said) => format!("`{name}` {said}"),
                None => format!("{name} = {}", p.value_text(var.ty, *x)),
            }
        })
        .collect();
    if !values.is_empty() {
        parts.push(values.join(", "));
    }
    parts.extend(wrapped(p, run, index.or(run.bad_access.map(|b| b.1))));
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// Element `i` of the storage (of `slots` elements) of an array field of
/// an array's elements (`crate::ir::mem` lays its rows column by column):
/// the row, the index in it and the row's length (`t[1].nm`, 3, 3).
fn in_row(p: &Program, storage: &str, i: i64, slots: i64) -> Option<(String, i64, i64)> {
    let o = p.memory.objects.iter().find(|o| o.base == storage)?;
    let (n, at) = (o.stride?, o.index_at?);
    (i >= 0 && at <= storage.len()).then(|| {
        let name = format!("{}[{}]{}", &storage[..at], i % n, &storage[at..]);
        (name, i / n, slots / n)
    })
}

/// What a pointer's tag leaf `v` with value `tag` says in C: "is NULL",
/// "points to `malloc@12#3`" (`&x`, `&a[2]` with its offset when the fact
/// has it), "points to no object" (an uninitialised or made-up value);
/// `None` when `v` is no pointer.
fn pointer_fact(p: &Program, v: crate::ir::VarId, tag: i64, values: &[(crate::ir::VarId, i64)]) -> Option<String> {
    let off_var = *crate::ir::pointers::pointer_leaves(p).get(&v)?;
    let off = values.iter().find(|&&(w, _)| w == off_var).map(|&(_, o)| o);
    Some(match (tag, off) {
        (0, None | Some(0)) => "is NULL".to_string(),
        (_, Some(o)) => match p.memory.spell(tag, o) {
            Some(c) => format!("= {c}"),
            None => "points to no object".to_string(),
        },
        (_, None) => match p.memory.object(tag) {
            Some(o) => format!("points into `{}`", o.base),
            None => "points to no object".to_string(),
        },
    })
}

/// The wrap-around behind a value the fact shows (the index, or a value
/// the failed check read), said as C does it: "`n - 1` wrapped from -1 to
/// 4294967295 at line 8".
fn wrapped(p: &Program, run: &crate::interp::Run, index: Option<i64>) -> Option<String> {
    let shown: Vec<i64> = index.into_iter().chain(run.error_values.iter().map(|v| v.1)).collect();
    let w = run.wraps.iter().rev().find(|w| shown.contains(&w.to))?;
    let text = p.text(w.span).split_whitespace().collect::<Vec<_>>().join(" ");
    let line = p.source.line_col(w.span.lo).line;
    Some(format!("`{text}` wrapped from {} to {} at line {line}", w.from, w.to))
}

/// An access through a pointer past a variable-length array's elements in
/// the run (its storage is longer, `crate::ir::dims`): the failed check
/// read the offset and the global holding the array's length.
fn vla_fact(p: &Program, values: &[(crate::ir::VarId, i64)]) -> Option<String> {
    let (k, name, n) = values.iter().enumerate().find_map(|(k, (v, n))| {
        let name = &p.var(*v).name;
        name.contains("::(elems").then_some((k, name, *n))
    })?;
    let i = values.iter().enumerate().find(|(j, _)| *j != k)?.1 .1;
    let array = name.split("::(elems").next()?.rsplit("::").next()?;
    Some(format!("element {i} of `{array}`, which has {}", elements(n)))
}

/// An access to a heap object that is not live in the run (the failed
/// check read its state, `ir::mem::heap`: 0 not allocated, 1 live, 2
/// freed): which object, and the call that freed it ("`cur->next`
/// accesses `malloc@12#3`, freed by `free(cur)` at line 21").
fn heap_fact(p: &Program, run: &crate::interp::Run, access: crate::syntax::source::Span) -> Option<String> {
    let (state, base, x) = run.error_values.iter().find_map(|&(v, x)| {
        let base = p.var(v).name.strip_suffix("::(state)")?;
        (x != 1).then_some((v, base, x))
    })?;
    let text = |span| p.text(span).split_whitespace().collect::<Vec<_>>().join(" ");
    let access = text(access);
    if x == 0 {
        return Some(format!(
            "`{access}` accesses `{base}`, which this run has not allocated"
        ));
    }
    // The last write of the state: the `free` (or `realloc`) that ended it.
    let freed = run.trace.iter().rev().find_map(|s| match &p.node(s.node).kind {
        crate::ir::NodeKind::Assign { place, .. } if place.var == state => Some(p.node(s.node).span),
        _ => None,
    });
    Some(match freed {
        Some(at) => format!(
            "`{access}` accesses `{base}`, freed by `{}` at line {}",
            text(at),
            p.source.line_col(at.lo).line
        ),
        None => format!("`{access}` accesses `{base}`, which was freed"),
    })
}

/// `1 element`, `8 elements`.
fn elements(n: i64) -> String {
    format!("{n} element{}", if n == 1 { "" } else { "s" })
}

/// What happens at an error site, as a sentence fragment.
pub fn describe_site(p: &Program, site: SiteId) -> String {
    let s = p.site(site);
    let text = p.text(s.span).split_whitespace().collect::<Vec<_>>().join(" ");
    match s.kind {
        SiteKind::Assert => format!("assertion `{text}` fails"),
        SiteKind::ReachError => format!("`{text}` is called"),
        SiteKind::Bounds if s.vla => format!("variable-length array size `{text}` is not positive"),
        SiteKind::Bounds => format!("index out of bounds in `{text}`"),
        SiteKind::DivByZero => format!("division by zero in `{text}`"),
        SiteKind::Overflow => format!("signed overflow in `{text}`"),
        SiteKind::Shift => format!("undefined shift in `{text}`"),
        SiteKind::Deref if p.memory.is_fn_call(s.span) => {
            format!("call through an invalid function pointer (null, or not a function of its type) in `{text}`")
        }
        SiteKind::Deref => format!("invalid pointer access in `{text}`"),
        SiteKind::Limit if s.vla => {
            format!("variable-length array larger than the model holds (--vla-elems) in `{text}`")
        }
        SiteKind::Limit if s.past_elements() => {
            format!("access past the elements the model holds (--param-elems) in `{text}`")
        }
        SiteKind::Limit if s.pool => {
            format!("allocation past the objects the call has (--heap-instances) in `{text}`")
        }
        SiteKind::Limit => format!("allocation beyond the heap model in `{text}`"),
        SiteKind::Leak => format!("memory leak at `{text}`: an allocated object is lost (not freed and unreachable, or not freed under valid-memcleanup)"),
    }
}
