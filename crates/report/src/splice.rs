//! Replacing the generated section of a hand-written file (the README)
//! between two marker lines, leaving every other byte as it was.

/// The line that opens the generated section.
pub const BEGIN_MARKER: &str = "<!-- BEGIN: comparison -->";
/// The line that closes it.
pub const END_MARKER: &str = "<!-- END: comparison -->";

/// `document` with the text between the markers replaced by `section`.
/// Exactly one pair of markers, in order, is required.
pub fn splice(document: &str, section: &str) -> Result<String, String> {
    let begin = single(document, BEGIN_MARKER)?;
    let end = single(document, END_MARKER)?;
    if end < begin {
        return Err(format!("{END_MARKER} comes before {BEGIN_MARKER}"));
    }
    let after_begin = begin + BEGIN_MARKER.len();
    let mut spliced = String::with_capacity(document.len() + section.len());
    spliced.push_str(&document[..after_begin]);
    spliced.push('\n');
    spliced.push_str(section.trim_end_matches('\n'));
    spliced.push('\n');
    spliced.push_str(&document[end..]);
    Ok(spliced)
}

fn single(document: &str, marker: &str) -> Result<usize, String> {
    let mut found = document.match_indices(marker).map(|(at, _)| at);
    match (found.next(), found.next()) {
        (Some(at), None) => Ok(at),
        (None, _) => Err(format!("no {marker} marker line")),
        (Some(_), Some(_)) => Err(format!("{marker} appears more than once")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_only_between_the_markers_and_is_idempotent() {
        let readme = format!("# Title\nintro\n{BEGIN_MARKER}\nold\nstuff\n{END_MARKER}\ntail\n");
        let once = splice(&readme, "new table\n").unwrap();
        assert_eq!(
            once,
            format!("# Title\nintro\n{BEGIN_MARKER}\nnew table\n{END_MARKER}\ntail\n")
        );
        assert_eq!(splice(&once, "new table\n").unwrap(), once);
    }

    #[test]
    fn refuses_missing_repeated_or_reversed_markers() {
        assert!(splice("no markers", "x").unwrap_err().contains("BEGIN"));
        let twice = format!("{BEGIN_MARKER}\n{BEGIN_MARKER}\n{END_MARKER}\n");
        assert!(splice(&twice, "x").unwrap_err().contains("more than once"));
        let reversed = format!("{END_MARKER}\n{BEGIN_MARKER}\n");
        assert!(splice(&reversed, "x").unwrap_err().contains("before"));
    }
}
