//! `queens report`: COMPARISON.md and the plots from records, and optionally
//! the README section between its markers.

use std::path::{Component, Path, PathBuf};

use crate::record::{self, replace_atomically};
use crate::report::{self, COMPARISON_FILE, NODES_PLOT_FILE, Source, TIME_PLOT_FILE};

use crate::error::CliError;
use crate::registry;

/// Where records live by default.
const RECORDS_DIR: &str = "bench-results";

#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// Records to report on, later ones replacing earlier ones' entries for
    /// the same (solver, n); default: the newest in bench-results/.
    pub records: Vec<PathBuf>,
    /// Directory for COMPARISON.md and the SVG plots.
    #[arg(long, default_value = RECORDS_DIR)]
    pub out: PathBuf,
    /// Also replace the section between `<!-- BEGIN: comparison -->` and
    /// `<!-- END: comparison -->` in this file (e.g. README.md).
    #[arg(long)]
    pub splice: Option<PathBuf>,
}

pub fn run(args: &ReportArgs) -> Result<(), CliError> {
    let paths = if args.records.is_empty() {
        vec![record::newest(Path::new(RECORDS_DIR)).map_err(CliError::Io)?]
    } else {
        args.records.clone()
    };
    let sources = paths
        .iter()
        .map(|path| {
            Ok(Source {
                label: path.display().to_string(),
                record: record::read(path).map_err(CliError::Io)?,
            })
        })
        .collect::<Result<Vec<_>, CliError>>()?;
    // The header names the records, not --out or --splice: the same records
    // must give the same bytes wherever the report is written.
    let labels: Vec<&str> = sources.iter().map(|s| s.label.as_str()).collect();
    let command = format!("queens report {}", labels.join(" "));
    let analysis = |id: &str| registry::find(id).ok().map(|solver| solver.info().analysis);
    let outputs = report::generate(&command, &sources, &analysis).map_err(CliError::Io)?;
    // A splice target that cannot be spliced is refused before anything is written.
    let document = match &args.splice {
        Some(target) => {
            let document = std::fs::read_to_string(target)
                .map_err(|e| CliError::Io(format!("{}: cannot read: {e}", target.display())))?;
            report::splice(&document, "")
                .map_err(|problem| CliError::Usage(format!("{}: {problem}", target.display())))?;
            Some(document)
        }
        None => None,
    };

    let write = |name: &str, text: &str| {
        let path = args.out.join(name);
        replace_atomically(&path, text.as_bytes()).map_err(CliError::Io)?;
        println!("wrote {}", path.display());
        Ok::<(), CliError>(())
    };
    write(COMPARISON_FILE, &outputs.comparison)?;
    write(TIME_PLOT_FILE, &outputs.time_plot)?;
    write(NODES_PLOT_FILE, &outputs.nodes_plot)?;

    if let (Some(target), Some(document)) = (&args.splice, document) {
        let prefix = link_prefix(target, &args.out)?;
        let spliced = report::splice(&document, &report::readme_section(&sources, &prefix))
            .map_err(|problem| CliError::Usage(format!("{}: {problem}", target.display())))?;
        replace_atomically(target, spliced.as_bytes()).map_err(CliError::Io)?;
        println!("spliced {}", target.display());
    }
    Ok(())
}

/// The path from the spliced file's directory to the output directory, with
/// a trailing slash, for the links in the spliced section.
fn link_prefix(target: &Path, out: &Path) -> Result<String, CliError> {
    let absolute = |path: &Path| {
        path.canonicalize()
            .map_err(|e| CliError::Io(format!("{}: cannot resolve: {e}", path.display())))
    };
    let from = absolute(match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    })?;
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
