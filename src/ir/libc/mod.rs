//! The C library as a model every engine and the interpreter share
//! (docs/cimple.md, "The C library"). A call of a library function that the
//! program declares but does not define is linked to a model written in C
//! (`models.c`, or text made for the call: `formats.rs` for `printf` and
//! `scanf`, an unknown function's input result): one copy of the model per
//! call, `strlen@12:5`, whose every token is placed at the call, so that an
//! error inside a model (`strcpy` past the end of its buffer) is reported at
//! the user's call. The copies are ordinary functions: the memory model, the
//! interpreter and every engine read them as they read the program's own.

mod formats;
mod sprintf;
mod streams;
mod structs;
mod walk;

use crate::diag::Diag;
use crate::ir::product::REFERENCE_PREFIX;
use crate::syntax::ast::{self, BinOp, CType, Expr, ExprKind as K, Init, IntType, Item, VarDecl};
use crate::syntax::lexer::{self, TokKind};
use crate::syntax::parser;
use crate::syntax::source::{SourceFile, Span};
use std::collections::{HashMap, HashSet};

const MODELS: &str = include_str!("models.c");

/// Globals of the models' own, one per program however many copies use
/// it (`strtok`'s saved position): the name a model's text writes, the
/// name the program gets (one no C program can write; `::(` marks the
/// model's own, which reports do not show) and its declaration, added
/// to the program when a copy uses it.
const HIDDEN: &[(&str, &str, &str)] = &[("__strtok_saved", "strtok::(saved)", "char *__strtok_saved = 0;")];

/// The part of `models.c` before the first model (its typedefs).
fn header() -> &'static str {
    MODELS.split("\n//== ").next().unwrap_or("")
}

/// The text of the model of `name`, if there is one. A section's head
/// names its function and those that share its body (`getchar (also
/// fgetc, getc)`): their copy is the body with the function renamed.
fn model_text(name: &str) -> Option<String> {
    MODELS.split("\n//== ").skip(1).find_map(|section| {
        let (head, body) = section.split_once('\n')?;
        let (first, also) = match head.split_once(" (also ") {
            Some((f, a)) => (f.trim(), a.trim().trim_end_matches(')')),
            None => (head.trim(), ""),
        };
        if first == name {
            return Some(body.to_string());
        }
        // `stream fgetc (also getc)`: `stream getc` is the body renamed.
        let plain = first.trim_start_matches("stream ");
        let prefix = &first[..first.len() - plain.len()];
        let called = name.strip_prefix(prefix)?;
        (also.split(", ").any(|a| a == called)).then(|| body.replacen(&format!("{plain}("), &format!("{called}("), 1))
    })
}

/// Whether `name` is a function of the C library that `link` models.
pub fn is_modelled(name: &str) -> bool {
    model_text(name).is_some() || model_text(&format!("stream {name}")).is_some() || formats::is_formatted(name)
}

