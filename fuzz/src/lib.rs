//! The fuzz targets' bodies (issue 10); see `targets.rs`.
#[path = "targets.rs"]
mod targets;
pub use targets::*;
