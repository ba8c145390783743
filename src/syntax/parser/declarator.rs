//! C declarators (C11 6.7.6): pointers, arrays and functions nested with
//! parentheses (`*a[3]`, `(*fp)(int)`, `(*rows)[N]`), and what the model
//! makes of the type they declare (`Shape`).

use super::*;

/// One step of a declarator's type, read from the name outwards: `*a[3]`
/// is `[Array(3), Ptr]` (an array of three pointers), `(*fp)(int)` is
/// `[Ptr, Func]` (a pointer to a function).
#[derive(Clone)]
pub(super) enum Step {
    Ptr,
    Array(Option<Expr>),
    /// A parameter list, and whether it is `()` (parameters unspecified).
    Func(ParamList, bool),
}

/// A parameter list: the parameters (`None` when unspecified or outside
/// the model) and why parameters are outside the model.
pub(super) type ParamList = (Option<Vec<Param>>, Vec<(Span, String)>);

/// `d` with the steps of an array typedef among `specs` after its own:
/// `row r[3]` with `typedef int row[4]` declares `int r[3][4]`.
pub(super) fn with_typedef(specs: &Specs, mut d: Declarator) -> Declarator {
    d.steps.extend(specs.steps.iter().cloned());
    d
}

pub(super) struct Declarator {
    pub name: Option<Ident>,
    pub steps: Vec<Step>,
    pub span: Span,
}

/// What a declarator declares, as far as the model goes.
pub(super) enum Shape {
    /// An object of type `ctype`, an array of `ctype` when `array`; `dims`
    /// the sizes of inner dimensions: an array of arrays (`int a[3][4]`:
    /// `array` 3, `dims` `[4]`), or with no `array` a pointer to arrays
    /// (`int (*p)[4]`, a parameter `int p[][4]`: `ctype` `int *`).
    Object {
        ctype: CType,
        array: Option<Option<Expr>>,
        dims: Vec<Expr>,
    },
    /// A function returning `ret_stars` pointers on the specifiers' type,
    /// or `ret` when given in full (a function pointer: `int (*f(int))(int)`;
    /// a function declared with a typedef name of a function type).
    Function {
        ret_stars: usize,
        params: ParamList,
        ret: Option<CType>,
    },
    /// A type the model does not hold yet (the message says which).
    NotModelled(String),
}