/// The program with every call of a modelled library function (or of an
/// unknown function: declared, not defined) linked to a copy of its model.
/// A call that cannot be modelled is a construct outside the subset of the
/// function it is in (an error if that function is reachable).
/// `param_elems` bounds the objects unknown functions return (`--param-elems`).
pub fn link(p: &ast::Program, file: &SourceFile, param_elems: u32, diags: &mut Vec<Diag>) -> ast::Program {
    let mut l = Linker {
        file,
        param_elems,
        types: crate::ir::mem::Types::new(p),
        defined: HashSet::new(),
        protos: HashMap::new(),
        strings: HashMap::new(),
        instances: Vec::new(),
        names: HashSet::new(),
        hidden: Vec::new(),
        version: "",
        streams: streams::ours(p),
        stream_used: false,
        diags: Vec::new(),
    };
    let mut globals = HashMap::new();
    let (mut objects, mut arrays) = (HashMap::new(), HashMap::new());
    for it in &p.items {
        match it {
            Item::Function(f) => _ = l.defined.insert(f.name.name.clone()),
            Item::Skipped(f) => _ = l.defined.insert(f.name.name.clone()),
            Item::Prototype(pr) => _ = l.protos.insert(pr.name.name.clone(), pr.clone()),
            Item::Globals(ds) => {
                for d in ds {
                    if let (true, Some(Init::List(es, _))) = (ast::is_string_literal(&d.name.name), &d.init) {
                        let bytes = es
                            .iter()
                            .position(|e| matches!(e.kind, K::Int(0, _)))
                            .unwrap_or(es.len());
                        let text = es[..bytes]
                            .iter()
                            .map(|e| if let K::Int(v, _) = e.kind { v as u8 } else { 0 })
                            .collect();
                        l.strings.insert(d.name.name.clone(), text);
                    }
                    if let Some(t) = pointee_of_decl(d) {
                        globals.insert(d.name.name.clone(), t);
                    }
                    match d.array {
                        Some(_) => _ = arrays.insert(d.name.name.clone(), d.ctype.clone()),
                        None => _ = objects.insert(d.name.name.clone(), d.ctype.clone()),
                    }
                }
            }
            Item::Struct(_) => {}
        }
    }
    let mut out = p.clone();
    for it in &mut out.items {
        let Item::Function(f) = it else { continue };
        l.version = match f.name.name.starts_with(REFERENCE_PREFIX) {
            true => REFERENCE_PREFIX,
            false => "",
        };
        let mut scope = globals.clone();
        for q in &f.params {
            if let (Some(n), CType::Ptr(t)) = (&q.name, &q.ctype) {
                scope.insert(n.name.clone(), (**t).clone());
            }
        }
        let mut v = Calls {
            l: &mut l,
            scope,
            objects: objects.clone(),
            arrays: arrays.clone(),
            unsupported: Vec::new(),
        };
        walk::block(&mut f.body, &mut v);
        let found = v.unsupported;
        f.unsupported.extend(found);
    }
    out.items.extend(l.instances.into_iter().map(Item::Function));
    let hidden: Vec<VarDecl> = l
        .hidden
        .iter()
        .flat_map(|&(k, version, span)| hidden_global(k, version, span))
        .collect();
    if !hidden.is_empty() {
        out.items.insert(0, Item::Globals(hidden));
    }
    if l.stream_used {
        streams::prelude(&mut out);
    }
    diags.extend(l.diags);
    out
}

struct Linker<'a> {
    file: &'a SourceFile,
    /// `--param-elems`: the most elements of an unknown function's result.
    param_elems: u32,
    /// The program's structs, for the models made per struct (`structs.rs`).
    types: crate::ir::mem::Types,
    /// Functions the program defines (a definition wins over a model).
    defined: HashSet<String>,
    protos: HashMap<String, ast::Prototype>,
    /// The bytes of each string literal's object (`string#1`).
    strings: HashMap<String, Vec<u8>>,
    instances: Vec<ast::Function>,
    names: HashSet<String>,
    /// The `HIDDEN` globals the copies use (by index), each with the
    /// version whose calls use it and the first call that needs it.
    hidden: Vec<(usize, &'static str, Span)>,
    /// The prefix of the names of the version whose function is linked
    /// (`diff`'s product holds two programs; each keeps its own `HIDDEN`).
    version: &'static str,
    /// The program's `FILE` is the shipped one: streams are objects the
    /// stream models read (`streams.rs`).
    streams: bool,
    /// A stream model was linked (the standard streams get their objects).
    stream_used: bool,
    diags: Vec<Diag>,
}

/// The declaration of `HIDDEN[k]` for `version`, placed at `span`.
fn hidden_global(k: usize, version: &str, span: Span) -> Vec<VarDecl> {
    let (model, program, decl) = HIDDEN[k];
    parse_at(decl, span, (model, &format!("{version}{program}")))
        .items
        .into_iter()
        .flat_map(|it| match it {
            Item::Globals(ds) => ds,
            _ => Vec::new(),
        })
        .collect()
}

/// `text` (a model's own C) parsed with every token at `span` and the
/// identifier `rename.0` renamed `rename.1`.
fn parse_at(text: &str, span: Span, rename: (&str, &str)) -> ast::Program {
    let mut scratch = Vec::new();
    let toks = lexer::lex(text, &mut scratch)
        .tokens
        .into_iter()
        .map(|mut t| {
            t.span = span;
            if t.ident() == Some(rename.0) {
                t.kind = TokKind::Ident(rename.1.to_string());
            }
            t
        })
        .collect();
    parser::parse(toks, &mut scratch)
}

