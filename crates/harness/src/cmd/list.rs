//! `queens list`: what is registered, the questions each answers ("count"
//! all boards, "list" them, "find" one), and its limits.

use queens_report::terminal::{Align, Column, Table, Width, wrap_lines};

use crate::error::{CliError, print};
use crate::registry;

/// `queens list`'s arguments.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print each fact on one line, however long, instead of wrapping at
    /// 100 columns.
    #[arg(long)]
    pub wide: bool,
}

/// Prints the registry, one block per solver, then one per finder that is
/// not also a solver (a listing solver's first board is the same id): a
/// row of id, largest n and questions answered, and under it the idea,
/// the seed, the limit and the device, each wrapped to the width (they
/// are sentences, too long for a column beside the others).
pub fn run(args: &Args) -> Result<(), CliError> {
    let mut table = Table::new(vec![
        Column::fixed("id", Align::Left),
        Column::fixed("max n", Align::Right),
        Column::fixed("answers", Align::Left),
    ]);
    for entry in registry::subjects() {
        table.row(vec![
            entry.info.id.to_string(),
            entry.info.max_n.to_string(),
            entry.questions(),
        ]);
        let device = entry.solver.and_then(|solver| match solver.accelerator() {
            Ok(None) => None,
            Ok(Some(device)) => Some(format!("device: {device}")),
            Err(missing) => Some(format!("unavailable: {missing}")),
        });
        let facts = [
            Some(format!("idea: {}", entry.info.idea)),
            Some(format!("seed: {}", entry.info.seed)),
            Some(format!(
                "limit: n <= {} {}",
                entry.info.max_n, entry.info.limit_reason
            )),
            device,
        ];
        for fact in facts.into_iter().flatten() {
            table.below(fact);
        }
    }
    let width = Width::terminal(args.wide);
    let mut text = table.render(width);
    text.push('\n');
    text.push_str(&wrap_lines(
        "answers: count = how many boards (`queens count`), list = every board \
         (`queens solve`), find = one board (`queens find`)\n",
        width,
        "answers: ".len(),
    ));
    print(&text)
}
