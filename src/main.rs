//! `kubectl-myops` entry point: parse, run, map the outcome to an exit code.
use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(myops::app::main())
}