impl Linker<'_> {
    /// Parses `text` (a definition of `name`) as the copy for the call at
    /// `span`, and returns the copy's name.
    fn instance(&mut self, name: &str, text: &str, span: Span) -> Result<String, String> {
        let at = self.file.line_col(span.lo);
        let mut inst = format!("{name}@{}:{}", at.line, at.col);
        let mut k = 1;
        while self.names.contains(&inst) {
            k += 1;
            inst = format!("{name}@{}:{}#{k}", at.line, at.col);
        }
        let src = format!("{}\n{}", header(), text);
        let mut scratch = Vec::new();
        let lexed = lexer::lex(&src, &mut scratch);
        let toks = lexed
            .tokens
            .into_iter()
            .map(|mut t| {
                t.span = span;
                if t.ident() == Some(name) {
                    t.kind = TokKind::Ident(inst.clone());
                } else if let Some(k) = HIDDEN.iter().position(|h| t.ident() == Some(h.0)) {
                    t.kind = TokKind::Ident(format!("{}{}", self.version, HIDDEN[k].1));
                    if !self.hidden.iter().any(|&(h, v, _)| (h, v) == (k, self.version)) {
                        self.hidden.push((k, self.version, span));
                    }
                }
                t
            })
            .collect();
        let prog = parser::parse(toks, &mut scratch);
        let f = prog.items.into_iter().find_map(|it| match it {
            Item::Function(f) if f.name.name == inst => Some(f),
            _ => None,
        });
        match (f, scratch.iter().find(|d| d.is_error())) {
            (Some(f), None) => {
                self.names.insert(inst.clone());
                self.instances.push(f);
                Ok(inst)
            }
            (_, d) => Err(format!(
                "this call of `{name}` is not modelled yet ({})",
                d.map_or("no model", |d| d.message.as_str())
            )),
        }
    }

    /// The copy standing for unknown function `pr` at the call at `span`
    /// (its name): its result is an input of its return type, and what a
    /// pointer parameter to non-`const` integers or structs of them points
    /// to gets arbitrary values, the whole object (`mem::HAVOC_POINTEE`).
    fn unknown(&mut self, pr: &ast::Prototype, nargs: usize, span: Span) -> Result<String, String> {
        let name = &pr.name.name;
        if let Some(why) = &pr.not_modelled {
            return Err(format!(
                "`{name}` is not defined and its type is not modelled yet: {why}"
            ));
        }
        let result = match &pr.ret_mem {
            None => None,
            Some(CType::Ptr(t)) => {
                self.new_object(name, t)?;
                Some(t.c_name())
            }
            Some(t) => {
                return Err(format!(
                    "`{name}` is not defined and returns a `{}`: not modelled yet",
                    t.c_name()
                ))
            }
        };
        let params = match &pr.params {
            Some(ps) => ps.clone(),
            None if nargs == 0 => Vec::new(),
            None => {
                return Err(format!(
                    "`{name}` is not defined and its parameters are not declared: not modelled yet"
                ))
            }
        };
        // Each parameter as the copy declares it (a placeholder type for a
        // pointer or struct, its C type set once parsed: an anonymous
        // struct has no name to write), and the statement for it.
        let (mut list, mut body, mut writes, mut reads) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (k, q) in params.iter().enumerate() {
            let arg = k + 1;
            match (&q.ctype, q.pointer) {
                (_, true) => {
                    return Err(format!(
                        "`{name}` is not defined and its parameter {arg} has a type not modelled yet"
                    ))
                }
                (t, false) if t.is_int() => list.push(format!("{} p{k}", q.ty.c_name())),
                (CType::Ptr(_), false) if q.pointee_const => {
                    list.push(format!("int *p{k}"));
                    reads.push(arg);
                }
                (CType::Ptr(t), false) => {
                    self.changeable(name, arg, t)?;
                    list.push(format!("int *p{k}"));
                    body.push(format!("{}(p{k});", crate::ir::mem::HAVOC_POINTEE));
                    writes.push(arg);
                }
                (CType::Struct(_), false) => list.push(format!("int p{k}")),
                (t, false) => {
                    return Err(format!(
                        "`{name}` is not defined and takes a `{}`: not modelled yet",
                        t.c_name()
                    ))
                }
            }
        }
        let ret = match (pr.ret, &result) {
            (_, Some(t)) => {
                // NULL, or a new object of 1 to `--param-elems` elements
                // of any values (a heap object's are inputs).
                body.push(format!(
                    "if (__VERIFIER_nondet_bool()) return ({t} *)0; \
                     unsigned int n = __VERIFIER_nondet_uint(); \
                     __VERIFIER_assume(n >= 1 && n <= {}u); \
                     {t} *r = malloc(n * sizeof({t})); return r;",
                    self.param_elems.max(1)
                ));
                format!("{t} *")
            }
            (ast::RetType::Void, None) => "void".to_string(),
            (ast::RetType::Int(t), None) => {
                body.push(format!("return {}();", formats::nondet(t)));
                t.c_name().to_string()
            }
        };
        let text = format!("{ret} {name}({}) {{ {} }}", list.join(", "), body.join(" "));
        let inst = self.instance(name, &text, span)?;
        if let Some(f) = self.instances.last_mut() {
            for (p, q) in f.params.iter_mut().zip(&params) {
                p.ctype = q.ctype.clone();
            }
        }
        let value = match (&result, pr.ret) {
            (Some(_), _) => Some("returning `NULL` or a new object of any contents"),
            (None, ast::RetType::Void) => None,
            (None, _) => Some("returning any value"),
        };
        let d = unknown_warning(name, value, &writes, &reads, span);
        self.diags.push(match result {
            Some(_) => new_object_notes(d, self.param_elems),
            None => d,
        });
        Ok(inst)
    }

    /// Whether an unknown function `name` may be modelled as writing any
    /// values over what its parameter `arg`, a pointer to `t`, points to:
    /// integers or structs of them, not pointers (the memory model has no
    /// pointer that may point anywhere).
    fn changeable(&self, name: &str, arg: usize, t: &CType) -> Result<(), String> {
        let why = match t {
            CType::Int(_) => return Ok(()),
            CType::Struct(tag) => match self.pointer_field(tag, 0) {
                None => return Ok(()),
                Some(f) => format!(
                    "`{}` has a pointer field `{f}`, and a pointer it may store is not modelled yet",
                    t.c_name()
                ),
            },
            CType::Void => "what a `void *` points to may be of any type, not modelled yet".to_string(),
            CType::Ptr(p) if matches!(**p, CType::Func(_)) => {
                "a function pointer it may store is not modelled yet".to_string()
            }
            CType::Ptr(_) => "a pointer it may store there is not modelled yet".to_string(),
            CType::Func(_) => "the functions it may call are not modelled yet".to_string(),
        };
        Err(format!(
            "`{name}` is not defined and may change the `{}` its argument {arg} points to: {why}",
            t.c_name()
        ))
    }

    /// Whether an unknown function `name` returning a `t *` may be modelled
    /// as returning `NULL` or a new object of `t`s: a type the copy can
    /// spell (not an anonymous struct) with no pointer inside (the memory
    /// model has no pointer that may point anywhere).
    fn new_object(&self, name: &str, t: &CType) -> Result<(), String> {
        let why = match t {
            CType::Int(_) => return Ok(()),
            CType::Struct(tag) if tag.starts_with('<') => "an anonymous struct: not modelled yet".to_string(),
            CType::Struct(tag) => match self.pointer_field(tag, 0) {
                None => return Ok(()),
                Some(f) => format!("its pointer field `{f}` is not modelled yet"),
            },
            _ => "what it points to is not modelled yet".to_string(),
        };
        Err(format!(
            "`{name}` is not defined and returns a `{}`: {why}",
            CType::Ptr(Box::new(t.clone())).c_name()
        ))
    }

    /// The first pointer field of struct `tag` (or of a struct inside it).
    fn pointer_field(&self, tag: &str, depth: usize) -> Option<String> {
        let fields = self.types.fields(tag).ok()?;
        fields.iter().find_map(|f| match &f.ty {
            CType::Ptr(_) | CType::Func(_) => Some(f.name.name.clone()),
            CType::Struct(t) if depth < 16 => self.pointer_field(t, depth + 1).map(|g| format!("{}.{g}", f.name.name)),
            _ => None,
        })
    }
}

