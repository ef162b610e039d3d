//! Text put into HTML: escaped for element content and attributes, and JSON
//! made safe inside a `<script>` element.

/// `text` with `& < > " '` escaped, safe in element content and in quoted
/// attribute values.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON that cannot end its `<script>` element early: in JSON a `<` can only
/// be inside a string, where `\u003c` means the same character.
pub fn script_json(json: &str) -> String {
    json.replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_script_ends_are_escaped() {
        assert_eq!(html("a<b & \"c\"'"), "a&lt;b &amp; &quot;c&quot;&#39;");
        let json = serde_json::json!({"text": "</script><!--"}).to_string();
        let safe = script_json(&json);
        assert!(!safe.contains('<'));
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back["text"], "</script><!--");
    }
}
