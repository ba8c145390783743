//! The front end: preprocessing and lexing, parsing, and the AST.

pub mod acsl;
pub mod ast;
pub mod float_lit;
pub mod lexer;
pub mod parser;
pub mod preprocess;
pub mod source;
pub mod yaml;

use crate::diag::Diag;
use std::collections::BTreeMap;

pub struct Parsed {
    pub ast: ast::Program,
    /// Macros whose body parses as an expression, with that expression
    /// (lowering evaluates the constant ones).
    pub macros: BTreeMap<String, ast::Expr>,
    /// Where macros are expanded.
    pub macro_uses: Vec<lexer::MacroUse>,
    /// ACSL annotation comments, in file order.
    pub annotations: Vec<acsl::Comment>,
}

/// Preprocesses, lexes and parses a file; problems go to `diags`, a tree
/// always comes back.
pub fn parse_source(file: &source::SourceFile, pp: &preprocess::PpOptions, diags: &mut Vec<Diag>) -> Parsed {
    let lexed = preprocess::preprocess(file, pp, diags);
    let mut macros = BTreeMap::new();
    for (name, body) in &lexed.macros {
        let mut scratch = Vec::new();
        let mut toks = body.clone();
        let end = toks.last().map(|t| t.span).unwrap_or_default();
        toks.push(lexer::Token {
            kind: lexer::TokKind::Eof,
            span: end,
            line_start: false,
        });
        if let Some(e) = parser::parse_expression(toks, &mut scratch) {
            macros.insert(name.clone(), e);
        }
    }
    let ast = parser::parse(lexed.tokens, diags);
    Parsed {
        ast,
        macros,
        macro_uses: lexed.uses,
        annotations: lexed.annotations,
    }
}
