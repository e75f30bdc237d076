//! Parse-only versus full analysis (DESIGN §3 aims at ≤ 2× the parse cost).
//!
//! (a) a generated Python file with 26 000 functions, (b) a generated tree of
//! 2 000 Java files, (c) any real tree named by `CALLGRAPH_BENCH_TREE`.
//! Run: `cargo bench -p engine` (figures in reports/PERFORMANCE.md).

use std::fmt::Write;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion};
use engine::Options;

fn python_26k(dir: &Path) {
    let mut s = String::new();
    for i in 0..26_000u32 {
        let _ = writeln!(
            s,
            "def f{i}(x):\n    return f{}(x) + len(x)\n",
            i.saturating_sub(1)
        );
    }
    std::fs::write(dir.join("many.py"), s).unwrap();
}

fn java_2000(dir: &Path) {
    for i in 0..2_000u32 {
        let pkg = format!("p{}", i % 20);
        let d = dir.join("src").join(&pkg);
        std::fs::create_dir_all(&d).unwrap();
        let prev = if i >= 20 {
            format!("p{}.C{}", (i - 20) % 20, i - 20)
        } else {
            "Object".to_string()
        };
        let body = format!(
            "package {pkg};\n\npublic class C{i} {{\n    private final StringBuilder sb = new StringBuilder();\n\n    public int size(int n) {{\n        return helper(n) + sb.length();\n    }}\n\n    private int helper(int n) {{\n        {prev} other = null;\n        return n * 2;\n    }}\n\n    public C{i} self() {{\n        return this;\n    }}\n\n    public int chain() {{\n        return self().self().size(3);\n    }}\n}}\n"
        );
        std::fs::write(d.join(format!("C{i}.java")), body).unwrap();
    }
}

/// Parse every file once, nothing else: the baseline the analysis is compared to.
fn parse_only(root: &Path, options: &Options) {
    let found = engine::discover::discover(root, &options.languages, &options.limits)
        .expect("CALLGRAPH_BENCH_TREE must name a readable directory (an absolute path)");
    engine::with_pool(options.threads, || {
        use rayon::prelude::*;
        found
            .files
            .par_iter()
            .for_each_init(tree_sitter::Parser::new, |p, f| {
                let tree = engine::parse::parse_only(p, f.language, &f.bytes);
                std::hint::black_box(tree);
            });
    });
}

fn bench_tree(c: &mut Criterion, name: &str, root: &Path) {
    let options = Options::default();
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.bench_function("parse_only", |b| b.iter(|| parse_only(root, &options)));
    group.bench_function("analysis", |b| {
        b.iter(|| engine::analyze(root, &options).unwrap())
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let py = tempfile::tempdir().unwrap();
    python_26k(py.path());
    bench_tree(c, "python_26k_functions", py.path());
    let java = tempfile::tempdir().unwrap();
    java_2000(java.path());
    bench_tree(c, "java_2000_files", java.path());
    if let Some(real) = std::env::var_os("CALLGRAPH_BENCH_TREE").map(PathBuf::from) {
        bench_tree(c, "real_tree", &real);
    }
}

criterion_group!(analysis, benches);
criterion_main!(analysis);
