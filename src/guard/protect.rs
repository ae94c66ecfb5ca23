//! Protected contexts and namespaces on the guarded path (docs/protection.md).

pub mod lifts;
