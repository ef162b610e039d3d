//! The two escapings the templates need: markup (every value the engine
//! writes into a template, by [`Markup`]), and JSON inside a `<script>`
//! element, which is not HTML escaping (a script's text is not parsed for
//! entities; only its end tag matters) and so stays a function.

use std::fmt::{self, Write};

/// The templates' escaper (named in `templates/askama.toml`): `& < > " '`
/// become `&amp; &lt; &gt; &quot; &#39;`, safe in element content and in
/// quoted attribute values.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Markup;

impl askama::filters::Escaper for Markup {
    fn write_escaped_str<W: Write>(&self, mut dest: W, text: &str) -> fmt::Result {
        let mut rest = text;
        while let Some(at) = rest.find(['&', '<', '>', '"', '\'']) {
            dest.write_str(&rest[..at])?;
            dest.write_str(match rest.as_bytes()[at] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                _ => "&#39;",
            })?;
            rest = &rest[at + 1..];
        }
        dest.write_str(rest)
    }
}

/// JSON that cannot end its `<script>` element early: in JSON a `<` can only
/// be inside a string, where `\u003c` means the same character.
pub(super) fn script_json(json: &str) -> String {
    json.replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;
    use askama::filters::Escaper;

    #[test]
    fn markup_and_script_ends_are_escaped() {
        let mut escaped = String::new();
        Markup
            .write_escaped_str(&mut escaped, "a<b & \"c\"'>é")
            .unwrap();
        assert_eq!(escaped, "a&lt;b &amp; &quot;c&quot;&#39;&gt;é");
        let json = serde_json::json!({"text": "</script><!--"}).to_string();
        let safe = script_json(&json);
        assert!(!safe.contains('<'));
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back["text"], "</script><!--");
    }
}
