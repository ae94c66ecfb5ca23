//! Regenerates the man pages: `cargo run --locked --example man-pages -- DIR` writes one
//! page per command into DIR (default `man/`) and removes stale ones. `scripts/package --man`
//! runs it; the pages come from [`myops::manpages`].

fn main() -> std::process::ExitCode {
    let dir = std::env::args_os()
        .nth(1)
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| myops::manpages::DIR.into());
    match myops::manpages::write_all(&dir) {
        Ok(written) => {
            println!("{} man pages in {}", written.len(), dir.display());
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot write man pages to {}: {e}", dir.display());
            std::process::ExitCode::FAILURE
        }
    }
}