impl Parser<'_> {
    /// A declarator; its name may be missing (an abstract declarator, as in
    /// a parameter `int *` or a bitfield `unsigned : 16`).
    pub(super) fn declarator(&mut self) -> PResult<Declarator> {
        let start = self.tok().span;
        let stars = self.stars();
        self.skip_attributes();
        let mut steps = Vec::new();
        let mut name = None;
        if self.is("(") && self.nested_declarator_follows() {
            self.bump();
            let inner = self.declarator()?;
            self.expect(")", "to close the declarator")?;
            name = inner.name;
            steps = inner.steps;
        } else if self
            .tok()
            .ident()
            .is_some_and(|w| !is_reserved(w) && !self.unmodelled_types.contains_key(w))
        {
            name = Some(self.expect_ident("a name")?);
        }
        loop {
            self.skip_attributes();
            if self.eat("[") {
                // `[static 3]`, `[const]`, `[*]` in parameters.
                while self
                    .tok()
                    .ident()
                    .is_some_and(|w| w == "static" || QUALIFIERS.contains(&w))
                {
                    self.bump();
                }
                let size = if self.is("]") || (self.is("*") && self.nth(1).is_punct("]")) {
                    self.eat("*");
                    None
                } else {
                    Some(self.assign_expr()?)
                };
                self.expect("]", "after the array size")?;
                steps.push(Step::Array(size));
            } else if self.is("(") {
                let unspecified = self.nth(1).is_punct(")");
                steps.push(Step::Func(self.param_list()?, unspecified));
            } else {
                break;
            }
        }
        steps.extend((0..stars).map(|_| Step::Ptr));
        self.skip_attributes();
        Ok(Declarator {
            name,
            steps,
            span: start.to(self.prev_span()),
        })
    }

    /// After a `(` in a declarator: whether it opens a nested declarator
    /// (`(*fp)`, `(name)`) rather than a parameter list.
    fn nested_declarator_follows(&self) -> bool {
        let t = self.nth(1);
        t.is_punct("*")
            || t.is_punct("(")
            || t.is_punct("[")
            || t.ident().is_some_and(|w| {
                !is_reserved(w)
                    && !TYPE_WORDS.contains(&w)
                    && !QUALIFIERS.contains(&w)
                    && !self.typedefs.contains_key(w)
                    && !self.unmodelled_types.contains_key(w)
                    && w != "__attribute__"
            })
    }

    /// What `d` declares on top of the specifiers' type `base`. A parameter
    /// (`param`) of array or function type is a pointer (C11 6.7.6.3).
    pub(super) fn shape(&self, base: CType, d: Declarator, param: bool) -> Shape {
        let mut steps = d.steps;
        match steps.first() {
            Some(Step::Array(_)) if param => steps[0] = Step::Ptr,
            Some(Step::Func(..)) if param => steps.insert(0, Step::Ptr),
            // A parameter of a function type named by a typedef.
            None if param && matches!(base, CType::Func(_)) => steps.push(Step::Ptr),
            _ => {}
        }
        if let (true, false, CType::Func(f)) = (steps.is_empty(), param, &base) {
            return typedef_function(f, d.span);
        }
        if let Some(shape) = arrays_of_arrays(base.clone(), &mut steps) {
            return shape;
        }
        let is_ptr = |s: &Step| matches!(s, Step::Ptr);
        let (first, rest) = match steps.split_first() {
            None => {
                return Shape::Object {
                    ctype: base,
                    array: None,
                    dims: Vec::new(),
                }
            }
            Some((f, r)) => (f, r),
        };
        let rest_ptrs = rest.iter().all(is_ptr);
        if steps.iter().all(is_ptr) {
            let mut t = base;
            for _ in 0..steps.len() {
                t = t.ptr();
            }
            return Shape::Object {
                ctype: t,
                array: None,
                dims: Vec::new(),
            };
        }
        let rest_has_func = rest.iter().any(|s| matches!(s, Step::Func(..)));
        let rest_has_array = rest.iter().any(|s| matches!(s, Step::Array(_)));
        let msg = match first {
            Step::Func(..) if rest_ptrs => {
                let n = steps.len() - 1;
                let Some(Step::Func(params, _)) = steps.into_iter().next() else {
                    unreachable!("the first step is a function")
                };
                return Shape::Function {
                    ret_stars: n,
                    params,
                    ret: None,
                };
            }
            Step::Func(..) if rest_has_func && !rest_has_array => {
                let Some(Step::Func(params, _)) = Some(steps.remove(0)) else {
                    unreachable!("the first step is a function")
                };
                return match function_pointer(base, steps) {
                    Ok(ret) => Shape::Function {
                        ret_stars: 0,
                        params,
                        ret: Some(ret),
                    },
                    Err(msg) => Shape::NotModelled(msg),
                };
            }
            Step::Func(..) => "functions returning arrays or pointers to arrays are not modelled yet",
            Step::Array(_) if rest_ptrs => {
                let n = rest.len();
                let Some(Step::Array(size)) = steps.into_iter().next() else {
                    unreachable!("the first step is an array")
                };
                let mut t = base;
                for _ in 0..n {
                    t = t.ptr();
                }
                return Shape::Object {
                    ctype: t,
                    array: Some(size),
                    dims: Vec::new(),
                };
            }
            Step::Ptr | Step::Array(_) if rest_has_func && !rest_has_array => {
                let array = match steps.remove(0) {
                    Step::Array(size) => Some(size),
                    s => {
                        steps.insert(0, s);
                        None
                    }
                };
                return match function_pointer(base, steps) {
                    Ok(ctype) => Shape::Object {
                        ctype,
                        array,
                        dims: Vec::new(),
                    },
                    Err(msg) => Shape::NotModelled(msg),
                };
            }
            _ if rest_has_func => "arrays of functions or in function types are not modelled yet",
            Step::Ptr if param => "multi-dimensional array parameters are not modelled yet",
            Step::Array(_) => "multi-dimensional arrays are not modelled yet",
            Step::Ptr => "pointers to arrays are not modelled yet",
        };
        Shape::NotModelled(msg.to_string())
    }

    /// The specifiers of a declaration outside a function body, with the
    /// reasons its type is outside the model collected rather than
    /// reported (the declaration decides whether they matter).
    pub(super) fn specs_collected(&mut self) -> PResult<(Specs, Vec<(Span, String)>)> {
        let saved = self.in_function.replace(Vec::new());
        let specs = self.specs();
        let issues = std::mem::replace(&mut self.in_function, saved).unwrap_or_default();
        Ok((specs?, issues))
    }
}

