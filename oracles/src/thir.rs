//! The calls of every body as rustc's THIR prints them (`-Zunpretty=thir-flat`, one
//! block per body: functions, methods, closures, constants), generic bodies and trait
//! default methods included — the IR has only what is instantiated.
//!
//! A call is `ExprKind::Call`: its callee type (`FnDef(DefId, generic arguments)`
//! for a function item, a method resolved by type check, or the trait method itself
//! when the receiver's type picks the impl; a function pointer otherwise), the span
//! of the callee expression (`fun`: the method's name for `a.b()`, the path for
//! `p::f()`), `fn_span`, and `from_hir_call` (false for the calls an operator, an
//! index or a deref makes). A tuple struct's or a variant's construction written as a
//! call is an `Adt` expression. Closures are bodies of their own; their positions
//! come from the `Closure` expressions that create them.

use crate::rustc_dump::{blocks, Def, DefId, Node, Ref, Span, Tree};

/// One body and what it calls.
#[derive(Debug, Clone)]
pub struct ThirBody {
    pub owner: Def,
    pub calls: Vec<ThirCall>,
    pub constructions: Vec<ThirAdt>,
    /// The closures this body creates, with the span of each `|…| …` expression.
    pub closures: Vec<(DefId, Span)>,
}

/// A call expression.
#[derive(Debug, Clone)]
pub struct ThirCall {
    pub callee: Callee,
    /// The callee expression's span.
    pub fun_span: Option<Span>,
    pub fn_span: Option<Span>,
    /// `from_hir_call: false`: the call an operator, an index or a deref makes.
    pub overloaded: bool,
    /// The nearest enclosing expression, statement or arm whose span lies in the
    /// package: for a call a macro of another crate makes, the macro's call site.
    pub anchor: Option<Span>,
}

/// What the callee expression's type says is called.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Callee {
    /// A function item: the definition and its generic arguments, each as printed
    /// (`util::Sq`, `T/#0`, `'{erased}`).
    FnDef { def: Def, args: Vec<String> },
    /// A function pointer or anything else that is a value.
    Value(String),
}

/// A struct or enum value built by an expression (`Sq(2.0)`, `Some(x)`,
/// `Counter { n: 0 }`).
#[derive(Debug, Clone)]
pub struct ThirAdt {
    /// The type's path as printed (`util::Sq`, `std::option::Option`).
    pub adt: String,
    pub variant: usize,
    pub span: Span,
}

/// Reads a `-Zunpretty=thir-flat` dump.
pub fn parse(text: &str) -> Vec<ThirBody> {
    blocks(text)
        .into_iter()
        .filter_map(|block| {
            let header = block.header.strip_suffix(':').unwrap_or(block.header);
            let owner = Def::parse(header)?;
            let tree = Tree::parse(block.body);
            let thir = tree.root().child(0).filter(|t| t.head() == "Thir")?;
            Some(read_body(owner, thir))
        })
        .collect()
}

/// An arena entry of a body: what encloses it and the span it covers.
#[derive(Debug, Clone, Default)]
struct Entry {
    parent: Option<Ref>,
    children: Vec<Ref>,
    span: Option<Span>,
}

struct Arenas {
    exprs: Vec<Entry>,
    blocks: Vec<Entry>,
    stmts: Vec<Entry>,
    arms: Vec<Entry>,
}

impl Arenas {
    fn entry_mut(&mut self, r: Ref) -> Option<&mut Entry> {
        match r {
            Ref::Expr(n) => self.exprs.get_mut(n),
            Ref::Block(n) => self.blocks.get_mut(n),
            Ref::Stmt(n) => self.stmts.get_mut(n),
            Ref::Arm(n) => self.arms.get_mut(n),
        }
    }

    fn entry(&self, r: Ref) -> Option<&Entry> {
        match r {
            Ref::Expr(n) => self.exprs.get(n),
            Ref::Block(n) => self.blocks.get(n),
            Ref::Stmt(n) => self.stmts.get(n),
            Ref::Arm(n) => self.arms.get(n),
        }
    }

    /// Where a call of a macro of another crate is written: the nearest enclosing
    /// span in a file of the package when a macro or a desugaring made it (it is
    /// the expansion's call site); when it is the source's own code around the
    /// expansion (a block the macro is the tail of), the nearest span of the
    /// package inside the call (the macro's arguments) is closer, when there is one.
    fn anchor(&self, start: Ref) -> Option<Span> {
        let outer = self.enclosing(start);
        match &outer {
            Some(span) if !span.root => outer,
            _ => self.within(start).or(outer),
        }
    }