/// Warning `d` of an unknown function returning a pointer, with what its
/// result is taken to be.
fn new_object_notes(d: Diag, param_elems: u32) -> Diag {
    d.with_note(format!(
        "its result is taken as `NULL` or a new object of 1 to {param_elems} elements of any values \
         (`--param-elems`), one per call run, as `malloc` makes (freeing it is taken as valid)"
    ))
    .with_note(
        "not modelled: a result that points into an object the program already has, \
         or to a static object (then freeing it would be an error)",
    )
}

/// The warning at a call of unknown function `name` (returning what
/// `value` says, if anything) whose pointer arguments `writes` (1-based) are written
/// over and `reads` point to `const`: what the model assumes.
fn unknown_warning(name: &str, value: Option<&str>, writes: &[usize], reads: &[usize], span: Span) -> Diag {
    let args = |ks: &[usize]| {
        let ks: Vec<String> = ks.iter().map(|k| k.to_string()).collect();
        match ks.len() {
            1 => format!("argument {} points", ks[0]),
            _ => format!("arguments {} point", ks.join(", ")),
        }
    };
    let mut does = Vec::new();
    if let Some(v) = value {
        does.push(v.to_string());
    }
    if !writes.is_empty() {
        does.push(format!(
            "writing any values over the whole object {} into",
            args(writes)
        ));
    }
    if does.is_empty() {
        does.push("doing nothing".to_string());
    }
    let mut msg = format!("`{name}` is not defined: modelled as {}", does.join(" and as "));
    if !reads.is_empty() {
        msg += &format!("; what {} to (`const`) is unchanged", args(reads));
    }
    let mut d = Diag::warning(span, msg).with_label("an unknown function");
    if value == Some("returning any value") {
        d = d.with_note("its result is an input of the run; define it or declare a model to check more");
    }
    if !writes.is_empty() {
        d = d.with_note(
            "a null pointer argument changes nothing, nor does a string literal (writing one is undefined); \
             nothing about the pointers is checked at the call: what the function does with them is unknown",
        );
    }
    if !reads.is_empty() {
        d = d.with_note(
            "C lets a function cast `const` away only on objects not defined `const`: \
             what a `const` pointer argument points to is taken as unchanged",
        );
    }
    d
}

