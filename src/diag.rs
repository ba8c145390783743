//! Diagnostics: errors and warnings about an input file, rendered like a
//! compiler's (file:line:col, the source line, a caret) by codespan-reporting.

use crate::syntax::source::{SourceFile, Span};
use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

/// What kind of problem a diagnostic reports; lets callers tell a plain
/// mistake from valid C that Cimple does not cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Not valid C (or not valid Cimple syntax): always an error.
    Syntax,
    /// Valid C, but outside the Cimple subset.
    Unsupported,
    /// Names, types, arity and similar checks.
    Semantic,
    /// Information about what the tool did (a function left out, ...).
    Info,
}

#[derive(Clone, Debug)]
pub struct Diag {
    pub severity: Severity,
    pub class: Class,
    pub message: String,
    pub span: Span,
    /// Text under the caret.
    pub label: String,
    pub notes: Vec<String>,
    pub secondary: Vec<(Span, String)>,
}

impl Diag {
    pub fn error(class: Class, span: Span, message: impl Into<String>) -> Diag {
        Diag {
            severity: Severity::Error,
            class,
            message: message.into(),
            span,
            label: String::new(),
            notes: Vec::new(),
            secondary: Vec::new(),
        }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Diag {
        Diag {
            severity: Severity::Warning,
            ..Diag::error(Class::Info, span, message)
        }
    }

    /// Information shown with the source, such as where an FSS runs.
    pub fn note(span: Span, message: impl Into<String>) -> Diag {
        Diag {
            severity: Severity::Note,
            ..Diag::error(Class::Info, span, message)
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Diag {
        self.label = label.into();
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diag {
        self.notes.push(note.into());
        self
    }

    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Diag {
        self.secondary.push((span, label.into()));
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// One line: `file:line:col: error: message`.
    pub fn one_line(&self, file: &SourceFile) -> String {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        format!("{}: {}: {}", file.location(self.span), sev, self.message)
    }
}

/// Renders diagnostics with the source line and a caret; `color` selects
/// ANSI colours.
pub fn render(file: &SourceFile, diags: &[Diag], color: bool) -> String {
    // This file and the headers it includes, each with its own lines.
    let mut files = SimpleFiles::new();
    files.add(file.name.as_str(), file.text.as_str());
    for h in file.includes() {
        files.add(h.name.as_str(), h.text.as_str());
    }
    let config = term::Config::default();
    let mut out = String::new();
    for d in diags {
        let base = match d.severity {
            Severity::Error => Diagnostic::error(),
            Severity::Warning => Diagnostic::warning(),
            Severity::Note => Diagnostic::note(),
        };
        let (id, range) = file.resolve(d.span);
        let mut labels = vec![Label::primary(id, range).with_message(&d.label)];
        for (span, text) in &d.secondary {
            let (id, range) = file.resolve(*span);
            labels.push(Label::secondary(id, range).with_message(text));
        }
        // The location in the header keeps the first line greppable as
        // `file:line:col`, like gcc's.
        let diagnostic = base
            .with_message(format!("{}: {}", file.location(d.span), d.message))
            .with_labels(labels)
            .with_notes(d.notes.clone());
        if color {
            let mut buf = term::termcolor::Buffer::ansi();
            let _ = term::emit_to_write_style(&mut buf, &config, &files, &diagnostic);
            out.push_str(&String::from_utf8_lossy(buf.as_slice()));
        } else {
            let _ = term::emit_to_string(&mut out, &config, &files, &diagnostic);
        }
    }
    out
}
