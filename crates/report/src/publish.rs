//! `queens report` as one call: read the records, generate every output,
//! check the splice target, write every file beside its place, then put
//! them all in place. Nothing is replaced unless every input could be read,
//! the splice target can take the section and every new file is on disk.

use std::path::{Component, Path, PathBuf};

use super::estimates::{ESTIMATES_SECTION, estimates_section};
use super::generate::generate;
use super::inputs::{
    Analyses, CodeChanges, InstructionsSource, PageInputs, Source, Trees, stale_solvers,
};
use super::measured::{BEGIN_PREFIX, splice_measured};
use super::overlay::Overlay;
use super::splice::{BEGIN_MARKER, END_MARKER, splice, splice_section};
use queens_record::FileError;
use queens_record::files::{Staged, commit_all, read_text};

use crate::error::Error;

/// What to report on and where to write it.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// Records, later ones replacing earlier ones' entries for the same
    /// (solver, n), and at most one instructions record (told apart by its
    /// `schema`); empty: the newest reference record (`cargo bench`'s, never
    /// a quick `queens compare`'s) in [`queens_record::RECORDS_DIR`] and the
    /// newest instructions record there, if any.
    pub records: Vec<PathBuf>,
    /// Directory for COMPARISON.md and the plots.
    pub out: PathBuf,
    /// Pages whose generated parts are replaced: the comparison section
    /// between its markers (the README) and every measured block.
    pub splice: Vec<PathBuf>,
    /// Each registered solver's analysis text, by id.
    pub analyses: Analyses<'a>,
    /// The trees the depth-first solvers walk on one board.
    pub trees: Trees<'a>,
    /// The page's teaching texts and recorded searches.
    pub page: PageInputs<'a>,
    /// The last change to each solver's code (from git, by the caller), so
    /// that rows measured before it say so.
    pub code: CodeChanges,
}

/// Generates and writes the report; returns the files written, in order,
/// the spliced file last.
pub fn publish(request: &Request<'_>) -> Result<Vec<PathBuf>, Error> {
    let paths = if request.records.is_empty() {
        let dir = Path::new(queens_record::RECORDS_DIR);
        let mut paths = vec![queens_record::newest_reference(dir)?];
        paths.extend(queens_record::instructions::newest_instructions(dir)?);
        paths
    } else {
        request.records.clone()
    };
    let (sources, instructions) = read_sources(&paths, &request.code)?;
    // The header names the records, not --out or --splice: the same records
    // must give the same bytes wherever the report is written.
    let labels: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    let command = format!("queens report {}", labels.join(" "));
    let outputs = generate(
        &command,
        &sources,
        instructions.as_ref(),
        &request.analyses,
        &request.trees,
        &request.page,
    )?;
    // A splice target that cannot be spliced is refused before anything is
    // written.
    let overlay = Overlay::from_sources(&sources);
    let documents = request.splice.iter().map(|target| read_text(target));
    let documents = documents.collect::<Result<Vec<_>, _>>()?;
    // The estimates section, made only when a splice target has its
    // markers: from `bench-results/estimates.json` (found like the default
    // records, from the working directory) if it is there, else the line
    // saying how to make it.
    let estimates_begin = format!("<!-- BEGIN: {ESTIMATES_SECTION} -->");
    let estimates = documents.iter().any(|d| d.contains(&estimates_begin));
    let estimates = estimates.then(|| {
        let dir = Path::new(queens_record::RECORDS_DIR);
        let path = dir.join(queens_record::estimates::ESTIMATES_FILE);
        queens_record::estimates::read_estimates_if_present(&path)
    });
    let estimates = estimates
        .transpose()?
        .map(|record| estimates_section(record.as_ref()));
    let mut spliced = Vec::new();
    for (target, document) in request.splice.iter().zip(documents) {
        let document = match &estimates {
            Some(section) if document.contains(&estimates_begin) => {
                splice_section(&document, ESTIMATES_SECTION, section)
                    .map_err(|problem| FileError::new(target, problem))?
            }
            _ => document,
        };
        let page = splice_page(target, &document, &overlay, &request.out)?;
        spliced.push((target.clone(), page));
    }

    std::fs::create_dir_all(&request.out)
        .map_err(|e| FileError::new(&request.out, format!("cannot create directory: {e}")))?;
    // Every file is written beside its place first, and only then are they
    // all put in place, or none: a failure (a full disk, a read-only or
    // immutable README) leaves every old version as it was, not a report
    // half regenerated.
    let files = outputs
        .iter()
        .map(|(name, text)| (request.out.join(name), text));
    let files: Vec<(PathBuf, &String)> = files
        .chain(spliced.iter().map(|(t, s)| (t.clone(), s)))
        .collect();
    let staged = files
        .iter()
        .map(|(path, text)| Staged::new(path, text.as_bytes()));
    commit_all(staged.collect::<Result<_, _>>()?)?;
    Ok(files.into_iter().map(|(path, _)| path).collect())
}

