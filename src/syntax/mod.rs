//! The front end: lexing (with `#define`), parsing, and the AST.

pub mod acsl;
pub mod ast;
pub mod lexer;
pub mod parser;
pub mod source;

use crate::diag::Diag;
use std::collections::BTreeMap;

pub struct Parsed {
    pub ast: ast::Program,
    /// Macros whose body is a constant expression, with their value.
    pub constants: BTreeMap<String, i64>,
    /// ACSL annotation comments, in file order.
    pub annotations: Vec<acsl::Comment>,
}

/// Lexes and parses a file; problems go to `diags`, a tree always comes back.
pub fn parse_source(file: &source::SourceFile, diags: &mut Vec<Diag>) -> Parsed {
    let lexed = lexer::lex(&file.text, diags);
    let mut constants = BTreeMap::new();
    for (name, body) in &lexed.macros {
        let mut scratch = Vec::new();
        let mut toks = lexer::expand_macros(body.clone(), &lexed.macros, &mut scratch);
        let end = toks.last().map(|t| t.span).unwrap_or_default();
        toks.push(lexer::Token {
            kind: lexer::TokKind::Eof,
            span: end,
            line_start: false,
        });
        if let Some(v) = parser::parse_expression(toks, &mut scratch)
            .as_ref()
            .and_then(crate::ir::lower::const_eval)
        {
            constants.insert(name.clone(), v);
        }
    }
    let ast = parser::parse(lexed.tokens, diags);
    Parsed {
        ast,
        constants,
        annotations: lexed.annotations,
    }
}
