//! `printf` and `scanf` families: a model made for each call from its format
//! (a string literal), with one parameter per conversion.
//!
//! - Output (`printf`, `fprintf`): every argument is evaluated, a `%s`
//!   argument is read up to its NUL (to the precision if there is one), the
//!   result is any `int` (the printed text is not modelled).
//! - Input (`scanf`, `fscanf`): the result `r` is an input in `-1..=n` (EOF,
//!   or the number of conversions assigned); conversion `k` stores an input
//!   of its type when `r >= k`; `%s` needs a width and stores 1 to width
//!   non-NUL characters and a NUL, `%c` width characters.
//!
//! The stream of `fprintf`/`fscanf` is read (`streams.rs`), or, for a
//! `FILE` not the shipped one, evaluated and otherwise ignored.

use crate::syntax::ast::{CType, Expr, ExprKind as K, IntType};
use std::collections::HashMap;

/// Whether `name` is a function of this family.
pub(super) fn is_formatted(name: &str) -> bool {
    matches!(
        name,
        "printf" | "fprintf" | "scanf" | "fscanf" | "sprintf" | "snprintf" | "sscanf"
    )
}

/// The builtin returning an input of type `t`.
pub(super) fn nondet(t: IntType) -> &'static str {
    match t {
        IntType::Bool => "__VERIFIER_nondet_bool",
        IntType::Char | IntType::SChar => "__VERIFIER_nondet_char",
        IntType::UChar => "__VERIFIER_nondet_uchar",
        IntType::Short => "__VERIFIER_nondet_short",
        IntType::UShort => "__VERIFIER_nondet_ushort",
        IntType::Int | IntType::Long => "__VERIFIER_nondet_int",
        IntType::UInt | IntType::ULong => "__VERIFIER_nondet_uint",
        IntType::LongLong => "__VERIFIER_nondet_longlong",
        IntType::ULongLong => "__VERIFIER_nondet_ulonglong",
        IntType::Float => "__VERIFIER_nondet_float",
        IntType::Double => "__VERIFIER_nondet_double",
    }
}

/// One conversion of a format.
enum Conv {
    /// An integer of this type (`%d`, `%lu`, `%c` in `printf`).
    Int(IntType),
    /// `%s`: a string, with a precision (`printf`) or width (`scanf`).
    Str(Option<u32>),
    /// `%c` in `scanf`: this many characters.
    Chars(u32),
    /// A `*` width or precision in `printf`: an `int` argument.
    Star,
}

/// The conversions of `fmt` (`input`: as `scanf` reads them).
fn conversions(fmt: &[u8], input: bool) -> Result<Vec<Conv>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let from = *i;
        while *i < fmt.len() && fmt[*i].is_ascii_digit() {
            *i += 1;
        }
        std::str::from_utf8(&fmt[from..*i])
            .ok()
            .and_then(|s| s.parse::<u32>().ok())
    };
    while i < fmt.len() {
        if fmt[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        let mut assign = true;
        while i < fmt.len() && b"-+ #0".contains(&fmt[i]) && !input {
            i += 1;
        }
        if input && fmt.get(i) == Some(&b'*') {
            assign = false;
            i += 1;
        } else if fmt.get(i) == Some(&b'*') {
            out.push(Conv::Star);
            i += 1;
        }
        let width = digits(&mut i);
        let mut precision = None;
        if !input && fmt.get(i) == Some(&b'.') {
            i += 1;
            if fmt.get(i) == Some(&b'*') {
                out.push(Conv::Star);
                i += 1;
            } else {
                precision = Some(digits(&mut i).unwrap_or(0));
            }
        }
        let from = i;
        while i < fmt.len() && b"hlzjtL".contains(&fmt[i]) {
            i += 1;
        }
        let len = std::str::from_utf8(&fmt[from..i]).unwrap_or("");
        let Some(&c) = fmt.get(i) else {
            return Err("a format that ends inside a conversion".into());
        };
        i += 1;
        let signed = |t: IntType| match len {
            "hh" if input => Ok(IntType::SChar),
            "h" if input => Ok(IntType::Short),
            "" | "h" | "hh" | "t" => Ok(t),
            "l" => Ok(IntType::Long),
            "ll" | "j" => Ok(IntType::LongLong),
            "z" => Ok(IntType::Int),
            _ => Err(format!("the length `{len}`")),
        };
        let conv = match c {
            b'%' => continue,
            b'd' | b'i' => Conv::Int(signed(IntType::Int)?),
            b'u' | b'x' | b'X' | b'o' => Conv::Int(match signed(IntType::Int)? {
                IntType::SChar => IntType::UChar,
                IntType::Short => IntType::UShort,
                IntType::Long => IntType::ULong,
                IntType::LongLong => IntType::ULongLong,
                _ => IntType::UInt,
            }),
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => match (len, input) {
                // `printf` takes a `double` (a `float` argument is promoted).
                ("" | "l", false) => Conv::Int(IntType::Double),
                ("", true) => Conv::Int(IntType::Float),
                ("l", true) => Conv::Int(IntType::Double),
                _ => return Err(format!("the length `{len}` on `%{}`", c as char)),
            },
            b'c' if input => Conv::Chars(width.unwrap_or(1)),
            b'c' => Conv::Int(IntType::Int),
            b's' if input => match width {
                Some(w) => Conv::Str(Some(w)),
                None => return Err("`%s` without a width (it may overflow any buffer)".into()),
            },
            b's' => Conv::Str(precision),
            _ => return Err(format!("the conversion `%{}`", c as char)),
        };
        if assign {
            out.push(conv);
        }
    }
    Ok(out)
}

