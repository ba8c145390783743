//! The documents of the commands that check a batch of files one by one
//! (`verify`, `doomed`): per file its command's document with `status:
//! checked` and the file's `warnings`, or, for a file that was not
//! analysed, why (`status`) and its `errors`. Printed with keys in
//! alphabetical order, as these commands always wrote them.

use super::json::MessageDoc;
use serde::Serialize;

/// A command's document about one file.
pub trait Document: Serialize {
    fn file(&self) -> &str;
}

/// One file's entry in a batch's output.
#[derive(Serialize)]
#[serde(untagged)]
pub enum FileEntry<D> {
    Checked(Checked<D>),
    NotChecked(NotChecked),
}

/// A file that was analysed: its document, and warnings about the file (a
/// part left out, ...).
#[derive(Serialize)]
pub struct Checked<D> {
    #[serde(flatten)]
    pub doc: D,
    /// Always `checked`.
    pub status: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<MessageDoc>,
}

/// A file that was not analysed: `unreadable`, `error` (it does not load)
/// or `internal_error`, and the errors that say why.
#[derive(Serialize)]
pub struct NotChecked {
    pub errors: Vec<MessageDoc>,
    pub file: String,
    pub status: &'static str,
}

impl<D: Document> FileEntry<D> {
    pub fn checked(doc: D, warnings: Vec<MessageDoc>) -> Self {
        FileEntry::Checked(Checked {
            doc,
            status: "checked",
            warnings,
        })
    }

    pub fn not_checked(file: &str, status: &'static str, errors: Vec<MessageDoc>) -> Self {
        FileEntry::NotChecked(NotChecked {
            errors,
            file: file.to_string(),
            status,
        })
    }

    pub fn file(&self) -> &str {
        match self {
            FileEntry::Checked(c) => c.doc.file(),
            FileEntry::NotChecked(n) => &n.file,
        }
    }

    pub fn status(&self) -> &'static str {
        match self {
            FileEntry::Checked(c) => c.status,
            FileEntry::NotChecked(n) => n.status,
        }
    }

    /// Errors: those of a file that was not analysed.
    pub fn errors(&self) -> &[MessageDoc] {
        match self {
            FileEntry::Checked(_) => &[],
            FileEntry::NotChecked(n) => &n.errors,
        }
    }

    pub fn warnings(&self) -> &[MessageDoc] {
        match self {
            FileEntry::Checked(c) => &c.warnings,
            FileEntry::NotChecked(_) => &[],
        }
    }

    /// The document of an analysed file.
    pub fn doc(&self) -> Option<&D> {
        match self {
            FileEntry::Checked(c) => Some(&c.doc),
            FileEntry::NotChecked(_) => None,
        }
    }
}

/// A document as JSON text with its keys sorted (pretty: indented), the
/// form these commands always printed.
pub fn sorted_json(doc: &impl Serialize, pretty: bool) -> String {
    let value = serde_json::to_value(doc).unwrap_or_default();
    let text = if pretty {
        serde_json::to_string_pretty(&value)
    } else {
        serde_json::to_string(&value)
    };
    text.unwrap_or_default()
}