/// The records at `paths`, each read as the kind its `schema` names: bench
/// records in order, and the one instructions record if there is one. A
/// second instructions record is refused (which would be meant is not
/// clear), as is a list without a bench record.
fn read_sources(
    paths: &[PathBuf],
    code: &CodeChanges,
) -> Result<(Vec<Source>, Option<InstructionsSource>), Error> {
    let mut sources = Vec::new();
    let mut instructions: Option<InstructionsSource> = None;
    for path in paths {
        let text = read_text(path)?;
        let label = path.display().to_string();
        if queens_record::instructions::is_instructions_record(&text) {
            if let Some(first) = &instructions {
                return Err(FileError::new(
                    path,
                    format!(
                        "a second instructions record (the first: {}); give one",
                        first.label
                    ),
                )
                .into());
            }
            instructions = Some(InstructionsSource {
                label,
                record: queens_record::instructions::read_instructions(path)?,
            });
        } else {
            let record = queens_record::read(path)?;
            sources.push(Source {
                label,
                newer_code: stale_solvers(&record, code),
                record,
            });
        }
    }
    if sources.is_empty() {
        let path = paths.first().map_or(Path::new("."), PathBuf::as_path);
        return Err(FileError::new(
            path,
            "no bench record among the records given: the instructions go beside a bench record's times",
        )
        .into());
    }
    Ok((sources, instructions))
}

/// A page with its generated parts replaced: the README's comparison
/// section, if it has the markers, and every measured block. A page with
/// neither is refused: splicing it would silently do nothing.
fn splice_page(
    target: &Path,
    document: &str,
    overlay: &Overlay,
    out: &Path,
) -> Result<String, FileError> {
    let has_comparison = document.contains(BEGIN_MARKER) || document.contains(END_MARKER);
    let document = if has_comparison {
        splice(document, "").map_err(|problem| FileError::new(target, problem))?;
        let prefix = link_prefix(target, out)?;
        splice(document, &super::tables::readme_section(overlay, &prefix))
            .map_err(|problem| FileError::new(target, problem))?
    } else {
        document.to_string()
    };
    let (document, blocks) =
        splice_measured(&document, overlay).map_err(|problem| FileError::new(target, problem))?;
    if !has_comparison && blocks == 0 {
        return Err(FileError::new(
            target,
            format!(
                "no {BEGIN_MARKER} marker line, nor any {BEGIN_PREFIX}... block: nothing to splice"
            ),
        ));
    }
    Ok(document)
}

/// The path from the spliced file's directory to the output directory, with
/// a trailing slash, for the links in the spliced section. The output
/// directory need not exist yet: its nearest existing ancestor is resolved.
fn link_prefix(target: &Path, out: &Path) -> Result<String, FileError> {
    let absolute = |path: &Path| {
        path.canonicalize()
            .map_err(|e| FileError::new(path, format!("cannot resolve: {e}")))
    };
    let from = absolute(match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    })?;
    std::fs::create_dir_all(out)
        .map_err(|e| FileError::new(out, format!("cannot create directory: {e}")))?;
    let to = absolute(out)?;
    let common = from
        .components()
        .zip(to.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut relative = PathBuf::new();
    for component in from.components().skip(common) {
        if let Component::Normal(_) = component {
            relative.push("..");
        }
    }
    relative.extend(to.components().skip(common));
    let text = relative.to_string_lossy().replace('\\', "/");
    Ok(if text.is_empty() {
        String::new()
    } else {
        format!("{text}/")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_record::fixtures::{sample_instructions, sample_record};
    use queens_record::instructions::write_new_instructions;

    #[test]
    fn records_are_told_apart_by_their_schema() {
        let dir = tempfile::tempdir().unwrap();
        let bench = queens_record::write_new(dir.path(), "bench", &sample_record()).unwrap();
        let counted = write_new_instructions(dir.path(), &sample_instructions()).unwrap();
        let (sources, instructions) =
            read_sources(&[counted.clone(), bench.clone()], &Default::default()).unwrap();
        assert_eq!(sources.len(), 1);
        assert_eq!(sources[0].record, sample_record());
        assert_eq!(instructions.unwrap().record, sample_instructions());

        let second = write_new_instructions(dir.path(), &sample_instructions()).unwrap();
        let twice = read_sources(&[bench, counted.clone(), second], &Default::default())
            .err()
            .expect("refused");
        assert!(
            twice.to_string().contains("a second instructions record"),
            "{twice}"
        );
        let alone = read_sources(&[counted], &Default::default())
            .err()
            .expect("refused");
        assert!(alone.to_string().contains("no bench record"), "{alone}");
    }
}