    fn bound(&self) -> usize {
        self.exprs.len() + self.blocks.len() + self.stmts.len() + self.arms.len()
    }

    /// The first span in the package from `start` outwards.
    fn enclosing(&self, start: Ref) -> Option<Span> {
        let mut at = Some(start);
        for _ in 0..=self.bound() {
            let entry = self.entry(at?)?;
            if let Some(span) = entry.span.as_ref().filter(|s| s.in_package()) {
                return Some(span.clone());
            }
            at = entry.parent;
        }
        None
    }

    /// The nearest span in the package among what `start` contains (breadth first).
    fn within(&self, start: Ref) -> Option<Span> {
        let mut queue = std::collections::VecDeque::from([start]);
        let mut seen = std::collections::HashSet::from([start]);
        while let Some(at) = queue.pop_front() {
            let entry = self.entry(at)?;
            if at != start {
                if let Some(span) = entry.span.as_ref().filter(|s| s.in_package()) {
                    return Some(span.clone());
                }
            }
            for &child in &entry.children {
                if seen.insert(child) {
                    queue.push_back(child);
                }
            }
        }
        None
    }
}

fn list<'t, 'a>(thir: Node<'t, 'a>, key: &str) -> Vec<Node<'t, 'a>> {
    thir.field(key)
        .map(|l| l.children().collect())
        .unwrap_or_default()
}

fn read_body(owner: Def, thir: Node<'_, '_>) -> ThirBody {
    let exprs = list(thir, "exprs");
    let block_nodes = list(thir, "blocks");
    let stmt_nodes = list(thir, "stmts");
    let arm_nodes = list(thir, "arms");
    let mut arenas = Arenas {
        exprs: vec![Entry::default(); exprs.len()],
        blocks: vec![Entry::default(); block_nodes.len()],
        stmts: vec![Entry::default(); stmt_nodes.len()],
        arms: vec![Entry::default(); arm_nodes.len()],
    };
    let link = |owner: Ref, node: Node<'_, '_>, arenas: &mut Arenas| {
        for child in node.references() {
            if child == owner {
                continue;
            }
            let linked = match arenas.entry_mut(child) {
                Some(entry) if entry.parent.is_none() => {
                    entry.parent = Some(owner);
                    true
                }
                _ => false,
            };
            if linked {
                if let Some(entry) = arenas.entry_mut(owner) {
                    entry.children.push(child);
                }
            }
        }
    };
    for (n, expr) in exprs.iter().enumerate() {
        arenas.exprs[n].span = expr.leaf("span").and_then(Span::parse);
        if let Some(kind) = expr.field("kind") {
            link(Ref::Expr(n), kind, &mut arenas);
        }
    }
    for (n, block) in block_nodes.iter().enumerate() {
        arenas.blocks[n].span = block.leaf("span").and_then(Span::parse);
        for key in ["stmts", "expr"] {
            if let Some(field) = block.field(key) {
                link(Ref::Block(n), field, &mut arenas);
            }
        }
    }
    for (n, stmt) in stmt_nodes.iter().enumerate() {
        let kind = stmt.field("kind");
        arenas.stmts[n].span = kind.and_then(|k| k.leaf("span")).and_then(Span::parse);
        if let Some(kind) = kind {
            link(Ref::Stmt(n), kind, &mut arenas);
        }
    }
    for (n, arm) in arm_nodes.iter().enumerate() {
        arenas.arms[n].span = arm.leaf("span").and_then(Span::parse);
        for key in ["guard", "body"] {
            if let Some(field) = arm.field(key) {
                link(Ref::Arm(n), field, &mut arenas);
            }
        }
    }

    let mut body = ThirBody {
        owner,
        calls: Vec::new(),
        constructions: Vec::new(),
        closures: Vec::new(),
    };
    for (n, expr) in exprs.iter().enumerate() {
        let Some(kind) = expr.field("kind") else {
            continue;
        };
        match kind.head() {
            "Call" => body.calls.push(read_call(kind, &exprs, &arenas, n)),
            "Adt" => {
                if let (Some(adt), Some(span)) = (kind.inner(), arenas.exprs[n].span.clone()) {
                    body.constructions.push(ThirAdt {
                        adt: adt.leaf("adt_def").unwrap_or("").to_string(),
                        variant: adt
                            .leaf("variant_index")
                            .and_then(|v| v.parse().ok())
                            .unwrap_or(0),
                        span,
                    });
                }
            }
            "Closure" => {
                let id = kind
                    .inner()
                    .and_then(|c| c.leaf("closure_id"))
                    .and_then(Def::parse);
                if let (Some(def), Some(span)) = (id, arenas.exprs[n].span.clone()) {
                    body.closures.push((def.id, span));
                }
            }
            _ => {}
        }
    }
    body
}

