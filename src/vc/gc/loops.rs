//! Loops in the guarded commands: the back edges of each loop mode
//! (unrolling, cut with invariants, three copies for `doomed`,
//! k-induction), the loop-entry values invariants compare with, and the
//! invariants' checks.

use super::*;
use crate::vc::term::BOUND;

impl Builder<'_> {
    pub(super) fn body_contains(&self, head: NodeId, n: NodeId) -> bool {
        self.a
            .loop_at
            .get(&head)
            .is_some_and(|&l| self.a.loops[l].body.contains(&n))
    }

    /// The block an edge `from -> to` (same frame) leads to: loop counters
    /// updated; a back edge over the bound ends the path.
    pub(super) fn edge(&mut self, from: &Inst, to: NodeId) -> usize {
        let mut loops: Vec<(NodeId, u32)> = from
            .loops
            .iter()
            .copied()
            .filter(|&(h, _)| self.body_contains(h, to))
            .collect();
        if let Loops::KInduction(k) = self.opts.loops {
            if kinduction::leaves_assumed(&from.loops, &loops, k) {
                return self.new_block(vec![Cmd::Assume(Formula::Bool(false))], Vec::new());
            }
        }
        if self.a.loop_at.contains_key(&to) {
            match loops.iter().position(|&(h, _)| h == to) {
                Some(i) => match self.opts.loops {
                    Loops::Unroll(k) => {
                        if loops[i].1 >= k {
                            let c = self.check(CheckKey::Unwind(to), to, self.p.node(to).span);
                            return self.new_block(
                                vec![Cmd::Assert(Formula::Bool(false), c), Cmd::Assume(Formula::Bool(false))],
                                Vec::new(),
                            );
                        }
                        loops[i].1 += 1;
                    }
                    Loops::Havoc => {
                        let mut cmds = Vec::new();
                        self.invariant_checks(to, from.frame, false, &mut cmds);
                        cmds.push(Cmd::Assume(Formula::Bool(false)));
                        return self.new_block(cmds, Vec::new());
                    }
                    Loops::Copies => return self.next_copy(from.frame, loops, i),
                    Loops::KInduction(k) => match kinduction::next(loops[i].1, k) {
                        Some(it) => loops[i].1 = it,
                        None => return self.new_block(vec![Cmd::Assume(Formula::Bool(false))], Vec::new()),
                    },
                },
                None if matches!(self.opts.loops, Loops::KInduction(_)) => {
                    // Base case and step case, side by side.
                    let mut step_cmds = Vec::new();
                    self.entry_values(to, from.frame, &mut step_cmds);
                    self.cut_loop(to, from.frame, &mut step_cmds);
                    let mut succs = Vec::new();
                    for it in [0, kinduction::STEP] {
                        let mut l = loops.clone();
                        l.push((to, it));
                        l.sort();
                        succs.push(self.inst(Inst {
                            node: to,
                            frame: from.frame,
                            loops: l,
                        }));
                    }
                    let step = self.new_block(step_cmds, vec![succs[1]]);
                    return self.new_block(Vec::new(), vec![succs[0], step]);
                }
                None => {
                    loops.push((to, 0));
                    loops.sort();
                    if self.opts.loops == Loops::Copies {
                        // The values its invariants compare with, as the
                        // loop is entered.
                        let mut cmds = Vec::new();
                        self.entry_values(to, from.frame, &mut cmds);
                        if !cmds.is_empty() {
                            let next = self.inst(Inst {
                                node: to,
                                frame: from.frame,
                                loops,
                            });
                            return self.new_block(cmds, vec![next]);
                        }
                    }
                }
            }
        }
        self.inst(Inst {
            node: to,
            frame: from.frame,
            loops,
        })
    }

    /// `Loops::Copies`: the back edge of copy `loops[i]` (0 the first pass,
    /// 1 an arbitrary one, 2 the last). The first goes on to the arbitrary
    /// copy (through a havoc) or straight to the last; the arbitrary one to
    /// the last through a havoc; the last ends the path.
    pub(super) fn next_copy(&mut self, frame: u32, mut loops: Vec<(NodeId, u32)>, i: usize) -> usize {
        let head = loops[i].0;
        let copy = loops[i].1;
        let mut at = |c: u32| {
            loops[i].1 = c;
            Inst {
                node: head,
                frame,
                loops: loops.clone(),
            }
        };
        match copy {
            0 => {
                let (any, last) = (at(1), at(2));
                let any = self.havoc_loop(head, frame, any);
                let last = self.inst(last);
                self.new_block(Vec::new(), vec![any, last])
            }
            1 => {
                let last = at(2);
                self.havoc_loop(head, frame, last)
            }
            _ => {
                let b = self.new_block(vec![Cmd::Assume(Formula::Bool(false))], Vec::new());
                self.gc.blocks[b].origin = Origin::LoopCut(head);
                b
            }
        }
    }

    /// A block that havocs what the loop at `head` writes, assumes its
    /// (proven) invariants and goes on to `next`.
    pub(super) fn havoc_loop(&mut self, head: NodeId, frame: u32, next: Inst) -> usize {
        let mut cmds = Vec::new();
        self.cut_loop(head, frame, &mut cmds);
        let next = self.inst(next);
        self.new_block(cmds, vec![next])
    }

    /// Any state satisfying the loop's invariants: havoc what the loop
    /// writes, assume the invariants.
    pub(super) fn cut_loop(&mut self, head: NodeId, frame: u32, cmds: &mut Vec<Cmd>) {
        let l = &self.a.loops[self.a.loop_at[&head]];
        for &v in &l.modifies {
            cmds.push(Cmd::Havoc(self.key(v, frame), None));
        }
        for (i, inv) in self.invariants.iter().enumerate() {
            if inv.head == head {
                let f = self.invariant(i, frame);
                // `Copies` is given proven invariants only; elsewhere
                // Houdini switches candidates off.
                let f = match self.opts.loops {
                    Loops::Copies => f,
                    _ => Formula::Enabled(i, Box::new(f)),
                };
                cmds.push(Cmd::Assume(f));
            }
        }
    }

    /// Records, on entering the loop at `head`, the values its invariants
    /// compare with (`Invariant::entry`).
    pub(super) fn entry_values(&mut self, head: NodeId, frame: u32, cmds: &mut Vec<Cmd>) {
        let invariants = self.invariants;
        for (i, inv) in invariants.iter().enumerate() {
            if inv.head != head {
                continue;
            }
            let counter;
            let (var, value) = match (&inv.expr, inv.visited) {
                // The counter's value: where the visited indices start.
                (_, Some(v)) => {
                    counter = Expr {
                        kind: ExprKind::Var(v.counter),
                        span: self.p.node(head).span,
                    };
                    (v.counter, &counter)
                }
                // Named after a scalar it reads (none: the invariant reads
                // `rhs` now, which is weaker).
                (BoolExpr::Atom(a), None) if inv.entry => match expr_var(&a.lhs) {
                    Some(var) => (var, &a.rhs),
                    None => continue,
                },
                _ => continue,
            };
            let (_, t) = self.pure_term(value, frame);
            let n = self.entry_values.len() as u32;
            let key = *self.entry_values.entry((i, frame)).or_insert(VarKey {
                var,
                frame: ENTRY_FRAMES + n,
            });
            cmds.push(Cmd::Assign(key, t));
        }
    }

    /// Invariant `i` as a formula in a frame.
    pub(super) fn invariant(&self, i: usize, frame: u32) -> Formula {
        let inv = &self.invariants[i];
        if let Some(v) = inv.visited {
            // `\forall k; entry <= k < x ==> expr[x := k]` (or
            // `x < k <= entry`); with no entry value recorded, `true` (as an
            // entry relation reads `x >= x` then).
            let Some(&at_entry) = self.entry_values.get(&(i, frame)) else {
                return Formula::Bool(true);
            };
            let x = self.key(v.counter, frame);
            let k = VarKey {
                var: v.counter,
                frame: BOUND,
            };
            let (lo, hi) = match v.step > 0 {
                true => (
                    Formula::Rel(RelOp::Le, Term::Var(at_entry), Term::Var(k)),
                    Formula::Rel(RelOp::Lt, Term::Var(k), Term::Var(x)),
                ),
                false => (
                    Formula::Rel(RelOp::Lt, Term::Var(x), Term::Var(k)),
                    Formula::Rel(RelOp::Le, Term::Var(k), Term::Var(at_entry)),
                ),
            };
            let body = self.bool_expr(&inv.expr, frame).1.rename(x, k);
            return Formula::Quant {
                forall: true,
                var: k,
                body: Box::new(Formula::Or(vec![
                    Formula::Not(Box::new(lo)),
                    Formula::Not(Box::new(hi)),
                    body,
                ])),
            };
        }
        match (&inv.expr, self.entry_values.get(&(i, frame))) {
            (BoolExpr::Atom(a), Some(&at_entry)) if inv.entry => {
                let (_, l) = self.pure_term(&a.lhs, frame);
                Formula::Rel(a.op, l, Term::Var(at_entry))
            }
            _ => self.bool_expr(&inv.expr, frame).1,
        }
    }

    /// Are the checks of this instance assumed (a k-induction step
    /// iteration before the checked one, here or in a caller)?
    pub(super) fn assumed(&self, inst: &Inst) -> bool {
        match self.opts.loops {
            Loops::KInduction(k) => self.frames[inst.frame as usize].assumed || kinduction::assumed(&inst.loops, k),
            _ => false,
        }
    }

    /// `assert inv` for every candidate invariant of the loop at `head`.
    pub(super) fn invariant_checks(&mut self, head: NodeId, frame: u32, init: bool, cmds: &mut Vec<Cmd>) {
        let span = self.p.node(head).span;
        for (i, inv) in self.invariants.iter().enumerate() {
            if inv.head != head {
                continue;
            }
            let f = self.invariant(i, frame);
            let c = self.check(CheckKey::Invariant { cand: i, init }, head, span);
            cmds.push(Cmd::Assert(Formula::Enabled(i, Box::new(f)), c));
        }
        if self.opts.contracts {
            self.spec_invariant_checks(head, frame, init, cmds);
        }
    }
}

/// A scalar variable an expression reads.
fn expr_var(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Const(_) | ExprKind::Elem(..) => None,
        ExprKind::Neg(x) | ExprKind::Conv(_, x) => expr_var(x),
        ExprKind::Checked { value, .. } => expr_var(value),
        ExprKind::Arith(_, a, b) | ExprKind::Bit { a, b, .. } => expr_var(a).or_else(|| expr_var(b)),
        ExprKind::Div { num, den, .. } => expr_var(num).or_else(|| expr_var(den)),
        ExprKind::Float { args, .. } => args.iter().find_map(expr_var),
    }
}
