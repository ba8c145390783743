//! The front door: a source file parsed, checked and lowered to the IR
//! (preprocessor, parser, C library, memory model, lowering, contracts,
//! points-to narrowing), in the `ir` layer so every layer above may load.

use crate::diag::Diag;
use crate::ir::lower::LowerOptions;
use crate::syntax::source::SourceFile;
use std::sync::Arc;

/// Parses, checks and lowers one file. Diagnostics include warnings even when
/// a program comes back; no program means at least one error.
pub fn load(file: Arc<SourceFile>, opts: &LowerOptions) -> (Option<crate::ir::Program>, Vec<Diag>) {
    let mut diags = Vec::new();
    let parsed = crate::syntax::parse_source(&file, &opts.pp, &mut diags);
    let (annotations, acsl_errors) = crate::ir::contract::parse_all(&file.text, &parsed.annotations);
    diags.extend(acsl_errors);
    let syntax_errors = diags.iter().any(|d| d.is_error());
    let constants = crate::ir::lower::macro_constants(&parsed.macros);
    let flat = crate::ir::dims::flatten(&parsed.ast, opts.vla_elems, &mut diags);
    let linked = crate::ir::libc::link(
        flat.as_ref().unwrap_or(&parsed.ast),
        &file,
        opts.param_elems,
        &mut diags,
    );
    let (ast, memory, annotations) = crate::ir::mem::eliminate(&linked, &annotations, opts, &file, &mut diags);
    let mut program = crate::ir::lower::lower(file, &ast, constants, opts, &mut diags);
    if syntax_errors {
        return (None, diags);
    }
    if let Some(p) = &mut program {
        p.macro_uses = parsed.macro_uses;
        p.memory = memory;
        match crate::ir::contract::resolve(p, &annotations) {
            Ok(c) => p.contracts = c,
            Err(d) => {
                diags.extend(d);
                return (None, diags);
            }
        }
        // Last: nothing later writes a variable of the program (contract
        // instrumentation adds only its own), so the cut cases stay dead.
        crate::ir::narrow::narrow(p);
    }
    (program, diags)
}

/// A source file from raw bytes: invalid UTF-8 is an error at its position.
pub fn source_from_bytes(name: &str, bytes: Vec<u8>) -> (Arc<SourceFile>, Option<Diag>) {
    // A NUL byte near the start (as git decides): binary data, never shown.
    if let Some(at) = bytes.iter().take(8000).position(|&b| b == 0) {
        let diag = Diag::error(
            crate::diag::Class::Syntax,
            crate::syntax::source::Span::new(0, 0),
            format!("the file is binary, not C source (a NUL byte at offset {at})"),
        );
        return (Arc::new(SourceFile::new(name, String::new())), Some(diag));
    }
    match String::from_utf8(bytes) {
        Ok(text) => (Arc::new(SourceFile::new(name, text)), None),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let diag = Diag::error(
                crate::diag::Class::Syntax,
                crate::syntax::source::Span::new(at, at + 1),
                "the file is not valid UTF-8",
            )
            .with_label(format!("invalid byte 0x{:02x}", e.as_bytes()[at]))
            .with_note("Cimple files must be UTF-8 (ASCII is fine)");
            (Arc::new(SourceFile::new(name, text)), Some(diag))
        }
    }
}

/// A loaded program made ready to check: its contracts instrumented as
/// its own checks (when `instrument`: `check`, `run`, fix candidates), its
/// `--error` conditions resolved. `Err`: a condition's text and errors.
#[allow(clippy::type_complexity)]
pub fn prepare(
    program: crate::ir::Program,
    errors: &[String],
    instrument: bool,
) -> Result<(crate::ir::Program, Vec<crate::ir::cond::UserCond>), (String, Vec<Diag>)> {
    let program = match instrument {
        true => crate::ir::contract::instrument::instrument(&program).0,
        false => program,
    };
    let users = crate::ir::cond::user_conditions(&program, errors)?;
    Ok((program, users))
}
