//! `typedef` declarations (C11 6.7.8): a name for a type the model holds
//! (an integer, pointer, struct or function-pointer type), or for an
//! array type (`typedef int row[4];`, `typedef int grid[3][4];`,
//! `typedef row *rowp;`), whose array and pointer steps a declaration
//! naming it appends to its own (`declarator::with_typedef`): `row r[3]`
//! is `int r[3][4]`, `grid g` is `int g[3][4]`, `row *p` is `int (*p)[4]`.

use super::declarator::{self, Step};
use super::*;

impl Parser<'_> {
    /// `typedef T D, ...;`: a name of a type the model holds goes to
    /// `typedefs` (with its steps in `typedef_steps` for an array type);
    /// any other (a function, a `double`) to `unmodelled_types`, an error
    /// only where a declaration uses it.
    pub(super) fn typedef(&mut self, specs: Specs, issues: Vec<(Span, String)>) -> PResult<()> {
        loop {
            let d = self.declarator()?;
            let Some(name) = d.name.clone() else {
                self.error(d.span, "expected a type name in the `typedef`", "name missing");
                return Err(());
            };
            let d = with_typedef(&specs, d);
            let steps = d.steps.clone();
            let base = self.decl_type(&specs, 0);
            let why = if let Some((_, m)) = issues.first() {
                Some(m.clone())
            } else if specs.unsupported {
                Some("its type is outside the model".to_string())
            } else {
                match self.shape(base.clone(), d, false) {
                    Shape::Object {
                        ctype: CType::Void,
                        array: None,
                        ..
                    } => Some("`void`".to_string()),
                    Shape::Object {
                        ctype,
                        array: None,
                        dims,
                        ..
                    } if dims.is_empty() => {
                        self.name_type(&name.name, ctype, Vec::new());
                        None
                    }
                    Shape::Object { .. } => array_steps(&steps)
                        .err()
                        .or_else(|| self.name_type(&name.name, base, steps)),
                    Shape::Function { ret_stars, params, ret } => {
                        let ret = ret.unwrap_or_else(|| self.decl_type(&specs, ret_stars));
                        match declarator::function_pointer(ret, vec![Step::Func(params, false)]) {
                            Ok(t) => self.name_type(&name.name, t, Vec::new()),
                            Err(m) => Some(m),
                        }
                    }
                    Shape::NotModelled(m) => Some(m),
                }
            };
            if let Some(m) = why {
                self.typedefs.remove(&name.name);
                self.typedef_steps.remove(&name.name);
                self.unmodelled_types.insert(name.name, m);
            }
            if !self.eat(",") {
                break;
            }
        }
        self.expect(";", "after a typedef")?;
        Ok(())
    }

    /// `name` stands for `ctype` with `steps` (none but for an array type).
    fn name_type(&mut self, name: &str, ctype: CType, steps: Vec<Step>) -> Option<String> {
        self.unmodelled_types.remove(name);
        self.typedefs.insert(name.to_string(), ctype);
        if steps.is_empty() {
            self.typedef_steps.remove(name);
        } else {
            self.typedef_steps.insert(name.to_string(), steps);
        }
        None
    }

    /// `sizeof(T)`, `sizeof(T *)`, `sizeof(T[2])` of an array typedef `T`
    /// (`steps` those of the abstract declarator): its size in bytes, of
    /// type `unsigned int`.
    pub(super) fn typedef_size(&mut self, specs: &Specs, steps: Vec<Step>, span: Span) -> Expr {
        let mk = |kind| Expr { kind, span };
        let mut size = mk(ExprKind::Int(1, IntType::UInt));
        let mut elem = None;
        for s in steps.iter().chain(&specs.steps) {
            match s {
                Step::Array(Some(n)) => size = mk(ExprKind::Binary(BinOp::Mul, Box::new(size), Box::new(n.clone()))),
                Step::Ptr => {
                    elem = Some(mk(ExprKind::Int(4, IntType::UInt)));
                    break;
                }
                Step::Array(None) | Step::Func(..) => {
                    self.error(span, "`sizeof` of an incomplete array type", "no size");
                }
            }
        }
        let elem = elem.unwrap_or_else(|| match (&specs.base, specs.ty) {
            (Some(t), _) => mk(ExprKind::SizeOfType(t.clone())),
            (None, t) => mk(ExprKind::Int(t.unwrap_or(IntType::Int).size(), IntType::UInt)),
        });
        let total = mk(ExprKind::Binary(BinOp::Mul, Box::new(size), Box::new(elem)));
        mk(ExprKind::Cast(IntType::UInt, Box::new(total)))
    }
}

/// An array typedef's steps are arrays of constant sizes (the first may
/// be open: `typedef int v[];`) and pointers.
fn array_steps(steps: &[Step]) -> Result<(), String> {
    for (k, s) in steps.iter().enumerate() {
        match s {
            Step::Ptr => {}
            Step::Array(None) if k == 0 => {}
            Step::Array(Some(n)) if constant(n) => {}
            Step::Array(_) => return Err("a typedef of a variable-length array is not modelled yet".into()),
            Step::Func(..) => return Err("typedefs of arrays of function pointers are not modelled yet".into()),
        }
    }
    Ok(())
}

/// Whether `e` is written as an integer constant expression.
fn constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(..) | ExprKind::SizeOfType(_) => true,
        ExprKind::Unary(_, x) | ExprKind::Cast(_, x) | ExprKind::Bits(_, x) => constant(x),
        ExprKind::Binary(_, a, b) => constant(a) && constant(b),
        ExprKind::Ternary(a, b, c) => constant(a) && constant(b) && constant(c),
        _ => false,
    }
}
