//! The ground floor every module may use (docs/design.md, "Layers"): pure helpers with no
//! knowledge of Kubernetes requests, commands or output.
//!
//! - [`deadline`]: how long any one wait of a command may last;
//! - [`decode`]: JSON decoded as deep as the API server stores objects (10,000 levels), and
//!   the stack the command runs on to hold such an object;
//! - [`echo`]: escaping and capping of every value echoed back to a terminal;
//! - [`fsutil`]: crash-safe file helpers (bounded reads, atomic writes, locks, free space);
//! - [`redact`]: the one redaction of credentials and Secret values for every output;
//! - [`validate`]: the checks of user-given names, selectors and field managers, as the API
//!   server would make them, before any request.

pub mod deadline;
pub mod decode;
pub mod echo;
pub mod fsutil;
pub mod redact;
pub mod validate;