fn read_call(kind: Node<'_, '_>, exprs: &[Node<'_, '_>], arenas: &Arenas, n: usize) -> ThirCall {
    let callee = match kind.field("ty") {
        Some(ty) if ty.head() == "FnDef" => {
            let def = ty.child(0).and_then(|d| Def::parse(d.value()));
            let args = ty
                .child(1)
                .map(|list| list.children().map(|a| a.inline()).collect())
                .unwrap_or_default();
            match def {
                Some(def) => Callee::FnDef { def, args },
                None => Callee::Value(ty.inline()),
            }
        }
        Some(ty) => Callee::Value(ty.inline()),
        None => Callee::Value(String::new()),
    };
    let fun_span = kind
        .leaf("fun")
        .and_then(Ref::parse)
        .and_then(|r| match r {
            Ref::Expr(f) => exprs.get(f),
            _ => None,
        })
        .and_then(|f| f.leaf("span"))
        .and_then(Span::parse);
    ThirCall {
        callee,
        fun_span,
        fn_span: kind.leaf("fn_span").and_then(Span::parse),
        overloaded: kind.leaf("from_hir_call") == Some("false"),
        anchor: arenas.anchor(Ref::Expr(n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = "DefId(0:21 ~ fixture[fbb3]::util::generic):
Thir {
    body_type: Fn(
        fn(&'{erased} T/#0) -> f64,
    ),
    arms: [],
    blocks: [
        Block {
            targeted_by_break: false,
            region_scope: Node(8),
            span: src/util.rs:37:40: 39:2 (#0),
            stmts: [],
            expr: Some(
                e1,
            ),
            safety_mode: Safe,
        },
    ],
    exprs: [
        Expr {
            kind: ZstLiteral {
                user_ty: None,
            },
            ty: FnDef(
                DefId(0:10 ~ fixture[fbb3]::util::Shape::area),
                [
                    T/#0,
                ],
            ),
            temp_scope_id: 4,
            span: src/util.rs:38:7: 38:11 (#0),
        },
        Expr {
            kind: Call {
                ty: FnDef(
                    DefId(0:10 ~ fixture[fbb3]::util::Shape::area),
                    [
                        T/#0,
                    ],
                ),
                fun: e0,
                args: [],
                from_hir_call: true,
                fn_span: src/util.rs:38:7: 38:13 (#0),
            },
            ty: f64,
            temp_scope_id: 4,
            span: /rustc/x/library/core/src/macros.rs:38:5: 38:13 (#3),
        },
        Expr {
            kind: Block {
                block: b0,
            },
            ty: f64,
            temp_scope_id: 8,
            span: src/util.rs:37:40: 39:2 (#0),
        },
    ],
    stmts: [],
    params: [],
}
";

    #[test]
    fn a_generic_body_calls_the_trait_method_with_its_parameter() {
        let bodies = parse(BODY);
        assert_eq!(bodies.len(), 1);
        let body = &bodies[0];
        assert_eq!(body.owner.path, "fixture::util::generic");
        let call = &body.calls[0];
        let Callee::FnDef { def, args } = &call.callee else {
            panic!("{:?}", call.callee);
        };
        assert_eq!(def.path, "fixture::util::Shape::area");
        assert_eq!(args, &["T/#0".to_string()]);
        assert_eq!(call.fun_span.as_ref().unwrap().lo.col, 7);
        assert!(!call.overloaded);
        // The call's own span is in a macro of another crate and the block around it
        // is the source's own code: what the call contains is nearer.
        assert_eq!(call.anchor.as_ref().unwrap().lo.line, 38);
    }
}
