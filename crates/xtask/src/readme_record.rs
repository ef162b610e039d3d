//! A committed record that a README section is made from: the build time
//! (`cargo xtask build-time`) and the comparison with the quadrant join
//! (`cargo xtask vs-quadrant`). Each lives in one file under the records
//! directory, replaced on purpose by its command (the README states one
//! figure, the newest); the section between `<!-- BEGIN: SECTION -->` and
//! `<!-- END: SECTION -->` is made from the record alone, and CI checks
//! that the README shows what the record says.

use std::path::{Path, PathBuf};

use queens_record::{Kind, RECORDS_DIR, files};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::architecture::source;
use crate::{Error, workspace};

/// What is wrong with a record: the field, and why.
pub type Problem = (String, String);

/// A record with a README section of its own.
pub trait ReadmeRecord: Serialize + DeserializeOwned {
    /// Its file name, under the records directory.
    const FILE: &'static str;
    /// Its header, and what a refusal calls it.
    const KIND: Kind;
    /// The README section it makes, which is also the `cargo xtask`
    /// command that measures it.
    const SECTION: &'static str;

    /// Whether it means what it says: `Err` names the field and what is
    /// wrong with it.
    fn check(&self) -> Result<(), Problem>;

    /// The README section, made from this record only.
    fn section(&self) -> String;
}

/// The constants of a [`ReadmeRecord`] impl, all made from its section's
/// name (which is also its command's and its file's): `FILE`
/// (`SECTION.json`), `SECTION`, and `KIND` with the given header and the
/// refusals' words ("a SECTION record", "rerun `cargo xtask SECTION`").
#[macro_export]
macro_rules! readme_record_consts {
    ($section:literal, $format:expr, $version:expr) => {
        const FILE: &'static str = concat!($section, ".json");
        const SECTION: &'static str = $section;
        const KIND: queens_record::Kind = queens_record::Kind {
            format: $format,
            version: $version,
            retired: None,
            name: concat!("a ", $section, " record"),
            remedy: concat!("rerun `cargo xtask ", $section, "`"),
            versions_of: concat!($section, " "),
        };
    };
}

/// Where `R`'s record lives, relative to the workspace root.
pub fn path<R: ReadmeRecord>() -> PathBuf {
    Path::new(RECORDS_DIR).join(R::FILE)
}

/// Reads a record and checks its meaning: a problem is one line naming the
/// file and the field.
pub fn read<R: ReadmeRecord>(path: &Path) -> Result<R, Error> {
    queens_record::read_kind(path, &R::KIND, R::check)
        .map_err(|error| Error::Usage(error.to_string()))
}

/// `readme` with `R`'s section made from `record`.
pub fn spliced<R: ReadmeRecord>(readme: &str, record: &R) -> Result<String, Error> {
    queens_report::splice_section(readme, R::SECTION, &record.section())
        .map_err(|problem| Error::Usage(format!("README.md: {problem}")))
}

/// A README record's command: unless `splice_only`, checks that README.md
/// has `R`'s markers (before minutes of measuring, not after), measures,
/// checks and writes the record; then splices the section made from the
/// record on disk into README.md.
pub fn run<R: ReadmeRecord>(
    splice_only: bool,
    measure: impl FnOnce() -> Result<R, Error>,
) -> Result<(), Error> {
    let measured = if splice_only {
        None
    } else {
        readme_takes::<R>()?;
        Some(measure()?)
    };
    publish(measured)
}

/// Fails unless README.md has `R`'s markers.
fn readme_takes<R: ReadmeRecord>() -> Result<(), Error> {
    queens_report::splice_section(&source::read(Path::new("README.md"))?, R::SECTION, "")
        .map(drop)
        .map_err(|problem| Error::Usage(format!("README.md: {problem}")))
}

/// Writes `measured` (when given, after checking it), then splices the
/// section made from the record on disk into README.md (atomically).
fn publish<R: ReadmeRecord>(measured: Option<R>) -> Result<(), Error> {
    if let Some(record) = measured {
        record
            .check()
            .map_err(|(field, problem)| Error::Failed(format!("measured {field}: {problem}")))?;
        workspace::write_json(&path::<R>(), &record)?;
        println!("wrote {}", path::<R>().display());
    }
    let record: R = read(&path::<R>())?;
    let made = spliced(&source::read(Path::new("README.md"))?, &record)?;
    files::replace_atomically(Path::new("README.md"), made.as_bytes())?;
    println!("spliced README.md:\n{}", record.section().trim_end());
    Ok(())
}

/// Fails unless the README at `root` shows what `R`'s committed record
/// makes (run by `cargo xtask ci checks`). A README without the markers
/// has nothing to check; it must then have no record either, so that a
/// measurement is never committed unseen.
pub fn readme_reproduces<R: ReadmeRecord>(root: &Path) -> Result<(), Error> {
    let readme = source::read(&root.join("README.md"))?;
    let record_path = root.join(path::<R>());
    let section = R::SECTION;
    if !readme.contains(&format!("<!-- BEGIN: {section} -->")) {
        if record_path.exists() {
            return Err(Error::Failed(format!(
                "{} exists but README.md has no {section} markers to show it",
                path::<R>().display()
            )));
        }
        println!("README.md has no {section} section and there is no record: nothing to check");
        return Ok(());
    }
    if spliced(&readme, &read::<R>(&record_path)?)? != readme {
        return Err(Error::Failed(format!(
            "README.md's {section} section is not what {} makes: run `cargo xtask {section} --splice-only`",
            path::<R>().display()
        )));
    }
    Ok(())
}