/// The bytes of the format, argument `at` of a call of `name`: a string
/// literal, or the call is not modelled.
pub(super) fn literal<'a>(
    name: &str,
    args: &[Expr],
    at: usize,
    strings: &'a HashMap<String, Vec<u8>>,
) -> Result<&'a Vec<u8>, String> {
    let fmt = match args.get(at).map(|a| &a.kind) {
        Some(K::Var(id)) => strings.get(&id.name),
        _ => None,
    };
    fmt.ok_or_else(|| format!("`{name}` with a format that is not a string literal is not modelled yet"))
}

/// The model of call `name(args)`, whose arguments become the conversions'
/// only: the format (a literal) and the stream of `fprintf`/`fscanf` (when
/// it is a plain name: evaluating it does nothing) are dropped.
pub(super) fn instance(
    name: &str,
    args: &mut Vec<Expr>,
    strings: &HashMap<String, Vec<u8>>,
    streams: bool,
    pointee: impl Fn(&Expr) -> Option<CType>,
) -> Result<String, String> {
    let input = name.contains("scanf");
    if matches!(name, "sprintf" | "snprintf") {
        return super::sprintf::instance(name, args, strings, pointee);
    }
    if name == "sscanf" {
        return Err(format!("`{name}` is not modelled yet"));
    }
    // The shipped `FILE`: the stream is the model's first parameter, read
    // (`streams.rs`), put back after the conversions are made.
    let stream = match (streams && matches!(name, "fprintf" | "fscanf"), args.is_empty()) {
        (true, false) => Some(args.remove(0)),
        _ => None,
    };
    if matches!(name, "fprintf" | "fscanf") && stream.is_none() {
        match args.first().map(|a| &a.kind) {
            Some(K::Var(_)) => _ = args.remove(0),
            _ => {
                return Err(format!(
                    "`{name}` on a stream that is not a variable is not modelled yet"
                ))
            }
        }
    }
    let fmt = literal(name, args, 0, strings)?;
    let convs = conversions(fmt, input).map_err(|what| format!("`{name}` with {what} is not modelled yet"))?;
    if convs.len() + 1 != args.len() {
        return Err(format!(
            "`{name}`: the format has {} conversion(s) for {} argument(s)",
            convs.len(),
            args.len() - 1
        ));
    }
    // The format is a literal: read here, not passed (a model with an
    // unused pointer parameter would need the memory model).
    args.remove(0);
    let mut params = Vec::new();
    let mut body = Vec::new();
    if let Some(s) = stream {
        args.insert(0, s);
        params.push("FILE *stream".to_string());
        body.push("int open = stream->__open;".to_string());
    }
    let first = params.len();
    for (k, c) in convs.iter().enumerate() {
        let a = format!("a{k}");
        let chars = match pointee(&args[first + k]) {
            Some(CType::Int(t @ (IntType::UChar | IntType::SChar))) => t.c_name(),
            _ => "char",
        };
        match (c, input) {
            (Conv::Int(t), false) => params.push(format!("{} {a}", t.c_name())),
            (Conv::Star, _) => params.push(format!("int {a}")),
            (Conv::Str(p), false) => {
                params.push(format!("const {chars} *{a}"));
                let bound = p.map_or(String::new(), |p| format!("i{k} < {p} && "));
                body.push(format!("size_t i{k} = 0; while ({bound}{a}[i{k}] != 0) i{k}++;"));
            }
            (Conv::Int(t), true) => {
                params.push(format!("{} *{a}", t.c_name()));
                body.push(format!("if (r > {k}) *{a} = {}();", nondet(*t)));
            }
            (Conv::Str(w), true) => {
                params.push(format!("{chars} *{a}"));
                let w = w.unwrap_or(1);
                body.push(format!(
                    "if (r > {k}) {{ size_t n{k} = __VERIFIER_nondet_uint(); __VERIFIER_assume(n{k} >= 1 && n{k} <= {w}); \
                     size_t i{k} = 0; while (i{k} < n{k}) {{ {chars} c{k} = __VERIFIER_nondet_char(); \
                     __VERIFIER_assume(c{k} != 0); {a}[i{k}] = c{k}; i{k}++; }} {a}[n{k}] = 0; }}"
                ));
            }
            (Conv::Chars(w), true) => {
                params.push(format!("{chars} *{a}"));
                body.push(format!(
                    "if (r > {k}) {{ size_t i{k} = 0; while (i{k} < {w}) {{ {a}[i{k}] = __VERIFIER_nondet_char(); i{k}++; }} }}"
                ));
            }
            (Conv::Chars(_), false) => unreachable!("`%c` of printf is an integer"),
        }
    }
    let text = if input {
        format!(
            "int {name}({}) {{ int r = __VERIFIER_nondet_int(); __VERIFIER_assume(r >= -1 && r <= {}); {} return r; }}",
            params.join(", "),
            convs.len(),
            body.join(" ")
        )
    } else {
        format!(
            "int {name}({}) {{ {} return __VERIFIER_nondet_int(); }}",
            params.join(", "),
            body.join(" ")
        )
    };
    Ok(text)
}