/// The type `steps` (pointers and functions, read from the name outwards)
/// make of `base`: `(*fp)(int)` on `int` is `int (*)(int)`.
pub(super) fn function_pointer(base: CType, steps: Vec<Step>) -> Result<CType, String> {
    let mut t = base;
    for s in steps.into_iter().rev() {
        t = match s {
            Step::Ptr => t.ptr(),
            Step::Func((params, issues), unspecified) => {
                if let Some((_, why)) = issues.into_iter().next() {
                    return Err(why);
                }
                if matches!(t, CType::Func(_)) {
                    return Err("a function cannot return a function".into());
                }
                let params = match (params, unspecified) {
                    (_, true) | (None, _) => None,
                    (Some(ps), false) => Some(ps.into_iter().map(|q| q.ctype).collect()),
                };
                CType::Func(Box::new(FnType { ret: t, params }))
            }
            Step::Array(_) => return Err("arrays of function pointers inside other types are not modelled yet".into()),
        };
    }
    Ok(t)
}

/// `int a[3][4]` (`[Array, Array]`), `int (*p)[4]` (`[Ptr, Array]`), each
/// inner size given, then pointer steps only (`int *a[2][3]`): an object
/// with inner dimensions. Anything else is left to `Parser::shape`.
fn arrays_of_arrays(base: CType, steps: &mut Vec<Step>) -> Option<Shape> {
    if steps.is_empty() {
        return None;
    }
    let inner = steps
        .iter()
        .skip(1)
        .take_while(|s| matches!(s, Step::Array(Some(_))))
        .count();
    let rest_ptrs = steps[1 + inner..].iter().all(|s| matches!(s, Step::Ptr));
    if inner == 0 || !rest_ptrs || matches!(steps[0], Step::Func(..)) {
        return None;
    }
    let mut t = base;
    for _ in 1 + inner..steps.len() {
        t = t.ptr();
    }
    let mut drained = steps.drain(..1 + inner);
    let first = drained.next();
    let dims = drained
        .map(|s| match s {
            Step::Array(Some(e)) => e,
            _ => unreachable!("inner sizes are given"),
        })
        .collect();
    Some(match first {
        Some(Step::Array(size)) => Shape::Object {
            ctype: t,
            array: Some(size),
            dims,
        },
        _ => Shape::Object {
            ctype: t.ptr(),
            array: None,
            dims,
        },
    })
}

/// `f;` with `typedef int f_t(int); f_t f;`: a function of that type
/// (its parameters unnamed, as in a prototype).
fn typedef_function(f: &FnType, span: Span) -> Shape {
    let params = f.params.as_ref().map(|ps| {
        ps.iter()
            .map(|t| Param {
                ty: match t {
                    CType::Int(t) => *t,
                    _ => IntType::Int,
                },
                ctype: t.clone(),
                name: None,
                span,
                pointer: false,
                pointee_const: false,
            })
            .collect()
    });
    Shape::Function {
        ret_stars: 0,
        params: (params, Vec::new()),
        ret: Some(f.ret.clone()),
    }
}
