//! Names in a product program: two versions of one program lowered
//! together (`focuscheck diff`), the reference's functions and globals
//! renamed with a prefix so that both fit in one namespace. Views print
//! them as the user wrote them.

/// The prefix of the reference version's names in a product.
pub const REFERENCE_PREFIX: &str = "__ref_";

/// A text of the product with the reference's names as the user wrote
/// them (`__ref_alt_sep` is `alt_sep`).
pub fn strip_reference(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(k) = rest.find(REFERENCE_PREFIX) {
        out.push_str(&rest[..k]);
        let boundary = out
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
        if !boundary {
            out.push_str(REFERENCE_PREFIX);
        }
        rest = &rest[k + REFERENCE_PREFIX.len()..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_only_whole_prefixes() {
        assert_eq!(strip_reference("__ref_alt_sep(__ref_x + y)"), "alt_sep(x + y)");
        assert_eq!(strip_reference("my__ref_x"), "my__ref_x");
    }
}