/// Where the stream argument of a modelled `<stdio.h>` function is: the
/// models read and write no stream (input is the run's input, output is
/// dropped), so the argument is dropped when evaluating it does nothing.
fn stream_at(name: &str) -> Option<usize> {
    match name {
        "fgetc" | "getc" | "fflush" => Some(0),
        "fputc" | "putc" | "fputs" => Some(1),
        "fgets" => Some(2),
        _ => None,
    }
}

/// Drops the stream argument of a call of `name` (a variable such as
/// `stdin`, or `NULL` for `fflush`), if it has one.
fn drop_stream(name: &str, args: &mut Vec<Expr>) -> Result<(), String> {
    let Some(at) = stream_at(name) else {
        return Ok(());
    };
    // `NULL` only where C allows it: `fflush(NULL)` flushes every stream.
    let plain = |e: &Expr| match &e.kind {
        K::Var(_) => true,
        K::Int(..) => name == "fflush",
        K::PtrCast(_, x) => name == "fflush" && matches!(x.kind, K::Int(..)),
        _ => false,
    };
    match args.get(at) {
        Some(e) if plain(e) => {
            args.remove(at);
            Ok(())
        }
        Some(_) => Err(format!(
            "`{name}` on a stream that is not a variable is not modelled yet"
        )),
        None => Err(format!("`{name}` takes {} arguments", at + 1)),
    }
}

/// What a name declared by `d` points to when used as a pointer (the
/// elements of an array, the pointee of a pointer).
fn pointee_of_decl(d: &VarDecl) -> Option<CType> {
    match (&d.array, &d.ctype) {
        (Some(_), t) => Some(t.clone()),
        (None, CType::Ptr(t)) => Some((**t).clone()),
        _ => None,
    }
}

/// Visits the calls of one function body.
struct Calls<'a, 'b> {
    l: &'a mut Linker<'b>,
    /// What each name in scope points to (the last declaration seen wins).
    scope: HashMap<String, CType>,
    /// The type of each local scalar or struct in scope (what `&x` points to).
    objects: HashMap<String, CType>,
    /// The element type of each local array in scope (what `sizeof a` counts).
    arrays: HashMap<String, CType>,
    unsupported: Vec<(Span, String)>,
}

