//! `sprintf` and `snprintf` as glibc formats (C11 7.21.6.1): the model made
//! for a call writes the characters the format gives, one by one, so that
//! a buffer too small is an access past it at the user's call (`sprintf`)
//! and `snprintf` stops at `n - 1` characters, returning the length the
//! whole text has.
//!
//! Modelled: `%d %i %u %x %X %o %c %s %%`, the lengths `hh h l ll z`
//! (ILP32: `long` is `int`), a constant width with the flags `-` and `0`,
//! a constant precision on `%s`. Anything else (`%f`, `%p`, `*`, `+`,
//! `#`, a precision on a number) is not modelled yet, said at the call.

use crate::syntax::ast::{CType, Expr, IntType};
use std::collections::HashMap;
use std::fmt::Write;

/// One piece of a format.
enum Piece {
    Char(u8),
    /// A conversion: its letter, type, width, left-justified, zero-padded,
    /// precision (for `%s`).
    Conv {
        letter: u8,
        ty: IntType,
        width: u32,
        left: bool,
        zero: bool,
        precision: Option<u32>,
    },
}

fn pieces(fmt: &[u8]) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            out.push(Piece::Char(fmt[i]));
            i += 1;
            continue;
        }
        i += 1;
        let (mut left, mut zero) = (false, false);
        while let Some(&f) = fmt.get(i).filter(|f| b"-0+ #".contains(f)) {
            match f {
                b'-' => left = true,
                b'0' => zero = true,
                _ => return Err(format!("the flag `{}`", f as char)),
            }
            i += 1;
        }
        let number = |i: &mut usize| {
            let from = *i;
            while fmt.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            std::str::from_utf8(&fmt[from..*i])
                .ok()
                .and_then(|s| s.parse::<u32>().ok())
        };
        if fmt.get(i) == Some(&b'*') {
            return Err("a `*` width".into());
        }
        let width = number(&mut i).unwrap_or(0);
        if width > 64 {
            return Err(format!("a width of {width}"));
        }
        let precision = if fmt.get(i) == Some(&b'.') {
            i += 1;
            Some(number(&mut i).ok_or("a `*` or empty precision")?)
        } else {
            None
        };
        let from = i;
        while fmt.get(i).is_some_and(|c| b"hlzjt".contains(c)) {
            i += 1;
        }
        let len = std::str::from_utf8(&fmt[from..i]).unwrap_or("");
        let letter = *fmt.get(i).ok_or("a format that ends inside a conversion")?;
        i += 1;
        if letter == b'%' {
            out.push(Piece::Char(b'%'));
            continue;
        }
        let unsigned = matches!(letter, b'u' | b'x' | b'X' | b'o');
        let ty = match (letter, len) {
            (b'c', "") => IntType::Int,
            (b's', "") => IntType::Char,
            (b'd' | b'i' | b'u' | b'x' | b'X' | b'o', "" | "h" | "hh" | "l" | "z" | "t") => {
                if unsigned {
                    IntType::UInt
                } else {
                    IntType::Int
                }
            }
            (b'd' | b'i' | b'u' | b'x' | b'X' | b'o', "ll" | "j") => {
                if unsigned {
                    IntType::ULongLong
                } else {
                    IntType::LongLong
                }
            }
            _ => return Err(format!("the conversion `%{len}{}`", letter as char)),
        };
        if precision.is_some() && letter != b's' {
            return Err(format!("a precision on `%{}`", letter as char));
        }
        // `hh`/`h` print the argument converted to (unsigned) char/short.
        let narrow = match (len, unsigned) {
            ("hh", false) => Some(IntType::SChar),
            ("hh", true) => Some(IntType::UChar),
            ("h", false) => Some(IntType::Short),
            ("h", true) => Some(IntType::UShort),
            _ => None,
        };
        out.push(Piece::Conv {
            letter,
            ty: narrow.unwrap_or(ty),
            width,
            left,
            zero: zero && !left && letter != b's' && letter != b'c',
            precision,
        });
    }
    Ok(out)
}

