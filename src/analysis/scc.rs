//! Strongly connected components of the call graph: procedures that can
//! call each other, directly or not, share a number (a recursive call is a
//! call inside one component). Tarjan's algorithm, iterative, linear in the
//! number of procedures and calls.

use crate::ir::*;

pub fn call_sccs(p: &Program) -> Vec<u32> {
    let n = p.procs.len();
    let mut callees: Vec<Vec<usize>> = vec![Vec::new(); n];
    for id in p.node_ids() {
        if let NodeKind::Call { callee, .. } = &p.node(id).kind {
            callees[p.node(id).proc.index()].push(callee.index());
        }
    }
    for cs in &mut callees {
        cs.sort_unstable();
        cs.dedup();
    }
    const NONE: usize = usize::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut comp = vec![0u32; n];
    let mut next_index = 0;
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        // (procedure, next callee to look at)
        let mut work = vec![(root, 0usize)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = work.last_mut() {
            if let Some(&w) = callees[v].get(*i) {
                *i += 1;
                if index[w] == NONE {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(u, _)) = work.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                // The component is named by its smallest procedure number.
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let name = *members.iter().min().expect("a component has its root") as u32;
                for w in members {
                    comp[w] = name;
                }
            }
        }
    }
    comp
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::lower::LowerOptions;
    use crate::syntax::source::SourceFile;
    use std::sync::Arc;

    fn sccs_of(src: &str) -> (Program, Vec<u32>) {
        let file = Arc::new(SourceFile::new("t.c", src.to_string()));
        let (p, diags) = crate::load(file, &LowerOptions::default());
        let p = p.unwrap_or_else(|| panic!("{diags:?}"));
        let s = call_sccs(&p);
        (p, s)
    }

    fn proc_named(p: &Program, name: &str) -> usize {
        p.proc_ids()
            .find(|&id| p.proc(id).name == name)
            .expect("procedure")
            .index()
    }

    #[test]
    fn mutual_recursion_is_one_component_and_plain_calls_are_not() {
        let (p, s) = sccs_of(
            "int odd(int n);\n\
             int even(int n) { if (n == 0) return 1; return odd(n - 1); }\n\
             int odd(int n) { if (n == 0) return 0; return even(n - 1); }\n\
             int f(int n) { if (n > 0) return f(n - 1); return 0; }\n\
             int g() { return 1; }\n\
             int main() { int x; return even(x) + f(x) + g(); }\n",
        );
        let (even, odd, f, g, main) = (
            proc_named(&p, "even"),
            proc_named(&p, "odd"),
            proc_named(&p, "f"),
            proc_named(&p, "g"),
            proc_named(&p, "main"),
        );
        assert_eq!(s[even], s[odd]);
        let distinct = [s[even], s[f], s[g], s[main]];
        for i in 0..distinct.len() {
            for j in 0..i {
                assert_ne!(distinct[i], distinct[j], "{s:?}");
            }
        }
    }
}