impl Calls<'_, '_> {
    /// What argument `e` points to, when its text says so.
    fn pointee(&self, e: &Expr) -> Option<CType> {
        match &e.kind {
            K::Var(id) => self.scope.get(&id.name).cloned(),
            K::AddrOf(x) => match &x.kind {
                K::Index(id, _) => self.scope.get(&id.name).cloned(),
                K::Var(id) => self.objects.get(&id.name).cloned(),
                _ => None,
            },
            K::Binary(BinOp::Add | BinOp::Sub, a, _) => self.pointee(a),
            K::PtrCast(CType::Ptr(t), _) => Some((**t).clone()),
            _ => None,
        }
    }

    /// The character type argument `e` points to (`char` when unknown, or
    /// for a null pointer constant: `strtol(s, NULL, 10)`).
    fn char_type(&self, name: &str, e: Option<&Expr>) -> Result<&'static str, String> {
        let null = |e: &Expr| match &e.kind {
            K::Int(0, _) => true,
            K::PtrCast(_, x) => matches!(x.kind, K::Int(0, _)),
            _ => false,
        };
        match e.filter(|e| !null(e)).and_then(|e| self.pointee(e)) {
            None | Some(CType::Int(IntType::Char)) => Ok("char"),
            // A stream argument (a model's `ELEM` unused there).
            Some(CType::Struct(t)) if t == streams::TAG => Ok("char"),
            Some(CType::Int(IntType::SChar)) => Ok("signed char"),
            Some(CType::Int(IntType::UChar)) => Ok("unsigned char"),
            Some(t) => Err(format!("`{name}` on a buffer of `{}` is not modelled yet", t.c_name())),
        }
    }

    /// `memset` or `memcpy` on a buffer of a wider integer type (`int a[8];
    /// memset(a, 0, sizeof a)`), byte for byte as on a little-endian
    /// machine; `None` for a buffer of characters (the `char` models) or
    /// another function. Other element types are not modelled yet.
    fn wide_model(&self, name: &str, args: &[Expr]) -> Option<Result<String, String>> {
        let pointee = args.first().and_then(|e| self.pointee(e));
        if let (true, Some(CType::Struct(tag))) = (matches!(name, "memset" | "memcpy" | "memmove"), &pointee) {
            return Some(structs::model(self, name, tag, args));
        }
        if !matches!(name, "memset" | "memcpy") {
            return None;
        }
        let t = match pointee {
            Some(CType::Int(t)) if t.size() > 1 && !t.is_float() => t,
            Some(CType::Int(_)) | None => return None,
            Some(t) => {
                return Some(Err(format!(
                    "`{name}` on a buffer of `{}` is not modelled yet",
                    t.c_name()
                )))
            }
        };
        if name == "memcpy" && args.get(1).and_then(|e| self.pointee(e)) != Some(CType::Int(t)) {
            return Some(Err(format!(
                "`memcpy` from a buffer of another type than `{}` is not modelled yet",
                t.c_name()
            )));
        }
        let text = model_text(&format!("{name} of integers"))?;
        let unsigned = format!("unsigned {}", t.c_name().trim_start_matches("unsigned "));
        Some(Ok(text.replace("UELEM1", &unsigned).replace("ELEM1", t.c_name())))
    }

    /// The type argument `e` of `qsort` or `bsearch` points to, spelled.
    fn element_type(&self, name: &str, e: Option<&Expr>) -> Result<String, String> {
        match e.and_then(|e| self.pointee(e)) {
            Some(t @ (CType::Int(_) | CType::Struct(_))) => Ok(t.c_name()),
            Some(CType::Ptr(t)) if !matches!(*t, CType::Func(_)) => Ok(CType::Ptr(t).c_name()),
            _ => Err(format!(
                "`{name}` on an array whose element type is not seen at the call is not modelled yet"
            )),
        }
    }

    /// The stream model of `name` for these arguments: `ELEM1`/`ELEM2` the
    /// characters of its buffers and strings (`char` for a `void *` buffer
    /// or null, and where the argument is the stream).
    fn stream_model(&self, name: &str, text: &str, args: &[Expr]) -> Result<String, String> {
        let elem = |k: usize| match args.get(k).and_then(|e| self.pointee(e)) {
            Some(CType::Void) => Ok("char"),
            _ => self.char_type(name, args.get(k)),
        };
        Ok(text.replace("ELEM1", elem(0)?).replace("ELEM2", elem(1)?))
    }

    /// The model of `name` for these arguments.
    fn model(&self, name: &str, text: &str, args: &[Expr]) -> Result<String, String> {
        if let Some(text) = self.wide_model(name, args) {
            return text;
        }
        if matches!(name, "qsort" | "bsearch") {
            let e1 = self.element_type(name, args.first())?;
            let e2 = match name {
                "bsearch" => self.element_type(name, args.get(1))?,
                _ => e1.clone(),
            };
            return Ok(text.replace("ELEM1", &e1).replace("ELEM2", &e2));
        }
        if matches!(name, "strtok" | "strtok_r") {
            let e2 = self.char_type(name, args.get(1))?;
            // The string is `char` (the position kept between calls is a
            // `char *`); `NULL` goes on from it.
            return match args.first().and_then(|e| self.pointee(e)) {
                None | Some(CType::Void | CType::Int(IntType::Char)) => Ok(text.replace("ELEM2", e2)),
                Some(t) => Err(format!("`{name}` on a buffer of `{}` is not modelled yet", t.c_name())),
            };
        }
        let e1 = self.char_type(name, args.first())?;
        let e2 = self.char_type(name, args.get(1))?;
        if name == "strtol" && !matches!(args.get(2).map(|a| &a.kind), Some(K::Int(10, _))) {
            return Err("`strtol` with a base other than 10 is not modelled yet".into());
        }
        Ok(text.replace("ELEM1", e1).replace("ELEM2", e2))
    }
}