/// The model of `sprintf(buf, fmt, ...)` or `snprintf(buf, n, fmt, ...)`;
/// the format (a literal) is dropped from `args`.
pub(super) fn instance(
    name: &str,
    args: &mut Vec<Expr>,
    strings: &HashMap<String, Vec<u8>>,
    pointee: impl Fn(&Expr) -> Option<CType>,
) -> Result<String, String> {
    let at = if name == "snprintf" { 2 } else { 1 };
    let fmt = super::formats::literal(name, args, at, strings)?;
    let pieces = pieces(fmt).map_err(|what| format!("`{name}` with {what} is not modelled yet"))?;
    let convs = pieces.iter().filter(|p| matches!(p, Piece::Conv { .. })).count();
    if convs + at + 1 != args.len() {
        return Err(format!(
            "`{name}`: the format has {convs} conversion(s) for {} argument(s)",
            args.len() - at - 1
        ));
    }
    let chars = |e: Option<&Expr>| match e.and_then(&pointee) {
        Some(CType::Int(t @ (IntType::UChar | IntType::SChar))) => t.c_name(),
        _ => "char",
    };
    let mut params = vec![format!("{} *buf", chars(args.first()))];
    if name == "snprintf" {
        params.push("size_t n".into());
    }
    let mut body = String::from("size_t pos = 0; char tmp[24] = {0}; int t = 0; int pad = 0;\n");
    let mut k = 0;
    for p in &pieces {
        match p {
            Piece::Char(c) => {
                let _ = writeln!(body, "PUT({c});");
            }
            Piece::Conv {
                letter,
                ty,
                width,
                left,
                zero,
                precision,
            } => {
                let a = format!("a{k}");
                let arg = args.get(at + 1 + k);
                k += 1;
                if *letter == b's' {
                    params.push(format!("const {} *{a}", chars(arg)));
                } else {
                    params.push(format!("{} {a}", ty.c_name()));
                }
                body.push_str(&conversion(&a, *letter, *ty, *width, *left, *zero, *precision));
            }
        }
    }
    let end = if name == "snprintf" {
        "if (n > 0) buf[pos < n ? pos : n - 1] = 0;"
    } else {
        "buf[pos] = 0;"
    };
    let put = if name == "snprintf" {
        "{ if (pos + 1 < n) buf[pos] = (CH); pos++; }"
    } else {
        "{ buf[pos] = (CH); pos++; }"
    };
    let body = expand_put(&body, put);
    args.remove(at);
    Ok(format!(
        "int {name}({}) {{\n{body}{end}\nreturn (int)pos;\n}}",
        params.join(", ")
    ))
}

/// Replaces each `PUT(x);` with the statements writing character `x`.
fn expand_put(body: &str, put: &str) -> String {
    let mut out = String::new();
    for line in body.split_inclusive('\n') {
        let mut rest = line;
        while let Some(i) = rest.find("PUT(") {
            out.push_str(&rest[..i]);
            let after = &rest[i + 4..];
            let close = after.find(");").expect("a PUT ends with `);`");
            out.push_str(&put.replace("CH", &after[..close]));
            rest = &after[close + 2..];
        }
        out.push_str(rest);
    }
    out
}

/// The statements writing conversion `%letter` of argument `a`: its
/// characters into `tmp` (backwards, for a number), then the padding
/// and the characters.
fn conversion(a: &str, letter: u8, ty: IntType, width: u32, left: bool, zero: bool, precision: Option<u32>) -> String {
    let mut s = String::new();
    let pad_char = if zero { "'0'" } else { "' '" };
    match letter {
        b's' => {
            let bound = precision.map_or(String::new(), |p| format!("t < {p} && "));
            let _ = writeln!(s, "t = 0; while ({bound}{a}[t] != 0) t++;");
            let _ = writeln!(s, "pad = {width} - t;");
            if !left {
                let _ = writeln!(s, "while (pad > 0) {{ PUT(' '); pad--; }}");
            }
            let _ = writeln!(s, "{{ int j = 0; while (j < t) {{ PUT({a}[j]); j++; }} }}");
        }
        b'c' => {
            let _ = writeln!(s, "pad = {width} - 1;");
            if !left {
                let _ = writeln!(s, "while (pad > 0) {{ PUT(' '); pad--; }}");
            }
            let _ = writeln!(s, "PUT((char){a});");
        }
        _ => {
            let (base, ten) = match letter {
                b'x' => (16, "'a'"),
                b'X' => (16, "'A'"),
                b'o' => (8, "'0'"),
                _ => (10, "'0'"),
            };
            let wide = ty.size() == 8;
            let mag = if wide { "unsigned long long" } else { "unsigned int" };
            let _ = writeln!(s, "{{ int neg = 0; {mag} m = ({mag}){a};");
            if ty.is_signed() {
                let _ = writeln!(s, "if ({a} < 0) {{ neg = 1; m = 0 - m; }}");
            }
            let _ = writeln!(
                s,
                "t = 0; do {{ int d = (int)(m % {base}); tmp[t] = (char)(d < 10 ? '0' + d : {ten} + d - 10); t++; m = m / {base}; }} while (m != 0);"
            );
            let _ = writeln!(s, "pad = {width} - t - neg;");
            if !left && !zero {
                let _ = writeln!(s, "while (pad > 0) {{ PUT(' '); pad--; }}");
            }
            let _ = writeln!(s, "if (neg) PUT('-');");
            if zero {
                let _ = writeln!(s, "while (pad > 0) {{ PUT({pad_char}); pad--; }}");
            }
            let _ = writeln!(s, "while (t > 0) {{ t--; PUT(tmp[t]); }} }}");
        }
    }
    if left {
        let _ = writeln!(s, "while (pad > 0) {{ PUT(' '); pad--; }}");
    }
    s
}
