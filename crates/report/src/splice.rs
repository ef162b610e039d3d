//! Replacing a generated section of a hand-written file (the README)
//! between two marker lines, leaving every other byte as it was. A section
//! has a name: `<!-- BEGIN: NAME -->` opens it and `<!-- END: NAME -->`
//! closes it, so that several generators (the comparison table, the build
//! time) each own one section of the same file.

/// The line that opens the comparison section.
pub(crate) const BEGIN_MARKER: &str = "<!-- BEGIN: comparison -->";
/// The line that closes it.
pub(crate) const END_MARKER: &str = "<!-- END: comparison -->";

/// `document` with the text between the comparison markers replaced by
/// `section`: [`splice_section`] for the section named `comparison`.
pub(crate) fn splice(document: &str, section: &str) -> Result<String, String> {
    splice_section(document, "comparison", section)
}

/// The marker lines of the section called `name`: (begin, end).
fn markers(name: &str) -> (String, String) {
    (
        format!("<!-- BEGIN: {name} -->"),
        format!("<!-- END: {name} -->"),
    )
}

/// `document` with the text between the markers of the section `name`
/// replaced by `section`. Exactly one pair of markers, in order, is
/// required.
pub fn splice_section(document: &str, name: &str, section: &str) -> Result<String, String> {
    let (begin_marker, end_marker) = markers(name);
    let begin = single(document, &begin_marker)?;
    let end = single(document, &end_marker)?;
    if end < begin {
        return Err(format!("{end_marker} comes before {begin_marker}"));
    }
    let after_begin = begin + begin_marker.len();
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

    #[test]
    fn a_named_section_leaves_the_other_sections_alone() {
        let readme = format!(
            "top\n<!-- BEGIN: build-time -->\nold\n<!-- END: build-time -->\n\
             {BEGIN_MARKER}\ntable\n{END_MARKER}\n"
        );
        let once = splice_section(&readme, "build-time", "7 minutes").unwrap();
        assert_eq!(
            once,
            format!(
                "top\n<!-- BEGIN: build-time -->\n7 minutes\n<!-- END: build-time -->\n\
                 {BEGIN_MARKER}\ntable\n{END_MARKER}\n"
            )
        );
        assert_eq!(
            splice_section(&once, "build-time", "7 minutes\n").unwrap(),
            once
        );
        assert!(
            splice_section(&readme, "other", "x")
                .unwrap_err()
                .contains("<!-- BEGIN: other -->")
        );
    }
}
