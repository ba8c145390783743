//! Ascent against crepe on the points-to rules: each program's input
//! relations built once, each engine run 3 times (median), results compared.
//! Usage: bench_points_to [FILE...]  (no files: the generated programs).

use focuscheck::ir::points_to::{PointsTo, PointsToInput};
use focuscheck::ir::{lower::LowerOptions, narrow, points_to_crepe};
use focuscheck::syntax::source::SourceFile;
use std::sync::Arc;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// 16 int globals (the objects), `n` functions passing two pointers down a
/// chain (each writes through one), `n` pointers in `main` copied into
/// each other under input-chosen branches, and `n` calls.
fn generated(n: usize) -> String {
    const K: usize = 16;
    let mut s = String::from("extern int __VERIFIER_nondet_int(void);\n");
    for i in 0..K {
        s.push_str(&format!("int g{i};\n"));
    }
    s.push_str("void f0(int *r, int *s) { *r = 0; }\n");
    for i in 1..n {
        s.push_str(&format!(
            "void f{i}(int *r, int *s) {{ int *t = r; if (g{} > {i}) t = s; *t = {i}; f{}(t, r); }}\n",
            i % K,
            i - 1
        ));
    }
    s.push_str("int main(void) {\n  int in = __VERIFIER_nondet_int();\n");
    for i in 0..n {
        s.push_str(&format!("  int *p{i} = &g{};\n", i % K));
    }
    for i in 0..n {
        let (a, b, c) = (i, (i * 7 + 3) % n, (i * 13 + 5) % n);
        s.push_str(&format!("  if (in == {i}) p{a} = p{b};\n  *p{c} = {i};\n"));
        if i % 16 == 0 {
            s.push_str(&format!("  f{}(p{a}, p{b});\n", n - 1 - i % 4));
        }
    }
    s.push_str("  return 0;\n}\n");
    s
}

fn bench(name: &str, text: String) {
    let opts = LowerOptions::default();
    let (p, _) = focuscheck::load(Arc::new(SourceFile::new(name, text)), &opts);
    let Some(mut p) = p else {
        println!("{name}\tdoes not load");
        return;
    };
    narrow::restore(&mut p);
    let input = PointsToInput::new(&p);
    let (mut a, mut c) = (Vec::new(), Vec::new());
    let (mut ra, mut rc) = (PointsTo::default(), PointsTo::default());
    for _ in 0..3 {
        let t = Instant::now();
        ra = PointsTo::new(&input);
        a.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        rc = points_to_crepe::run(&input);
        c.push(t.elapsed().as_secs_f64());
    }
    let same = ra.live == rc.live && ra.live_edge == rc.live_edge && ra.value == rc.value && ra.top == rc.top;
    let (ma, mc) = (median(a), median(c));
    println!(
        "{name}\tnodes {}\tvalues {}\tascent {:.4}s\tcrepe {:.4}s\tcrepe/ascent {:.2}\tsame {same}",
        p.nodes.len(),
        ra.value.len(),
        ma,
        mc,
        mc / ma.max(1e-9)
    );
}

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        for n in [500, 1000, 2000, 4000] {
            bench(&format!("generated-{n}"), generated(n));
        }
    }
    for f in files {
        bench(&f, std::fs::read_to_string(&f).expect("read"));
    }
}
