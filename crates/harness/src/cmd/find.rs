//! `queens find N`: one board of the n×n board, for any n up to 10^8,
//! checked by the O(n) checker before a byte is printed. The other
//! question beside `solve` (which lists boards of n <= 32): the board is
//! written down (construction), repaired into shape (min-conflicts) or
//! searched for (fail-first, and the depth-first solvers stopped at their
//! first board).

use std::io::{self, BufWriter, Write};

use queens_core::find::{Found, MAX_FIND_N, check_found};
use queens_core::{Finder, Placement};

use crate::args::number;
use crate::boards::Format;
use crate::error::{CliError, output};
use crate::registry;

/// `queens find`'s arguments.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// Board size (n queens on an n×n board).
    #[arg(value_parser = number(
        "n",
        1..=MAX_FIND_N,
        "a board is held as one u32 per file: 400 MB at the limit"
    ))]
    pub n: usize,
    /// Finder id (see `queens list`, the ones answering "find"); default:
    /// the first that supports n (construction).
    #[arg(long)]
    pub solver: Option<String>,
    /// The seed of a random search (min-conflicts): the same seed gives
    /// the same board. Deterministic finders ignore it.
    #[arg(long, default_value_t = 0, value_parser = number("--seed", 0..=u64::MAX, ""))]
    pub seed: u64,
    /// Output format. `json` is one object: {"n", "solver", "seed",
    /// "steps", "about", "board": [row of file a, ...] or null}, rows 0-based.
    #[arg(long, value_enum, default_value_t = Format::Ranks)]
    pub format: Format,
}

/// Finds, checks, prints.
pub fn run(args: &Args) -> Result<(), CliError> {
    let n = args.n;
    let finder = registry::choose_finder(args.solver.as_deref(), n)?;
    args.format.check_n(n)?;
    crate::memory::check_find(finder, n)?;
    let found = finder.find(n, args.seed)?;
    if let Err(wrong) = check_found(n, &found) {
        return Err(CliError::Verification(format!(
            "{} (n = {n}, seed {}): {wrong}",
            finder.info().id,
            args.seed
        )));
    }
    let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
    output(write_found(&mut out, args, finder, &found).and_then(|()| out.flush()))
}

fn write_found(
    out: &mut impl Write,
    args: &Args,
    finder: &dyn Finder,
    found: &Found,
) -> io::Result<()> {
    let about = finder.about(args.n);
    if args.format == Format::Json {
        let json = FoundJson {
            n: args.n,
            solver: finder.info().id,
            seed: args.seed,
            steps: found.steps,
            about,
            board: found.board.as_ref().map(Placement::rows),
        };
        serde_json::to_writer(&mut *out, &json)?;
        return writeln!(out);
    }
    let Some(board) = &found.board else {
        return writeln!(out, "no board exists for n = {}", args.n);
    };
    if matches!(args.format, Format::Board | Format::Unicode)
        && let Some(about) = about
    {
        writeln!(out, "{about}")?;
    }
    write_board(out, args.format, board)
}

/// `--format json`'s object, its keys in this order.
#[derive(serde::Serialize)]
struct FoundJson<'a> {
    n: usize,
    solver: &'a str,
    seed: u64,
    steps: u64,
    about: Option<String>,
    /// The row of each file, 0-based; null where no board exists.
    board: Option<&'a [u32]>,
}

fn write_board(out: &mut impl Write, format: Format, board: &Placement) -> io::Result<()> {
    // A board past 255 files is only ever printed as ranks or JSON
    // (check_n refuses the rest first).
    match board.to_bytes().filter(|_| format != Format::Ranks) {
        Some(bytes) => format.write_small(out, &bytes),
        None => crate::boards::write_ranks(out, board.rows().iter().copied()),
    }
}
