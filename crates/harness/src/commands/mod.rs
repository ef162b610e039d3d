//! One module per subcommand.

pub mod count;
pub mod list;
pub mod solve;
pub mod verify;