impl walk::Visit for Calls<'_, '_> {
    fn decl(&mut self, d: &VarDecl) {
        match pointee_of_decl(d) {
            Some(t) => self.scope.insert(d.name.name.clone(), t),
            None => self.scope.remove(&d.name.name),
        };
        match (&d.array, &d.ctype) {
            (None, t @ (CType::Int(_) | CType::Struct(_))) => self.objects.insert(d.name.name.clone(), t.clone()),
            _ => self.objects.remove(&d.name.name),
        };
        match &d.array {
            Some(_) => self.arrays.insert(d.name.name.clone(), d.ctype.clone()),
            None => self.arrays.remove(&d.name.name),
        };
    }

    fn call(&mut self, e: &mut Expr) {
        let span = e.span;
        let K::Call(id, args) = &mut e.kind else {
            return;
        };
        let name = id.name.clone();
        if matches!(self.scope.get(&name), Some(CType::Func(_))) {
            // A call through a function pointer variable (`crate::ir::mem`).
            let callee = Expr {
                kind: K::Var(id.clone()),
                span: id.span,
            };
            e.kind = K::CallPtr(Box::new(callee), std::mem::take(args));
            return;
        }
        if self.l.defined.contains(&name)
            || crate::ir::lower::is_builtin(&name)
            || crate::ir::mem::is_heap_function(&name)
        {
            return;
        }
        let stream = match self.l.streams {
            true => model_text(&format!("stream {name}")),
            false => None,
        };
        if stream.is_none() {
            if let Err(msg) = drop_stream(&name, args) {
                self.unsupported.push((span, msg));
                return;
            }
        }
        let text = if let Some(text) = stream {
            self.l.stream_used = true;
            self.stream_model(&name, &text, args)
        } else if let Some(text) = model_text(&name) {
            self.model(&name, &text, args)
        } else if formats::is_formatted(&name) {
            self.l.stream_used |= self.l.streams && name.starts_with('f');
            formats::instance(&name, args, &self.l.strings, self.l.streams, |e| self.pointee(e))
        } else if let Some(pr) = self.l.protos.get(&name).cloned() {
            match self.l.unknown(&pr, args.len(), span) {
                Ok(inst) => id.name = inst,
                Err(msg) => self.unsupported.push((span, msg)),
            }
            return;
        } else {
            return;
        };
        match text.and_then(|t| self.l.instance(&name, &t, span)) {
            Ok(inst) => id.name = inst,
            Err(msg) => self.unsupported.push((span, msg)),
        }
    }
}
